"""tools/learn/home.py: the home's event logs read as somniq's LoggedEvents reads them, and
what a label says of its event's windows."""
import json
import os
import time

import pytest

import home
from conftest import write


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_night_is_the_evening_its_start_falls_in_or_the_recording(utc):
    assert home.night_of("2026-11-22T23:40:05.5Z", "x.flac", None) == "2026-11-22"
    assert home.night_of("2026-11-23T03:10:00Z", None, None) == "2026-11-22"
    assert home.night_of("2026-11-23T12:00:00Z", None, None) == "2026-11-23"
    assert home.night_of("2026-11-23 11:59", None, None) == "2026-11-22"   # local time, a space for the T
    assert home.night_of(None, "night.flac", "hw:1") == "night.flac"
    assert home.night_of(None, None, "hw:1") == "hw:1"


def log_lines(*records):
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def test_the_logs_events_and_their_last_labels(tmp_path, utc):
    path = write(str(tmp_path / "events.jsonl"), log_lines(
        {"kind": "session_start", "start_time": "2026-11-22T23:00:00Z", "source": {"path": "a.flac"}},
        {"kind": "event_start", "id": "e1", "class": "cough", "onset_s": 10.0},
        {"kind": "event_end", "id": "e1", "offset_s": 12.5, "clip": "clips/e1.flac"},
        "not json",
        [1, 2],
        {"kind": "event_start", "id": "e2", "class": "snoring", "onset_s": 30},
        {"kind": "event_end", "id": "e2", "offset_s": 20},          # ends before it began: dropped
        {"kind": "event_start", "id": "e3", "class": "door", "onset_s": 5},
        {"kind": "session_end"},
        {"kind": "label", "id": "e1", "night": "2026-11-22", "as": "not"},
        {"kind": "label", "id": "e1", "night": "2026-11-22", "as": "right"},
        {"kind": "label", "id": "e3", "night": "2026-11-22", "as": "none"},
        {"kind": "label", "id": "e2", "night": "2026-11-22"}))
    events, labels = home.logged_events([path])
    assert [(e["id"], e["night"], e["cls"], e["onset"], e["offset"], e["clip"]) for e in events] == [
        ("e1", "2026-11-22", "cough", 10.0, 12.5, "clips/e1.flac"),
        ("e3", "2026-11-22", "door", 5.0, 5.0, None)]     # open at the session's end: kept, as long as its onset
    # The last label of each event, `none` (a label taken back) dropped.
    assert labels == {("2026-11-22", "e1"): "right"}


def test_what_a_label_says_of_its_windows():
    assert home.targets("cough", "right") == {"cough": 1}
    assert home.targets("cough", "not") == {"cough": 0}
    assert home.targets("cough", "dog_bark") == {"cough": 0, "dog_bark": 1}
    assert home.targets("snoring", "cough") == {"cough": 1}       # snoring: no learned rule
    assert home.targets("snoring", "right") == {}


def test_a_rules_files_class_lines(tmp_path):
    path = write(str(tmp_path / "rules.txt"), "somniq-learned-rules 1\n"
                 "class cough ship cutoff=-0.5 rounds=12 cv_hand=0.1\ntree\nl 1.0\n"
                 "class gasp hand cutoff=2.25 rounds=40\n")
    assert home.figures_of(path) == {"cough": (True, -0.5, 12), "gasp": (False, 2.25, 40)}
    assert home.shipped(path) == {"cough": True, "gasp": False}
    assert home.sha256_file(path) == __import__("hashlib").sha256(open(path, "rb").read()).hexdigest()
