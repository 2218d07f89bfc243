#!/usr/bin/env python3
"""Mixes the training material of the learned rules: scenes, background-only nights and loud
background loops alone (as in stress/) from folds 0-2 of the corpus, one batch per fold so that every source group (FOLDS.tsv) stays on one
side of the cross-validation, under the conditions of the hidden-like scenes (a room and a
small microphone's band, SNR 3-30 dB, gain -20..0 dB, loud events, every background kind,
synthesised alarms). Seeded: the same corpus gives the same files. Nothing here is stored in
git; the files go to a cache (default .build/learn/material).

    tools/learn/material.py [--corpus ../shared/corpus] [--out .build/learn/material]
"""
import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FOLDS = (0, 1, 2)
# Per fold: 42 scenes of 300 s (3.5 h, 10.5 h over the three folds) and 6 nights of 600 s
# (1 h, 3 h in all).
SCENES, SCENE_SECONDS = 42, 300
NIGHTS, NIGHT_SECONDS = 6, 600
# Per fold: each of its background loops alone, 300 s at -44 dBFS with a +-6 dB drift, dry and
# through a small microphone's band (the corpus's stress batch, restricted to the fold).
STRESS_SECONDS = 300
STRESS = """
import sys
sys.path.insert(0, 'tools')
import make_scenes as m
from pathlib import Path
db_ = m.fold_select(m.read_manifest(m.ROOT), m.ROOT, [int(sys.argv[1])])
m.stress_batch(Path(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), m.ROOT, db_, level_dbfs=-44.0, drift_db=6.0)
"""
# Events per class per scene: about 18 events in 5 minutes, as dense as tune/.
COUNTS = "1.2"
# make_scenes.py with its background loops taken from the folds asked for only. Left to
# itself, a background kind with no loop in those folds borrows every fold's loops (with a
# warning), check/'s folds 3-4 among them: fold 0 has no clock loop, so its scenes were
# mixed over clocks of the held-out side. The kinds each fold's batches deal are its own
# (`kinds`); the synthetic ones (pink noise, a box fan, mains hum) are every fold's.
MIXER = """
import sys
sys.path.insert(0, 'tools')
import make_scenes as m
m.bg_lists = lambda db_, sel: m.bg_clip_lists(sel)
sys.argv = ['make_scenes.py'] + sys.argv[1:]
m.main()
"""
SYNTHETIC = ("pink", "fan", "hum")


def kinds(corpus, fold):
    """The background kinds fold `fold` has loops of (FOLDS.tsv), after the synthetic ones."""
    own = set()
    with open(os.path.join(corpus, "FOLDS.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        at, fold_at = header.index("file"), header.index("fold")
        for line in f:
            row = line.rstrip("\n").split("\t")
            parts = row[at].split("/")
            if parts[0] == "backgrounds" and len(parts) > 2 and int(row[fold_at]) == fold:
                own.add(parts[1])
    return list(SYNTHETIC) + sorted(own - set(SYNTHETIC))


def batches(corpus, out):
    for fold in FOLDS:
        own = kinds(corpus, fold)
        yield fold, "scenes", [sys.executable, "-c", MIXER, "random", "--n", str(SCENES), "--seed", str(2700 + fold),
                               "--length", str(SCENE_SECONDS), "--folds", str(fold), "--room", "0.5",
                               "--gain-range=-20,0", "--snr-min", "3", "--snr-max", "30", "--loud", "0.12",
                               "--bg", ",".join(own), "--drift-db", "4", "--alarms", "--counts", COUNTS,
                               "--out", os.path.join(out, f"fold{fold}", "scenes")]
        yield fold, "nights", [sys.executable, "-c", MIXER, "quiet", "--n", str(NIGHTS), "--seed", str(2710 + fold),
                               "--length", str(NIGHT_SECONDS), "--folds", str(fold), "--room", "0.5",
                               "--bg", ",".join(k for k in own if k != "pink"),
                               "--gain-range=-20,0", "--drift-db", "6", "--layers", "1,3",
                               "--out", os.path.join(out, f"fold{fold}", "nights")]
        yield fold, "stress", [sys.executable, "-c", STRESS, str(fold), os.path.join(out, f"fold{fold}", "stress"),
                               str(2720 + fold), str(STRESS_SECONDS)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "corpus"))
    p.add_argument("--out", default=".build/learn/material")
    a = p.parse_args()
    corpus = os.path.abspath(a.corpus)
    if not os.path.isfile(os.path.join(corpus, "FOLDS.tsv")):
        sys.exit(f"material: no corpus at {corpus} (no FOLDS.tsv); give --corpus")
    out = os.path.abspath(a.out)

    def run(batch):
        fold, kind, cmd = batch
        done = os.path.join(out, f"fold{fold}", kind, ".done")
        if os.path.exists(done) and open(done).read() == " ".join(cmd[1:]):
            return f"fold {fold} {kind}: already mixed"
        os.makedirs(os.path.dirname(done), exist_ok=True)
        r = subprocess.run(cmd, cwd=corpus, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"material: fold {fold} {kind} failed:\n{r.stderr}")
        open(done, "w").write(" ".join(cmd[1:]))
        return f"fold {fold} {kind}: mixed"

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for line in pool.map(run, list(batches(corpus, out))):
            print(line)


if __name__ == "__main__":
    main()
