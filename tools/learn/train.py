#!/usr/bin/env python3
"""Fits somniq's learned rules and writes rules/learned.txt.

Per class a rule may decide (LearnedRules.candidates), boosted trees of depth <= 3 over the
named inputs `somniq features --inputs` prints: each window's features, its rules' scores and
a spectrogram network's outputs (network.py), those of the two windows before and after it
(+-1 s), and the hand arbitration's scores.

The network is fitted first, on each window's log-mel context (`somniq features --mel`), once
per held-out fold: the trees are fitted on its out-of-fold outputs (what it says of
recordings it did not learn), and each fold's rules carry the network fitted without that
fold. The rules fitted on all three folds carry the network fitted on all three.

The material is tools/learn/material.py's: scenes and background-only nights mixed from folds
0, 1 and 2 of the corpus, one batch per fold, so that holding out a fold holds out its source
groups (FOLDS.tsv). Every choice is made by that three-fold cross-validation, never by check/:
- the number of rounds: where the held-out folds' mean log loss is lowest;
- the cutoff: the margin that gives the best window F1 over the held-out predictions;
- the cutoff's move through the pipeline, and whether the rule is better than the hand rule:
  `somniq eval` (alert processor and balanced profile) on each held-out fold with the rules
  fitted on the other two, segment F1 pooled over the folds.
The cross-validated figure of a learned rule is the best of the offsets tried (and its cutoff
was chosen on predictions pooled over the folds), so it leans its way; the hand rule's is
untuned. That is why check/ must agree before a rule ships.
check/ (folds 3-4) is then scored once, with the rules fitted on all three folds, and a class
ships its learned rule only where both the cross-validation and check/ say it is better, and
where it marks no more seconds of background as the class than the hand rule on quiet/ and
stress/ (the background-only sets the corpus counts false alerts on while tuning).

    tools/learn/train.py [--material .build/learn/material] [--corpus ../shared/corpus]
                         [--somniq .build/release/somniq] [--out rules/learned.txt]
                         [--check DIR...] [--background DIR...]

--material holds fold0/, fold1/ and fold2/, each with folders of audio files and their label
files (`somniq eval`'s: onset, offset, class; an empty one for background only).
"""
import argparse
import hashlib
import json
import math
import os
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import lightgbm as lgb
import numpy as np
import pandas as pd

import network

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FOLDS = (0, 1, 2)
# LearnedRules.candidates, in its order.
CANDIDATES = ["glass_break", "scream", "gasp", "cough", "baby_cry", "dog_bark", "thunder", "speech", "laughter",
              "door", "phone_ring", "music"]
SEED = 27
# One thread: on a busy machine two OpenMP threads wait on each other at every round (one
# class took 15 minutes so), and the trees do not depend on the number of cores.
PARAMS = dict(objective="binary", max_depth=3, num_leaves=8, learning_rate=0.05, min_data_in_leaf=40,
              lambda_l2=1.0, feature_fraction=0.7, bagging_fraction=0.8, bagging_freq=1, seed=SEED,
              deterministic=True, force_row_wise=True, num_threads=1, verbosity=-1)
MAX_ROUNDS = 400
MIN_ROUNDS = 20
# Moves of the window cutoff tried through the whole pipeline (margin units, log-odds).
OFFSETS = (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)
OFFSET_TOLERANCE = 0.01
# A window is a positive example when a label covers at least this much of it (or half of
# a shorter label), a negative when none touches it; in between it is left out.
MIN_OVERLAP_S = 0.25
# The files whose text decides what this trainer writes (recorded, checked by the tests).
TRAINER_FILES = ["tools/learn/material.py", "tools/learn/train.py", "tools/learn/network.py",
                 "tools/learn/requirements.txt"]
# The files whose text decides what the network is (besides the dumps and the labels' rule).
NETWORK_FILES = ["tools/learn/material.py", "tools/learn/network.py", "tools/learn/requirements.txt"]
# What the Swift test compares its network's outputs with: the demo night's windows.
NETWORK_CHECK_AUDIO = "fixtures/demo-night.flac"


