#!/usr/bin/env bash
# Builds somniq's libFuzzer targets (Fuzz/targets/*.swift) and runs each for a while.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: audio profile config labels report index learned home (default: all)
#
# SECONDS per target: the first argument, else $FUZZ_SECONDS, else 60. Environment:
#   FUZZ_WORK        work directory (default /tmp/somniq-fuzz): build/, corpus/, logs/
#   FUZZ_ARTIFACTS   where crashing, leaking, slow and out-of-memory inputs go
#                    (default $FUZZ_WORK/artifacts/<target>/)
#   FUZZ_KEEP_GOING  1: keep fuzzing after a finding (libFuzzer -fork=1 -ignore_crashes=1 …)
#   FUZZ_BUILD_ONLY  1: build the fuzzers and stop
#   FUZZ_FLAGS       more libFuzzer flags for every target (e.g. -jobs=2, -use_value_profile=1)
#   SOMNIQ_ROOT      the package to fuzz (default: this script's checkout)
#
# The library modules (SomniqSession, which the targets' modules are under: SomniqAudio,
# SomniqConfig, SomniqReports, SomniqSinks, SomniqSupport, SomniqCore) are built by SwiftPM
# in release mode with -sanitize=fuzzer,address (coverage and AddressSanitizer), in a
# scratch directory of their own; each target is then compiled and linked against their
# objects with swiftc. The committed corpus (Fuzz/corpus/<target>, and profiles/ for the
# profile target) is read, never written:
# new inputs go to $FUZZ_WORK/corpus/<target>, emptied at each run.
#
# Prints, per target, executions per second, coverage and what it found; exits 1 if any
# target found something (a crash, a trap, an ASan report, a leak, a timeout or an
# out-of-memory), 2 if the build failed.
#
# Reproduce a finding:  SWIFT_BACKTRACE=enable=no $FUZZ_WORK/build/bin/fuzz-<target> <input>
# Minimise it:          SWIFT_BACKTRACE=enable=no $FUZZ_WORK/build/bin/fuzz-<target> -minimize_crash=1 -runs=20000 <input>
#
# Needs only what the package's build needs (the Swift toolchain from swift.org, which
# has libFuzzer, and the -dev packages of `make deps`) and pkg-config.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=${SOMNIQ_ROOT:-$here}
fuzz=$here/Fuzz
per_target=${1:-${FUZZ_SECONDS:-60}}
[[ $# -gt 0 ]] && shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(audio profile config labels report index learned home)
work=${FUZZ_WORK:-/tmp/somniq-fuzz}
build=$work/build
artifacts=${FUZZ_ARTIFACTS:-$work/artifacts}

[[ $per_target =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, not '$per_target'" >&2; exit 2; }

# libFuzzer flags of each target: the longest input, the slowest acceptable run (seconds).
max_len() { case $1 in audio) echo 32768 ;; profile) echo 8192 ;; config) echo 4096 ;; labels) echo 4096 ;; report) echo 65536 ;; index) echo 8192 ;; learned) echo 8192 ;; home) echo 16384 ;; esac; }
timeout_s() { case $1 in audio) echo 30 ;; *) echo 10 ;; esac; }
dict() { case $1 in audio) echo audio ;; profile|config) echo json ;; labels) echo labels ;; report) echo report ;; index) echo index ;; learned) echo learned ;; home) echo home ;; esac; }
for t in "${targets[@]}"; do
    [[ -f $fuzz/targets/$t.swift ]] || { echo "fuzz.sh: no target '$t' (have: audio profile config labels report index learned home)" >&2; exit 2; }
done

if ! command -v swiftc >/dev/null; then export PATH=/opt/swift/usr/bin:$PATH; fi
command -v swiftc >/dev/null || { echo "fuzz.sh: swiftc not found (install the swift.org toolchain)" >&2; exit 2; }
resource_dir=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift
if ! ls "$resource_dir"/clang/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
    echo "fuzz.sh: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer); use the swift.org toolchain" >&2
    exit 2
fi

