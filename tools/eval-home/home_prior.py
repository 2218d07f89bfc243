#!/usr/bin/env python3
"""The first mark's radius (issue 48 item 4, docs/home.md): how near, in this home's memory's
distance, the next occurrence of a marked sound lies, against a sound of another source.

For every clip of the corpus (clips/<class>/, FOLDS.tsv's class, source group and fold), its
windows' learned inputs and scores are read with `somniq features --inputs`, as heard alone,
3 dB quieter (sox vol -3dB) and over a fan (a live room: mixed with backgrounds/fan's first
loop at a quarter of its amplitude, sox -m -v 0.25). A mark is one clip's windows that carried
its class (score at the balanced profile's min_confidence, 0.4; all its windows when none
did), remembered alone: each input standardised (8 at most either way, inputs that never
varied left out; the root mean square of the differences) by the mean and spread of the
mark's own windows (--scaling mark, a one-mark memory before issue 48), or of every window so
chosen of folds 0-2's clips heard alone (--scaling corpus, written to WORK/scaling.txt: the
scaling `HomePrior` embeds). The next occurrence is another clip, or another rendering of
it, of the same class: judged by its opening windows (its first two that carried it), the
nearest pair. A same-source pair is two renderings of one clip or two clips of one source
group; a different-source pair is two clips of different groups. The radius is the quantile
`--quantile` (default 0.05) of the different-source distances of folds 0-2 (source groups
never span folds): at most that share of other sources' sounds of the class lie within it.
It is then checked on folds 3-4: the share of their same-source pairs within it, and of
their different-source pairs.

Usage: home_prior.py --somniq .build/debug/somniq --corpus ../shared/corpus [--work DIR] [--quantile Q] [--scaling mark|corpus]

Measured for HomePrior (--scaling corpus, 2026-11-28): radius 0.500; folds 0-2 same-source
pairs within 0.541 of 1404, different-source 0.050 of 12024; folds 3-4 0.373 of 1272 and
0.043 of 6174. With --scaling mark: radius 1.495; 0.358 and 0.050, 0.211 and 0.027.
"""
import argparse, csv, os, subprocess, sys
import numpy as np

MIN_CONFIDENCE = 0.4
CLIP = 8.0


def features(somniq, path, cache):
    out = cache + ".tsv"
    if not os.path.exists(out):
        r = subprocess.run([somniq, "features", path, "--inputs"], check=True, text=True, capture_output=True)
        open(out, "w").write(r.stdout)
    rows = [l.split("\t") for l in open(out).read().splitlines()]
    head, body = rows[0], rows[1:]
    return head, np.array([[float(x) for x in r[1:]] for r in body], dtype=np.float64)


def rendered(corpus, work, clip, fan):
    base = os.path.join(work, clip.replace("/", "_")[:-4])
    quiet, live = base + "_q3.wav", base + "_fan.wav"
    src = os.path.join(corpus, clip)
    if not os.path.exists(quiet):
        subprocess.run(["sox", src, quiet, "vol", "-3dB"], check=True)
    if not os.path.exists(live):
        # The fan loop 12 dB under the clip's own peak level, as long as the clip and 1 s more.
        n = float(subprocess.run(["soxi", "-D", src], check=True, text=True, capture_output=True).stdout)
        subprocess.run(["sox", "-m", "-v", "1", src, "-v", "0.25", fan, live, "trim", "0", str(n + 1)], check=True)
    return [("alone", src), ("quieter", quiet), ("live", live)]


def memory_distance(mark, probe, scaling=None):
    """The one-mark memory of windows `mark` judging the event whose opening windows are
    `probe`: standardised by the mark's own windows, or by `scaling` (mean, spread)."""
    mean, spread = scaling if scaling is not None else (mark.mean(axis=0), mark.std(axis=0))
    used = spread > 1e-6
    if not used.any():
        return np.inf
    z = lambda x: np.clip((x[:, used] - mean[used]) / spread[used], -CLIP, CLIP)
    a, b = z(mark), z(probe)
    d = ((a[:, None, :] - b[None, :, :]) ** 2).mean(axis=2) ** 0.5
    return float(d.min())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--somniq", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--work", default="/tmp/somniq-home-prior")
    ap.add_argument("--quantile", type=float, default=0.05)
    ap.add_argument("--scaling", choices=("mark", "corpus"), default="mark",
                    help="standardise by the mark's own windows (a one-mark memory today), or by every "
                         "window of folds 0-2's clips heard alone")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    fan = sorted(f for f in os.listdir(os.path.join(a.corpus, "backgrounds/fan")) if f.endswith(".wav"))[0]
    fan = os.path.join(a.corpus, "backgrounds/fan", fan)
    clips = []
    with open(os.path.join(a.corpus, "FOLDS.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["file"].startswith("clips/") and r["class"] not in ("smoke_alarm",):
                clips.append(r)
    marks = {}   # (clip, rendering) -> (class, group, fold, carried windows)
    for r in clips:
        c = r["class"]
        for kind, path in rendered(a.corpus, a.work, r["file"], fan):
            head, x = features(a.somniq, path, os.path.join(a.work, r["file"].replace("/", "_") + "_" + kind))
            if len(x) == 0:
                continue
            ci = head.index(c) - 1
            scores, inputs = x[:, ci], x[:, 16:]   # t is not in x: 16 class scores, then the inputs
            carried = inputs[scores >= MIN_CONFIDENCE]
            marks[(r["file"], kind)] = (c, r["group"], int(r["fold"]), carried if len(carried) else inputs)
    scaling = None
    if a.scaling == "corpus":
        rows = np.vstack([w for (f, kind), (c, g, fold, w) in marks.items() if kind == "alone" and fold <= 2])
        scaling = (rows.mean(axis=0), rows.std(axis=0))
        np.savetxt(os.path.join(a.work, "scaling.txt"), np.vstack(scaling), fmt="%.9g")
    same = {"dev": [], "check": []}
    other = {"dev": [], "check": []}
    per_class = {}
    keys = sorted(marks)
    for k1 in keys:
        c1, g1, f1, w1 = marks[k1]
        for k2 in keys:
            c2, g2, f2, w2 = marks[k2]
            if k1 == k2 or c1 != c2:
                continue
            side = "dev" if f1 <= 2 else "check"
            if (f2 <= 2) != (f1 <= 2):
                continue
            d = memory_distance(w1, w2[:2], scaling)
            if g1 == g2:
                same[side].append(d)
                per_class.setdefault(c1, ([], []))[0].append(d)
            else:
                other[side].append(d)
                per_class.setdefault(c1, ([], []))[1].append(d)
    radius = float(np.quantile(np.array(other["dev"]), a.quantile))
    share = lambda xs: (np.array(xs) <= radius).mean() if xs else float("nan")
    print(f"clips {len(clips)}, renderings {len(marks)}")
    print(f"radius (the {a.quantile:.2f} quantile of folds 0-2's different-source distances): {radius:.3f}")
    for side in ("dev", "check"):
        s, o = np.array(same[side]), np.array(other[side])
        print(f"{side}: same-source pairs {len(s)}, within {share(same[side]):.3f} (median {np.median(s):.3f}); "
              f"different-source pairs {len(o)}, within {share(other[side]):.3f} (median {np.median(o):.3f})")
    for c in sorted(per_class):
        s, o = per_class[c]
        print(f"  {c:12s} same {len(s):4d} within {share(s):.3f} median {np.median(s) if s else float('nan'):.3f}; "
              f"other {len(o):4d} within {share(o):.3f} median {np.median(o) if o else float('nan'):.3f}")


if __name__ == "__main__":
    main()
