#!/bin/bash
# The README's pictures of the web page (`make screenshot`): the daemon listening on the
# ALSA file plugin (docs/behaviour.md#testing-without-a-sound-card) with "http", a token, a sink and clips on, after three nights
# replayed into its log; fed the demo night (its first 120 s at once, the rest at real
# time, so that it is still listening and its smoke alarm still sounds when / is taken),
# and Debian's headless chromium taking /, a night's page and the history at a phone's
# width (390 px) and a night's page at a desktop's.
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
out.write(data[:120 * 32000])
start = time.monotonic()
for k in range(120 * 32000, len(data), 3200):
    out.write(data[k:k + 3200])
    time.sleep(max(0, start + (k - 120 * 32000 + 3200) / 32000 - time.monotonic()))
time.sleep(600)
PY
for days in 3 2 1; do
    day=$(date -d "$days days ago" +%F)
    "$somniq" replay fixtures/demo-night.flac --format jsonl --output "$work/$day.jsonl" --start "${day}T23:10" \
        --clips "$work/clips" >/dev/null 2>&1
    cat "$work/$day.jsonl" >> "$work/events.jsonl"
done
token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token" > "$work/token" && chmod 600 "$work/token"
cat > "$work/config.json" <<JSON
{"log": "$work/events.jsonl", "room": "bedroom", "clips": {"enabled": true},
 "http": {"listen": "127.0.0.1:$port", "token_file": "$work/token"},
 "sinks": [{"type": "webhook", "name": "phone", "url": "http://127.0.0.1:9/", "min_tier": "critical"}]}
JSON
"$somniq" run --config "$work/config.json" --device "fixture:FILE=$work/capture.fifo" 2>/dev/null &
auth="Authorization: Bearer $token"
for _ in $(seq 100); do curl -sf -o /dev/null -H "$auth" "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
# Tonight while its smoke alarm sounds (from 118 s of the night until 128.6 s).
for _ in $(seq 300); do curl -s -H "$auth" "http://127.0.0.1:$port/" | grep -q "sounding for" && break; sleep 0.1; done
night=$(curl -s -H "$auth" "http://127.0.0.1:$port/api/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["night"])')
shoot() {  # PATH FILE WIDTH HEIGHT: through /PATH?token=, which sets the token's cookie and comes back to PATH
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$3,$4" --screenshot="$2" "http://127.0.0.1:$port$1?token=$token" 2>/dev/null
    echo "$2 ($3 × $4): $1"
}
shoot / "$out/web-tonight.png" 390 1500
sleep 12  # the alarm has ended and its clip is written
shoot "/night/$night" "$out/web-night-phone.png" 390 2000
shoot /history "$out/web-history-phone.png" 390 1300
shoot "/night/$night" "$out/web-night.png" 1040 1700