# --- build -------------------------------------------------------------------------
mkdir -p "$build/bin" "$work/logs"
started=$(date +%s)
echo "== building the library modules with -sanitize=fuzzer,address (release) in $build/pkg"
if ! swift build -c release --package-path "$root" --scratch-path "$build/pkg" --target SomniqSession \
        -Xswiftc -sanitize=fuzzer,address >"$work/logs/build.log" 2>&1; then
    grep -E "error:" "$work/logs/build.log" | head -20 >&2 || tail -20 "$work/logs/build.log" >&2
    echo "fuzz.sh: building the package failed; the whole log: $work/logs/build.log" >&2
    exit 2
fi
out=$build/pkg/release
objects=("$out"/*.build/*.o)
# The C modules those modules import (their system libraries, their C targets' generated maps
# and its dependencies' shims).
modulemaps=()
for m in "$root"/Sources/*/module.modulemap "$out"/*.build/module.modulemap \
         "$build"/pkg/checkouts/*/Sources/*/include/module.modulemap; do
    if [[ -f $m ]]; then modulemaps+=(-Xcc "-fmodule-map-file=$m"); fi
done
# The system libraries of their systemLibrary targets (libcurl and libmosquitto are
# not linked: CNetLibs opens them with dlopen; ALSA is SomniqCapture's, not built here).
read -ra syslibs <<<"$(pkg-config --libs fftw3f sndfile soxr 2>/dev/null ||
                       echo "-lfftw3f -lsndfile -lsoxr")"
for t in "${targets[@]}"; do
    module=Fuzz${t^}
    if ! swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name "$module" \
            -I "$out/Modules" "${modulemaps[@]}" "$fuzz/targets/$t.swift" "$fuzz"/support/*.swift "${objects[@]}" "${syslibs[@]}" \
            -o "$build/bin/fuzz-$t" >"$work/logs/build-$t.log" 2>&1; then
        grep -E "error" "$work/logs/build-$t.log" | head -20 >&2
        echo "fuzz.sh: building fuzz-$t failed; the whole log: $work/logs/build-$t.log" >&2
        exit 2
    fi
done
echo "== built ${targets[*]} in $(( $(date +%s) - started )) s: $build/bin/fuzz-<target>"
[[ ${FUZZ_BUILD_ONLY:-0} == 1 ]] && exit 0

# --- run ---------------------------------------------------------------------------
keep_going=()
[[ ${FUZZ_KEEP_GOING:-0} == 1 ]] && keep_going=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
# Leaks are findings too (libFuzzer checks them per input under ASan), except inside the
# codec libraries under libsndfile (Fuzz/lsan.supp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS="suppressions=$fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Swift's own crash backtracer reads the crashed process's stack, which ASan reports as a
# bug of its own, and then hangs; libFuzzer prints the stack trace instead.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# What the report in a libFuzzer log is: its kind, its message and the first stack frame in
# somniq's sources (an -O build's trap says no more than "deadly signal" by itself).
describe() {
    local kind what where sym
    kind=$(grep -m1 -E "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY: libFuzzer" "$1" |
           sed -E 's/^==[0-9]+== ?//' || true)
    what=$(grep -m1 -E "Fatal error:|^ *#[0-9]+ .* in Swift runtime failure: " "$1" |
           sed -E 's/.* in (Swift runtime failure: .*) \/<compiler-generated>.*/\1/' || true)
    where=$(sed -n '/ERROR: \|Fatal error:/,$p' "$1" | grep -m1 -E "^ *#[0-9]+ .* in [^ ]+ [^ ]*/Sources/[^ ]*\.swift" || true)
    [[ -n $kind ]] || return 1
    echo "    kind:   $kind"
    [[ -n $what ]] && echo "    what:   $what"
    if [[ -n $where ]]; then
        sym=$(sed -E 's/.* in ([^ ]+) .*/\1/' <<<"$where")
        echo "    where:  $(swift demangle --simplified --compact "$sym" 2>/dev/null || echo "$sym") at ${where##* }"
    fi
    return 0
}

