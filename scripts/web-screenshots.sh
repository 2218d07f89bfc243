#!/bin/bash
# The README's pictures of the web page (`make screenshot`): the daemon listening on the
# ALSA file plugin (docs/behaviour.md#testing-without-a-sound-card) with "http" and clips on, fed the demo night (its first
# 150 s at once, the rest at real time, so that it is still listening), and Debian's
# headless chromium taking / at a phone's size and the night's page at a desktop's.
set -euo pipefail
somniq=$(realpath "${SOMNIQ:-.build/release/somniq}")
out=$(realpath "${OUT:-docs}")
port=${PORT:-18090}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
export HOME=$work
cat > "$work/.asoundrc" <<'ALSA'
pcm.fixture {
    @args [ FILE ]
    @args.FILE { type string }
    type file
    slave.pcm "null"
    file "/dev/null"
    infile $FILE
    format "raw"
}
ALSA
sox fixtures/demo-night.flac -t raw -e signed -b 16 -c 1 -r 16000 "$work/night.raw"
mkfifo "$work/capture.fifo"
python3 - "$work/night.raw" "$work/capture.fifo" <<'PY' &
import sys, time
data = open(sys.argv[1], "rb").read()
out = open(sys.argv[2], "wb", buffering=0)
out.write(data[:150 * 32000])
start = time.monotonic()
for k in range(150 * 32000, len(data), 3200):
    out.write(data[k:k + 3200])
    time.sleep(max(0, start + (k - 150 * 32000 + 3200) / 32000 - time.monotonic()))
time.sleep(600)
PY
cat > "$work/config.json" <<JSON
{"log": "$work/events.jsonl", "room": "bedroom", "clips": {"enabled": true},
 "http": {"listen": "127.0.0.1:$port"}}
JSON
"$somniq" run --config "$work/config.json" --device "fixture:FILE=$work/capture.fifo" 2>/dev/null &
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
sleep 3
night=$(curl -s "http://127.0.0.1:$port/api/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["night"])')
shoot() {  # URL FILE WIDTH HEIGHT
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$3,$4" --screenshot="$2" "$1" 2>/dev/null
    echo "$2 ($3 × $4): $1"
}
shoot "http://127.0.0.1:$port/" "$out/web-tonight.png" 390 1400
shoot "http://127.0.0.1:$port/night/$night" "$out/web-night.png" 1040 1700
