#!/bin/bash
# Where the instructions go (docs/benchmarks.md): `somniq replay --threads 1` of the first
# 1 s and the first 30 s of the demo night as 16 kHz WAV, each under callgrind (instruction
# counts, which the machine's load does not change), with each run's total, the start-up's
# share (the 1 s run less one 29th of the difference) and the per-second cost (the difference
# over 29 s), then the functions that cost most in each run, exclusive and inclusive, their
# names demangled. Prints numbers; asserts nothing.
#
#     scripts/profile.sh [SOMNIQ] [TOP]     (default .build/release/somniq, 25 functions)
#
# KEEP=DIR keeps the two callgrind files (cg.1, cg.30) in DIR for callgrind_annotate.
#
# Valgrind gives up on the release binary's debug information ("possibly corrupted
# debuginfo"), so it runs a copy without it (`objcopy --strip-debug`): the symbols stay, and
# callgrind names the functions by them. The copy is made with llvm-objcopy where there is
# one: GNU objcopy (binutils 2.40) does not recognise the file lld writes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/somniq}
top=${2:-25}
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && cp "$work"/cg.* "$KEEP"/; rm -rf "$work"' EXIT
$(command -v llvm-objcopy || echo objcopy) --strip-debug "$bin" "$work/somniq"
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
total() { sed -n 's/^summary: //p' "$1"; }
for s in 1 30; do
    sox fixtures/demo-night.flac "$work/night-$s.wav" trim 0 "$s"
    valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$work/cg.$s" \
        "$work/somniq" replay "$work/night-$s.wav" --threads 1 --format jsonl --output "$work/out-$s.jsonl" 2>/dev/null
done
one=$(total "$work/cg.1") thirty=$(total "$work/cg.30")
awk -v a="$one" -v b="$thirty" 'BEGIN {
    per = (b - a) / 29
    printf "1 s replay:  %.2f M instructions\n30 s replay: %.2f M instructions\n", a / 1e6, b / 1e6
    printf "per second of audio: %.3f M (the difference over 29 s)\nstart-up: %.2f M (the 1 s run less a second)\n", per / 1e6, (a - per) / 1e6 }'
for s in 1 30; do
    for kind in no yes; do
        echo
        echo "== $s s, $([ $kind = yes ] && echo inclusive || echo exclusive), the top $top"
        callgrind_annotate --inclusive=$kind --threshold=100 "$work/cg.$s" 2>/dev/null |
            sed -n '/^Ir *file:function/,$p' | sed 1,2d | awk -v n="$top" 'NR <= n' | demangle | cut -c1-200
    done
done