# Runs each new artifact of target $1 again and prints each distinct finding once.
findings() {
    local t=$1 a out description key
    local -A count=() example=()
    local -a order=()
    out=$(mktemp -d)
    while IFS= read -r a; do
        (cd "$out" && timeout $(( $(timeout_s "$t") + 60 )) "$build/bin/fuzz-$t" -runs=1 -rss_limit_mb=2048 \
            -timeout="$(timeout_s "$t")" -artifact_prefix="$out/" "$a") >"$out/log" 2>&1 || true
        description=$(describe "$out/log" | sed -E 's/0x[0-9a-fA-F]{6,}/0x…/g') ||
            description="    kind:   $(basename "$a" | cut -d- -f1) (did not reproduce alone)"
        key=$(grep -v "kind:" <<<"$description" | tr -s ' ' || true)
        [[ -n $key ]] || key=$description
        if [[ -z ${count[$key]:-} ]]; then order+=("$key"); count[$key]=0; example[$key]="$a"$'\n'"$description"; fi
        count[$key]=$(( count[$key] + 1 ))
    done < <(find "$artifacts/$t" -type f -newer "$work/logs/$t.start" \( -name 'crash-*' -o -name 'leak-*' \
                  -o -name 'oom-*' -o -name 'timeout-*' \) -printf '%T@ %p\n' | sort -n | cut -d' ' -f2-)
    rm -rf "$out"
    for key in "${order[@]}"; do
        echo "  - ${count[$key]} input(s), e.g. ${example[$key]%%$'\n'*}"
        echo "${example[$key]#*$'\n'}"
    done
}

summary=()
failed=0
for t in "${targets[@]}"; do
    corpus=$work/corpus/$t
    rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts/$t"
    log=$work/logs/$t.log
    touch "$work/logs/$t.start"
    # The audio, report, index, learned and home targets write each input to a file here.
    export SOMNIQ_FUZZ_TMPDIR=$work/tmp
    rm -rf "$SOMNIQ_FUZZ_TMPDIR"; mkdir -p "$SOMNIQ_FUZZ_TMPDIR"
    # Seeds besides its corpus: the profile target reads the built-in profiles' one copy.
    seeds=()
    [[ $t == profile ]] && seeds=("$root/profiles")
    echo "== fuzz-$t for $per_target s (max_len $(max_len "$t"), log $log)"
    t0=$(date +%s)
    set +e
    # shellcheck disable=SC2086
    (cd "$work" && "$build/bin/fuzz-$t" -max_total_time="$per_target" -max_len="$(max_len "$t")" \
        -timeout="$(timeout_s "$t")" -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="$fuzz/dict/$(dict "$t").dict" -artifact_prefix="$artifacts/$t/" \
        "${keep_going[@]}" ${FUZZ_FLAGS:-} "$corpus" "$fuzz/corpus/$t" "${seeds[@]}") >"$log" 2>&1
    rc=$?
    set -e
    elapsed=$(( $(date +%s) - t0 )); [[ $elapsed -gt 0 ]] || elapsed=1
    stats=$(grep -E "cov: [0-9]+" "$log" | tail -1 || true)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$stats")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$stats")
    corp=$(sed -nE 's/.* corp: ([0-9]+(\/[0-9A-Za-z]+)?).*/\1/p' <<<"$stats")
    execs=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -1)
    [[ -z $execs ]] && execs=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$stats")
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)
    [[ -z $runs ]] && runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$stats")
    # -fork mode reports no final stats, and exec/s per job rounded down.
    [[ ${execs:-0} == 0 && -n $runs ]] && execs=$(( runs / elapsed ))
    found=$(find "$artifacts/$t" -type f -newer "$work/logs/$t.start" \( -name 'crash-*' -o -name 'leak-*' \
                 -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
    if [[ $rc -ne 0 || $found -gt 0 ]]; then
        failed=1
        result="FOUND: $found input(s)"
    else
        result="nothing found"
    fi
    line=$(printf "%-8s %4ss %8s exec/s %10s runs  cov %-5s ft %-6s corpus %-10s %s" \
        "$t" "$elapsed" "${execs:-?}" "${runs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result")
    echo "$line"
    [[ $found -gt 0 ]] && findings "$t"
    [[ $rc -ne 0 && $found -eq 0 ]] && tail -20 "$log" | sed 's/^/    /'
    rm -rf "$SOMNIQ_FUZZ_TMPDIR"
    summary+=("$line")
done

echo
echo "== summary ($per_target s per target; artifacts in $artifacts)"
printf '%s\n' "${summary[@]}"
exit $failed
