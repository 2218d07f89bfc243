#!/bin/bash
# The web page's times on a year of nights (`make web-bench`): an 8-hour night made of the
# demo night looped, replayed as if heard, repeated on 365 evenings (scripts/year-log.py),
# then served by `somniq serve` and each page fetched with curl: first with no index (it
# is made from the log), then again, then after a restart (the index read back). The last
# of the nights is tonight's, so that / shows a whole night.
set -euo pipefail
somniq=${SOMNIQ:-.build/release/somniq}
nights=${NIGHTS:-365}
work=${WORK:-.build/web-bench}
port=${PORT:-18480}
mkdir -p "$work"
if [[ ! -s $work/night.jsonl ]]; then
    echo "== an 8-hour night: the demo night (3 min) looped 160 times, replayed from 23:00"
    sox fixtures/demo-night.flac "$work/night.flac" repeat 159
    "$somniq" replay "$work/night.flac" --format jsonl --output "$work/night.jsonl" --start 2026-11-23T23:00
fi
# Tonight's night: nights run from noon to noon, local time.
tonight=$(date -d '-12 hours' +%F)
if [[ ! -s $work/year.jsonl || $(cat "$work/year.tonight" 2>/dev/null) != "$tonight" ]]; then
    scripts/year-log.py "$work/night.jsonl" "$nights" "$work/year.jsonl" "$tonight"
    echo "$tonight" > "$work/year.tonight"
fi
rm -f "$work/year.jsonl.index"
echo "== $(wc -l < "$work/year.jsonl") records, $(( $(stat -c %s "$work/year.jsonl") / 1048576 )) MiB, $nights nights"
middle=$(date -d "$tonight -180 days" +%F)
pages=(/history /history "/history?group=week" "/night/$middle" "/night/$tonight" / /api/nights "/api/night/$middle" /api/status /healthz /metrics)
serve() {
    "$somniq" serve --log "$work/year.jsonl" --listen "127.0.0.1:$port" 2>/dev/null &
    pid=$!
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
}
fetch() {
    for p in "$@"; do
        curl -s -o /dev/null -w "%{http_code}  %{time_total} s  %{size_download} bytes  $p\n" "http://127.0.0.1:$port$p"
    done
}
echo "== served, no index yet: the first page makes it"
serve
fetch "${pages[@]}"
kill $pid; wait $pid 2>/dev/null || true
echo "== restarted: the index read back from $work/year.jsonl.index ($(( $(stat -c %s "$work/year.jsonl.index") / 1024 )) KiB)"
serve
fetch "${pages[@]}"
kill $pid; wait $pid 2>/dev/null || true
