#!/usr/bin/env bash
# Records what somniq prints for the demo night and every clip in fixtures/clips: each
# window's features and scores (`features --rules`) and the event log (`replay --format
# jsonl`), as text in fixtures/golden/outputs/ (so that a change shows as a diff), and their
# SHA-256 in fixtures/golden/outputs.sha256, the index of the commands. GoldenOutputTests
# compares today's outputs with them, so that a change meant to make somniq faster is shown
# to change nothing it prints, and one that changes them says where.
#
#   scripts/golden.sh [SOMNIQ]      write fixtures/golden/outputs.sha256 and outputs/
#
# Run it only when outputs are meant to change, and say why in the commit.
set -euo pipefail
cd "$(dirname "$0")/.."
somniq=${1:-.build/debug/somniq}
out=fixtures/golden/outputs.sha256
dir=fixtures/golden/outputs
# An output's file: its recording's path below fixtures/, "/" made "_", and the command's.
name() { local f=${2#fixtures/}; f=${f%.flac}; echo "$dir.tmp/${f//\//_}.$1"; }
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
{
    for f in fixtures/demo-night.flac fixtures/clips/*/*.flac; do
        "$somniq" features --rules "$f" > "$(name features.tsv "$f")"
        echo "$(sha256sum < "$(name features.tsv "$f")" | cut -d' ' -f1)  features --rules $f"
        "$somniq" replay --format jsonl "$f" > "$(name replay.jsonl "$f")"
        echo "$(sha256sum < "$(name replay.jsonl "$f")" | cut -d' ' -f1)  replay --format jsonl $f"
    done
} > "$out.tmp"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$out.tmp" "$out"
echo "wrote $out and $dir/ ($(wc -l < "$out") outputs)"
