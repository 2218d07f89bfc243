#!/bin/bash
# Live cost: CPU (% of one core) and peak RSS of `somniq run` listening in real time
# for SECONDS (default 60) to a paced source: the monitor of a PulseAudio null sink
# (docs/behaviour.md#testing-without-a-sound-card), fed with the demo night on a loop. Prints numbers; asserts nothing.
# CLIPS=1 turns clips on (config.json "clips": {"enabled": true}), WEB=1 the web page
# ("http" on 127.0.0.1:18481, not visited), to measure what they cost. RUNNER is put before
# the command (scripts/symbol-order.sh runs it under callgrind so).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bin=${SOMNIQ_BIN:-.build/release/somniq}
work=$(mktemp -d)
trap 'PULSE_SERVER=unix:$work/native pactl exit 2>/dev/null || true; kill $player 2>/dev/null || true; rm -rf "$work"' EXIT
export HOME=$work PULSE_SERVER=unix:$work/native
cat > "$work/.asoundrc" <<CONF
pcm.pulsefix { type pulse; device "fixture.monitor" }
CONF
pulseaudio -n --daemonize=yes --exit-idle-time=-1 --use-pid-file=no \
    -L "module-null-sink sink_name=fixture rate=16000 channels=1" \
    -L "module-native-protocol-unix socket=$work/native auth-anonymous=1" 2>/dev/null
for _ in $(seq 50); do [ -S "$work/native" ] && break; sleep 0.1; done
sox fixtures/demo-night.flac "$work/night.wav"
( while true; do paplay -d fixture "$work/night.wav"; done ) & player=$!
config=()
if [ "${CLIPS:-0}" = 1 ] || [ "${WEB:-0}" = 1 ]; then
    clips=$([ "${CLIPS:-0}" = 1 ] && echo ', "clips": {"enabled": true}' || true)
    web=$([ "${WEB:-0}" = 1 ] && echo ', "http": {"listen": "127.0.0.1:18481"}' || true)
    printf '{"log": "%s"%s%s}\n' "$work/events.jsonl" "$clips" "$web" > "$work/config.json"
    config=(--config "$work/config.json")
fi
/usr/bin/time -f "%e %U %S %M" -o "$work/time" \
    ${RUNNER:-} "$bin" run "${config[@]}" --device pulsefix --log "$work/events.jsonl" --max-seconds "$seconds" 2>/dev/null
read -r wall user sys rss < "$work/time"
awk -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v n="$seconds" 'BEGIN {
    printf "listened %.0f s of real-time audio in %.1f s\n", n, w
    printf "CPU: %.2f %% of one core (user %.2f s, system %.2f s)\n", 100 * (u + s) / w, u, s
    printf "peak RSS: %.1f MB\n", r / 1024 }'
printf "events logged: %s\n" "$(grep -c '"kind":"event_start"' "$work/events.jsonl" || true)"
if [ "${CLIPS:-0}" = 1 ]; then
    printf "clips kept: %s, %s\n" "$(find "$work/clips" -name '*.flac' 2>/dev/null | wc -l)" "$(du -sh "$work/clips" 2>/dev/null | cut -f1)"
fi