def sha256_files(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(p.encode() + b"\0")
        with open(os.path.join(ROOT, p), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# The audio files `somniq eval` reads (libsndfile), each with its .tsv labels beside it.
AUDIO = {".flac", ".wav", ".ogg", ".opus", ".aiff", ".aif"}
# The core's files that only read or evaluate the learned rules: the inputs do not depend on them.
# The network's outputs (n_<class>@k) in the dumps are replaced by the trainer's own.
NOT_INPUTS = {"BuiltinLearnedRules.swift", "LearnedRules.swift", "LearnedRulesText.swift", "SpectrogramNet.swift"}


def inputs_key(somniq):
    """What the dumps depend on: the input names and the core's source (the features, the hand
    rules and the arbitration), but not the learned rules nor their evaluator."""
    names = subprocess.run([somniq, "rules", "inputs"], check=True, capture_output=True, text=True).stdout
    h = hashlib.sha256(names.encode())
    core = os.path.join(ROOT, "Sources", "SomniqCore")
    for d, _, files in sorted(os.walk(core)):
        for f in sorted(files):
            if f.endswith(".swift") and f not in NOT_INPUTS:
                with open(os.path.join(d, f), "rb") as fh:
                    h.update(f.encode() + fh.read())
    return h.hexdigest()[:16]


def kinds(material, fold):
    """The folders of a fold's material: material.py mixes scenes/, nights/ and stress/; your own
    recordings may be in any folders (each audio file with its .tsv labels beside it)."""
    d = os.path.join(material, f"fold{fold}")
    found = sorted(k for k in os.listdir(d) if os.path.isdir(os.path.join(d, k)))
    if not found:
        sys.exit(f"train: no folder of recordings in {d}")
    return found


def material_key(jobs):
    """What the labels and the mixed audio are: each file's name, size and labels."""
    h = hashlib.sha256()
    for fold, kind, audio, out in jobs:
        h.update(f"{fold}/{kind}/{os.path.basename(audio)}:{os.path.getsize(audio)}".encode())
        with open(os.path.splitext(audio)[0] + ".tsv", "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def dump_all(somniq, material, cache):
    """`somniq features --inputs` of every material file, cached by `inputs_key` and the file's
    name and size (a re-mixed file is dumped again)."""
    jobs = []
    for fold in FOLDS:
        for kind in kinds(material, fold):
            d = os.path.join(material, f"fold{fold}", kind)
            for f in sorted(os.listdir(d)):
                stem, ext = os.path.splitext(f)
                if ext.lower() in AUDIO and os.path.exists(os.path.join(d, stem + ".tsv")):
                    size = os.path.getsize(os.path.join(d, f))
                    out = os.path.join(cache, f"fold{fold}", kind, f"{stem}.{size}.tsv")
                    jobs.append((fold, kind, os.path.join(d, f), out))

    def run(job):
        fold, kind, audio, out = job
        dump(somniq, audio, out)
        return job

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(run, jobs))


def dump(somniq, audio, out):
    """`somniq features --inputs` of one file to `out` and its log-mel rows to `out`.mel."""
    if os.path.exists(out) and os.path.exists(out + ".mel"):
        return
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out + ".part", "w") as fh:
        subprocess.run([somniq, "features", "--inputs", "--learned-rules", "none", "--mel", out + ".mel.part", audio],
                       check=True, stdout=fh)
    os.replace(out + ".mel.part", out + ".mel")
    os.replace(out + ".part", out)


def mel_of(out, rows):
    mel = np.fromfile(out + ".mel", dtype="<f4")
    assert mel.size == rows * network.HALF * network.BANDS, f"{out}.mel: {mel.size} values for {rows} windows"
    return mel.reshape(rows, network.HALF, network.BANDS)


def net_columns(data, outputs, names):
    """The n_<class>@k inputs from per-window outputs (N x candidates), file by file: window
    i's n_c@k is window i+k's output, 0 beyond the file's ends (as somniq fills them)."""
    files = data["file"].to_numpy()
    starts = np.r_[0, np.flatnonzero(files[1:] != files[:-1]) + 1, len(files)]
    for k in range(-2, 3):
        shifted = np.zeros_like(outputs)
        for a, b in zip(starts[:-1], starts[1:]):
            if k >= 0:
                shifted[a:b - k] = outputs[a + k:b]
            else:
                shifted[a - k:b] = outputs[a:b + k]
        for j, c in enumerate(CANDIDATES):
            data[f"n_{c}@{k}"] = shifted[:, j]


def labels_of(audio):
    path = os.path.splitext(audio)[0] + ".tsv"
    out = []
    with open(path) as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3:
                out.append((float(parts[0]), float(parts[1]), parts[2]))
    return out


def load(jobs):
    frames = []
    for fold, kind, audio, out in jobs:
        df = pd.read_csv(out, sep="\t", dtype=np.float32, engine="c")
        t = df["t"].to_numpy(np.float64)
        for c in CANDIDATES:
            y = np.zeros(len(df), np.int8)       # 0 negative, 1 positive, -1 left out
            for on, off, label in labels_of(audio):
                if label != c or off <= on:
                    continue
                overlap = np.clip(np.minimum(t + 1, off) - np.maximum(t, on), 0, None)
                need = min(MIN_OVERLAP_S, 0.5 * (off - on))
                y = np.where(overlap >= need, 1, np.where((overlap > 0) & (y == 0), -1, y)).astype(np.int8)
            df["y_" + c] = y
        df["fold"] = fold
        df["file"] = audio
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def fit(X, y, rounds, valid=None):
    ds = lgb.Dataset(X, label=y, free_raw_data=False, params={"verbosity": -1})
    record = {}
    kw = {}
    if valid is not None:
        kw = dict(valid_sets=[lgb.Dataset(valid[0], label=valid[1], reference=ds)], valid_names=["held"],
                  callbacks=[lgb.record_evaluation(record)])
    booster = lgb.train({**PARAMS, "metric": "binary_logloss"}, ds, num_boost_round=rounds, **kw)
    return booster, (record["held"]["binary_logloss"] if valid is not None else None)


def best_cutoff(margin, y):
    """The margin above which windows are called present that gives the best F1."""
    order = np.argsort(-margin, kind="stable")
    m, t = margin[order], y[order]
    tp = np.cumsum(t)
    fp = np.cumsum(1 - t)
    fn = t.sum() - tp
    f1 = 2 * tp / np.maximum(2 * tp + fp + fn, 1)
    # Only where the margin changes: a cutoff between two distinct margins.
    last = np.r_[m[1:] != m[:-1], True]
    k = int(np.argmax(np.where(last, f1, -1)))
    below = m[k + 1] if k + 1 < len(m) else m[k] - 1
    return float((m[k] + below) / 2), float(f1[k])


def tree_lines(node, names):
    if "leaf_value" in node:
        return [f"l {node['leaf_value']!r}"]
    # somniq sends a value <= the threshold left and has no missing values: a split that
    # learned where missing values go would mean an input was NaN in training.
    assert node["decision_type"] == "<=", node["decision_type"]
    assert node.get("missing_type", "None") == "None", node["missing_type"]
    name = names[node["split_feature"]]
    return ([f"s {name} {float(node['threshold'])!r} {node['internal_value']!r}"]
            + tree_lines(node["left_child"], names) + tree_lines(node["right_child"], names))


def export(booster, rounds, names):
    model = booster.dump_model(num_iteration=rounds)
    return [["tree"] + tree_lines(t["tree_structure"], names) for t in model["tree_info"]]


def margin_of(trees, X, names):
    """What somniq's evaluator computes (LearnedRules.ClassRule.margin): thresholds as the
    largest float32 at or below them, sums in float32."""
    index = {n: i for i, n in enumerate(names)}
    X32 = X.astype(np.float32)
    total = np.zeros(len(X), np.float32)
    for tree in trees:
        nodes = [line.split(" ") for line in tree[1:]]
        # Preorder: a split's left child follows it; find each right child by skipping the left subtree.
        def size(i):
            return 1 if nodes[i][0] == "l" else 1 + size(i + 1) + size(i + 1 + size(i + 1))
        def walk(i, rows):
            if nodes[i][0] == "l":
                total[rows] += np.float32(float(nodes[i][1]))
                return
            t = float(nodes[i][2])
            t32 = np.float32(t)
            if float(t32) > t:
                t32 = np.nextafter(t32, np.float32(-np.inf))
            go_left = X32[rows, index[nodes[i][1]]] <= t32
            walk(i + 1, rows[go_left])
            walk(i + 1 + size(i + 1), rows[~go_left])
        walk(0, np.arange(len(X)))
    return total


def class_block(c, ships, cutoff, figures, trees):
    words = [f"class {c} {'ship' if ships else 'hand'} cutoff={cutoff!r}"] + [f"{k}={v}" for k, v in figures]
    return [" ".join(words)] + [line for tree in trees for line in tree]


def write_rules(path, header, blocks, digest, count, net):
    body = [line for block in blocks for line in block] + network.lines(net, CANDIDATES)
    body_sha = hashlib.sha256(("\n".join(body) + "\n").encode()).hexdigest()
    lines = ["# somniq's learned rules, written by tools/learn/train.py (make learn); do not edit.",
             "# Read them with `somniq rules list` and `somniq rules show CLASS`.",
             "somniq-learned-rules 1", f"inputs {count} {digest}"]
    lines += [f"meta {k}={v}" for k, v in header] + [f"meta body_sha256={body_sha}"] + body
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".part", "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(path + ".part", path)


def evaluate(somniq, rules, use, paths):
    """Per class segment tp, fp, fn from `somniq eval --json` (balanced profile)."""
    cmd = [somniq, "eval", "--json", "--decide-by", use] + (["--learned-rules", rules] if rules else []) + paths
    r = subprocess.run(cmd, check=True, capture_output=True, text=True)
    result = json.loads(r.stdout)[0]
    return {c: tuple(result["classes"].get(c, {}).get("segment", {}).get(k, 0) for k in ("tp", "fp", "fn"))
            for c in CANDIDATES}


def f1(counts):
    tp, fp, fn = counts
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--material", default=os.path.join(ROOT, ".build", "learn", "material"))
    p.add_argument("--cache", default=os.path.join(ROOT, ".build", "learn", "inputs"))
    p.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    p.add_argument("--somniq", default=os.path.join(ROOT, ".build", "release", "somniq"))
    p.add_argument("--out", default=os.path.join(ROOT, "rules", "learned.txt"))
    p.add_argument("--network-check", default=os.path.join(ROOT, "rules", "network-check.tsv"),
                   help="where to write the network's outputs on the demo night (what the Swift test compares with)")
    p.add_argument("--work", default=os.path.join(ROOT, ".build", "learn", "work"))
    p.add_argument("--check", nargs="+", help="labelled recordings of other sources, scored once (default: the corpus's check/)")
    p.add_argument("--background", nargs="+", help="background-only recordings (default: the corpus's quiet/ and stress/)")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)

    key = inputs_key(a.somniq)
    names_all = subprocess.run([a.somniq, "rules", "inputs"], check=True, capture_output=True, text=True).stdout.split("\n")
    names = [n for n in names_all if n]
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    log(f"inputs: {len(names)} (key {key})")
    jobs = dump_all(a.somniq, a.material, os.path.join(a.cache, key))
    data = load(jobs)
    fold = data["fold"].to_numpy()
    hours = len(data) * 0.5 / 3600
    log(f"windows: {len(data)} ({hours:.1f} h) from {len(jobs)} files")

    # The network, per held-out fold and on all folds; its out-of-fold outputs are the trees' n_ inputs.
    Y = np.stack([data["y_" + c].to_numpy() for c in CANDIDATES], axis=1)
    audible = data["peak_snr@0"].to_numpy() > network.AUDIBLE_DB
    # It depends on the dumps, the labels' rule, its own code and packages: not on the trees'.
    fitted_net = os.path.join(a.work, "network-" + hashlib.sha256(json.dumps(
        [key, sha256_files(NETWORK_FILES), material_key(jobs), MIN_OVERLAP_S, SEED]).encode()).hexdigest()[:16] + ".pickle")
    if os.path.exists(fitted_net):
        with open(fitted_net, "rb") as fh:
            nets, oof = pickle.load(fh)
    else:
        ctx = np.concatenate([network.contexts(mel_of(out, int((data["file"] == audio).sum())))
                              for _, _, audio, out in jobs])
        nets, oof = {}, np.zeros((len(data), len(CANDIDATES)), np.float32)
        known = (Y >= 0).any(axis=1)
        for k in FOLDS:
            tr, te = audible & known & (fold != k), audible & (fold == k)
            log(f"network without fold {k}: {int(tr.sum())} windows")
            nets[k] = network.fit(ctx[tr], Y[tr], SEED + k, log)
            oof[te] = network.forward(nets[k], network.normalise(ctx[te]))
        log(f"network on all folds: {int((audible & known).sum())} windows")
        nets["all"] = network.fit(ctx[audible & known], Y[audible & known], SEED + len(FOLDS), log)
        del ctx
        with open(fitted_net + ".part", "wb") as fh:
            pickle.dump((nets, oof), fh)
        os.replace(fitted_net + ".part", fitted_net)
    log(f"network: {network.count(nets['all'])} parameters, {network.multiply_adds(nets['all'])} multiply-adds per window")
    for j, c in enumerate(CANDIDATES):
        keep = Y[:, j] >= 0
        _, window_f1 = best_cutoff(oof[keep, j].astype(np.float64), Y[keep, j])
        log(f"{c:12s} network alone, held-out window F1 {window_f1:.3f}")
    net_columns(data, oof, names)
    X = data[names].to_numpy(np.float32)

    # The fitting depends on the dumps, the labels' rule and the parameters: kept in the work
    # directory, so that a second run that changes only what follows does not fit again.
    fitted = os.path.join(a.work, "fitted-" + hashlib.sha256(json.dumps(
        [key, sha256_files(TRAINER_FILES), material_key(jobs)]).encode()).hexdigest()[:16] + ".pickle")
    if os.path.exists(fitted):
        with open(fitted, "rb") as fh:
            fold_trees, final = pickle.load(fh)
    else:
        fold_trees = {k: [] for k in FOLDS}      # per held-out fold: (class, cutoff, trees) fitted without it
        final = []
        for c in CANDIDATES:
            y_all = data["y_" + c].to_numpy()
            keep = y_all >= 0
            curves, boosters = [], {}
            for k in FOLDS:
                tr, te = keep & (fold != k), keep & (fold == k)
                b, curve = fit(X[tr], y_all[tr], MAX_ROUNDS, valid=(X[te], y_all[te]))
                boosters[k] = b
                curves.append(curve)
            mean = np.mean(curves, axis=0)
            rounds = max(MIN_ROUNDS, int(np.argmin(mean)) + 1)
            oof = np.zeros(len(data), np.float64)
            for k in FOLDS:
                te = keep & (fold == k)
                oof[te] = boosters[k].predict(X[te], raw_score=True, num_iteration=rounds)
            cutoff, window_f1 = best_cutoff(oof[keep], y_all[keep])
            for k in FOLDS:
                fold_trees[k].append((c, cutoff, export(boosters[k], rounds, names)))
            b, _ = fit(X[keep], y_all[keep], rounds)
            trees = export(b, rounds, names)
            # The evaluator must compute what LightGBM does.
            sample = X[:: max(1, len(X) // 5000)]
            diff = np.max(np.abs(margin_of(trees, sample, names) - b.predict(sample, raw_score=True)))
            assert diff < 1e-3, f"{c}: the exported trees differ from LightGBM's by {diff}"
            positives = int((y_all == 1).sum())
            final.append((c, cutoff, trees, dict(rounds=rounds, positives=positives, window_f1=round(window_f1, 3))))
            log(f"{c:12s} rounds {rounds:3d}  positives {positives:6d}  held-out window F1 {window_f1:.3f}")
        with open(fitted + ".part", "wb") as fh:
            pickle.dump((fold_trees, final), fh)
        os.replace(fitted + ".part", fitted)

    # Cross-validation through the pipeline: each held-out fold with the rules fitted without
    # it, the cutoffs moved by each offset (the alert processor smooths and debounces what the
    # window cutoff alone cannot see); per class the offset with the best pooled F1.
    def pooled(use, offset):
        total = {c: (0, 0, 0) for c in CANDIDATES}
        for k in FOLDS:
            path = os.path.join(a.work, f"without-fold{k}.txt")
            write_rules(path, [], [class_block(c, True, cut + offset, [], trees) for c, cut, trees in fold_trees[k]],
                        digest, len(names), nets[k])
            held = [os.path.join(a.material, f"fold{k}", kind) for kind in kinds(a.material, k)]
            got = evaluate(a.somniq, path, use, held)
            total = {c: tuple(x + y for x, y in zip(total[c], got[c])) for c in CANDIDATES}
        return total
    cv_hand = pooled("hand", 0)
    by_offset = {o: pooled("learned", o) for o in OFFSETS}
    # The most conservative offset whose F1 is within OFFSET_TOLERANCE of the best: where the
    # folds cannot tell two cutoffs apart, the one that calls fewer windows present.
    def score(x):
        return -1.0 if math.isnan(x) else x
    top = {c: max(score(f1(by_offset[o][c])) for o in OFFSETS) for c in CANDIDATES}
    best = {c: max(o for o in OFFSETS if score(f1(by_offset[o][c])) >= top[c] - OFFSET_TOLERANCE) for c in CANDIDATES}
    for c in CANDIDATES:
        log(f"{c:12s} pipeline F1 by cutoff offset: " + " ".join(f"{o:+.1f}:{f1(by_offset[o][c]):.3f}" for o in OFFSETS))
    final = [(c, cut + best[c], trees, {**fig, "offset": best[c]}) for c, cut, trees, fig in final]
    # check/, once, with the rules fitted on all three folds.
    path = os.path.join(a.work, "all-folds.txt")
    write_rules(path, [], [class_block(c, True, cut, [], trees) for c, cut, trees, _ in final], digest, len(names),
                nets["all"])
    check = {use: evaluate(a.somniq, path, use, a.check or [os.path.join(a.corpus, "check")]) for use in ("hand", "learned")}
    cv = {"hand": cv_hand, "learned": {c: by_offset[best[c]][c] for c in CANDIDATES}}
    # The background-only sets false alerts are counted on while tuning (the corpus's quiet/
    # and stress/): a learned rule must raise no more there than the hand rule.
    quiet = a.background or [os.path.join(a.corpus, "quiet"), os.path.join(a.corpus, "stress")]
    background = {use: evaluate(a.somniq, path, use, quiet) for use in ("hand", "learned")}

    blocks = []
    for c, cut, trees, fig in final:
        ch, cl = f1(cv["hand"][c]), f1(cv["learned"][c])
        kh, kl = f1(check["hand"][c]), f1(check["learned"][c])
        bh, bl = background["hand"][c][1], background["learned"][c][1]
        ships = cl > ch and kl > kh and bl <= bh
        figures = [("rounds", fig["rounds"]), ("positives", fig["positives"]), ("window_f1", fig["window_f1"]),
                   ("cutoff_offset", fig["offset"]),
                   ("cv_hand", f"{ch:.3f}"), ("cv_learned", f"{cl:.3f}"), ("check_hand", f"{kh:.3f}"),
                   ("check_learned", f"{kl:.3f}"), ("background_fp_hand", bh), ("background_fp_learned", bl)]
        blocks.append(class_block(c, ships, cut, figures, trees))
        log(f"{c:12s} cv hand {ch:.3f} learned {cl:.3f}  check hand {kh:.3f} learned {kl:.3f}  "
            f"background s hand {bh} learned {bl}  -> {'learned' if ships else 'hand'}")
    with open(os.path.join(a.corpus, "FOLDS.tsv"), "rb") as fh:
        folds_sha = hashlib.sha256(fh.read()).hexdigest()
    header = [("trainer_sha256", sha256_files(TRAINER_FILES)), ("folds_tsv_sha256", folds_sha),
              ("material", f"{len(jobs)}_files_{hours:.1f}_h_folds_0-2"), ("windows", len(data)),
              ("lightgbm", lgb.__version__), ("params", json.dumps(PARAMS, sort_keys=True, separators=(",", ":"))),
              ("jax", network.jax.__version__), ("network_parameters", network.count(nets["all"])),
              ("network_multiply_adds", network.multiply_adds(nets["all"]))]
    write_rules(a.out, header, blocks, digest, len(names), nets["all"])
    log(f"wrote {a.out}")
    write_network_check(a.somniq, nets["all"], a.work, a.network_check)
    log(f"wrote {a.network_check}")


def write_network_check(somniq, net, work, path):
    """The network's outputs on the demo night's windows (0 where a window is not evaluated),
    from the log-mel rows somniq computes: what SpectrogramNet's Swift test compares with."""
    out = os.path.join(work, "network-check", "demo-night.tsv")
    for stale in (out, out + ".mel"):
        if os.path.exists(stale):
            os.remove(stale)
    dump(somniq, os.path.join(ROOT, NETWORK_CHECK_AUDIO), out)
    df = pd.read_csv(out, sep="\t", dtype=np.float32, engine="c")
    outputs = network.forward(net, network.normalise(network.contexts(mel_of(out, len(df)))))
    outputs[~(df["peak_snr@0"].to_numpy() > network.AUDIBLE_DB)] = 0
    rows = ["t\t" + "\t".join("n_" + c for c in CANDIDATES)]
    for t, o in zip(df["t"].to_numpy(), outputs):
        rows.append(f"{t:.1f}\t" + "\t".join(f"{v:.6f}" for v in o))
    with open(path + ".part", "w") as fh:
        fh.write(f"# The spectrogram network's outputs on {NETWORK_CHECK_AUDIO}, written by tools/learn/train.py.\n")
        fh.write("\n".join(rows) + "\n")
    os.replace(path + ".part", path)


if __name__ == "__main__":
    main()
