#!/bin/bash
# Writes packaging/somniq.order, the order lld lays out the release binary's functions in
# (Package.swift, `--symbol-ordering-file`; the release build compiles each function into a
# section of its own, Makefile's RELEASE_FLAGS): first every function of somniq's own binary
# that listening runs, then those a replay runs, as callgrind finds them in `somniq run`
# listening for 20 s to live-bench's paced source (scripts/live-bench.sh) and in a replay of
# 30 s of the demo night. Code that runs then lies together, so the pages the kernel maps
# around each first touch (64 kB at a time) hold little else: the resident memory of a
# listening somniq is what it runs. A stale order costs memory, never correctness: a name
# no longer in the binary is passed over, and a new function goes after the ordered ones.
#
#     scripts/symbol-order.sh [SOMNIQ]      (default .build/release/somniq)
#
# Run it after a change that moves much code (a new dependency, a reorganised module), then
# build again; docs/benchmarks.md, "Live memory", has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/somniq}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind refuses the release binary's debug information; the symbols are enough.
$(command -v llvm-objcopy || echo objcopy) --strip-debug "$bin" "$work/somniq"   # GNU objcopy 2.40 cannot read it
callgrind="valgrind --tool=callgrind --dump-instr=no --demangle=no"
RUNNER="$callgrind --callgrind-out-file=$work/cg.live" SOMNIQ_BIN=$work/somniq scripts/live-bench.sh 20 > /dev/null
sox fixtures/demo-night.flac "$work/night.wav" trim 0 30
$callgrind --callgrind-out-file="$work/cg.replay" "$work/somniq" replay "$work/night.wav" --format jsonl \
    --output "$work/night.jsonl" 2>/dev/null
python3 - "$work/cg.live" "$work/cg.replay" > packaging/somniq.order <<'PY'
import os, re, sys
# Each function of the binary itself (not a shared library) callgrind saw run, first seen first.
seen, order = set(), []
for path in sys.argv[1:]:
    names = {"ob": {}, "fn": {}}
    ob = None
    for line in open(path):
        m = re.match(r"(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        table = names[m.group(2)]
        if m.group(4) is not None:
            table[m.group(3)] = m.group(4)
        name = table[m.group(3)]
        if m.group(1):
            continue
        if m.group(2) == "ob":
            ob = name
        elif os.path.basename(ob or "") == "somniq" and not name.startswith("0x") and name not in seen:
            seen.add(name)
            order.append(name)
print("\n".join(order))
PY
echo "packaging/somniq.order: $(wc -l < packaging/somniq.order) functions"
