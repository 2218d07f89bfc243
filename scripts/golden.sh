#!/usr/bin/env bash
# Records the SHA-256 of what somniq prints for the demo night and every clip in
# fixtures/clips: each window's features and scores (`features --rules`) and the event log
# (`replay --format jsonl`). GoldenOutputTests compares today's outputs with them, so that
# a change meant to make somniq faster is shown to change nothing it prints.
#
#   scripts/golden.sh [SOMNIQ]      write fixtures/golden/outputs.sha256
#
# Run it only when outputs are meant to change, and say why in the commit.
set -euo pipefail
cd "$(dirname "$0")/.."
somniq=${1:-.build/debug/somniq}
out=fixtures/golden/outputs.sha256
{
    for f in fixtures/demo-night.flac fixtures/clips/*/*.flac; do
        echo "$("$somniq" features --rules "$f" | sha256sum | cut -d' ' -f1)  features --rules $f"
        echo "$("$somniq" replay --format jsonl "$f" | sha256sum | cut -d' ' -f1)  replay --format jsonl $f"
    done
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(wc -l < "$out") outputs)"
