#!/usr/bin/env python3
"""Makes a long event log from one night's: the night repeated on each of N consecutive
evenings, every time in it moved by whole days (and the event ids with them), as if the
daemon had heard the same night all year. For measuring the web page and the history on
a year of nights (scripts/web-bench.sh), not for the corpus.

    scripts/year-log.py NIGHT.jsonl 365 YEAR.jsonl [LAST]

LAST (YYYY-MM-DD) is the evening of the last night; by default the night's own.
"""
import datetime
import json
import re
import sys

TIME = re.compile(r'"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"')
ID = re.compile(r'"r(\d+)-e')


def main():
    source, nights, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    text = open(source).read()
    first = json.loads(text.split("\n", 1)[0])
    if first.get("kind") != "session_start" or "start_time" not in first:
        sys.exit(f"{source}: must begin with a session_start that has a start_time (replay with --start)")
    own = datetime.date.fromisoformat(first["start_time"][:10])
    last = datetime.date.fromisoformat(sys.argv[4]) if len(sys.argv) > 4 else own
    with open(out, "w") as f:
        for k in range(nights):
            shift = datetime.timedelta(days=k - nights + 1) + (last - own)

            def moved(m):
                s = m.group(1)
                t = datetime.datetime.strptime(s[:19], "%Y-%m-%dT%H:%M:%S") + shift
                return '"' + t.strftime("%Y-%m-%dT%H:%M:%S") + s[19:] + '"'

            night = TIME.sub(moved, text)
            night = ID.sub(lambda m: '"r%d-e' % (int(m.group(1)) + int(shift.total_seconds())), night)
            f.write(night)


if __name__ == "__main__":
    main()
