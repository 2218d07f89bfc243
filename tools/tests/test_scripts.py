"""scripts/: readme-check's blocks and matching, year-log's moved nights, chromium-dom's
WebSocket frames."""
import json
import socket
import struct
import subprocess
import sys

from conftest import ROOT, script, write

readme = script("readme-check")
dom = script("chromium-dom")


def test_the_fenced_blocks_with_the_directives_above_them():
    lines = ["text", "<!-- check: needs corpus -->", "<!-- check: prefix somniq -->", "```", "$ somniq x", "out",
             "```", "", "```", "plain", "```"]
    assert list(readme.blocks(lines)) == [(4, [("needs", "corpus"), ("prefix", "somniq")], ["$ somniq x", "out"]),
                                          (9, [], ["plain"])]


def test_a_sessions_commands_continued_lines_and_outputs():
    body = ["$ somniq replay a.flac \\", "> --format table", "12:00 cough", "12:01 door", "$ true"]
    assert readme.session(body, 10) == [["somniq replay a.flac \\\n--format table", ["12:00 cough", "12:01 door"], 12],
                                        ["true", [], 15]]


def test_outputs_match_with_placeholders_and_ellipses():
    assert readme.normalise("at 2026-11-22T23:40:05.250Z, id s1795401000-e3, ep-12-0123abcd  ") == \
        "at <time>, id s<session>-e3, ep-<id>"
    assert readme.matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert readme.matches(["a", "…"], ["a"])
    assert readme.matches(["took 1.2 s…"], ["took 1.2 s on 2 cores"])
    assert not readme.matches(["a", "d"], ["a", "b", "d"])
    assert not readme.matches(["a", "b"], ["a"])


def test_a_year_of_one_night_moves_times_and_ids_by_whole_days(tmp_path):
    night = write(str(tmp_path / "night.jsonl"), "".join(json.dumps(r) + "\n" for r in [
        {"kind": "session_start", "start_time": "2026-11-22T23:10:00Z", "id": "r1795389000-e0"},
        {"kind": "event_start", "id": "r1795389000-e1", "time": "2026-11-23T01:00:00.5Z"}]))
    out = str(tmp_path / "year.jsonl")
    subprocess.run([sys.executable, ROOT + "/scripts/year-log.py", night, "3", out, "2026-12-01"], check=True)
    records = [json.loads(l) for l in open(out)]
    assert [r.get("start_time") or r["time"] for r in records] == [
        "2026-11-29T23:10:00Z", "2026-11-30T01:00:00.5Z", "2026-11-30T23:10:00Z", "2026-12-01T01:00:00.5Z",
        "2026-12-01T23:10:00Z", "2026-12-02T01:00:00.5Z"]
    day = 86400
    assert [r["id"] for r in records[::2]] == [f"r{1795389000 + k * day}-e0" for k in (7, 8, 9)]
    bad = write(str(tmp_path / "bad.jsonl"), json.dumps({"kind": "event_start"}) + "\n")
    r = subprocess.run([sys.executable, ROOT + "/scripts/year-log.py", bad, "3", out], capture_output=True, text=True)
    assert r.returncode == 1 and "must begin with a session_start that has a start_time" in r.stderr


def test_a_websocket_message_sent_masked_and_received_whole():
    ours, theirs = socket.socketpair()
    with ours, theirs:
        text = "é" * 100                                      # 200 bytes: a 16-bit length
        dom.send(ours, text)
        head = theirs.recv(4)
        assert head[:2] == bytes([0x81, 0x80 | 126]) and struct.unpack(">H", head[2:])[0] == 200
        mask = theirs.recv(4)
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(theirs.recv(200)))
        assert payload.decode() == text
        # The browser's answer in two fragments with a ping between them (not masked).
        theirs.sendall(bytes([0x01, 3]) + b"abc" + bytes([0x89, 0]) + bytes([0x80, 2]) + b"de")
        assert dom.receive(ours) == "abcde"
        theirs.close()
        try:
            dom.receive(ours)
            assert False, "read past the closed socket"
        except OSError as e:
            assert str(e) == "the DevTools socket closed"
