#!/usr/bin/env python3
"""Re-fits the learned rules with one home's labelled events (issue 41, item 2): the events
marked with `somniq label` join the corpus material the trees are fitted on, weighted as the
home's own, and the rules are written to a file of their own (never rules/learned.txt) that
`somniq replay --learned-rules FILE` reads.

    tools/learn/home.py --home LOG [LOG ...] [--out FILE] [--weight W | --choose-weight W,W,...]
                        [--material .build/learn/material] [--corpus ../shared/corpus]
                        [--somniq .build/release/somniq] [--cache DIR] [--work DIR]

This is train.py's fitting with the home's windows added; train.py itself is not changed
(its text is recorded in rules/learned.txt as trainer_sha256, which the tests compare), so
this file imports it and uses its functions. What differs from train.py:
- The event logs are read as LoggedEvents.swift reads them: a session_start names the
  replayed recording (source.path) and its start time; an event_start opens an event (id,
  class, onset_s), its event_end closes it (offset_s, clip). An event's night is the
  evening's local date of its start time (noon to noon), or the recording's path without
  one; a label record names an event by id and night, the last one for an event wins and
  `none` takes it back.
- Each labelled event's sound is its recording (the event's span in it) or else its kept
  clip (the whole clip): dumped with train.dump (cached under --cache by the file's content
  digest and size), and its windows that overlap the span by train.MIN_OVERLAP_S (or half of
  a shorter span) are the home's rows. Their labels: every class left out, except the
  event's class c (a candidate) is 1 for `right` and 0 for `not`, `other` or another class,
  and "it was X" makes X (a candidate) 1. A window two events label differently for a class
  is left out for it.
- The home's rows are in the training set of every fold and of the final fit, and in no
  held-out set: the rounds, the cutoffs, the offsets and the cross-validated figures are
  still the corpus folds' alone.
- Their weight (LightGBM's sample weight; the corpus's windows weigh 1) is chosen by leaving
  each of the home's recordings out (a live home's clips: each night's together): for each
  weight tried (--choose-weight, default 0, 1, 3, 10, 30 and "fold", the weight at which the
  home's windows together weigh as much as one fold of the corpus material), each class's
  trees are fitted on the corpus and the other recordings' windows, with the rounds of
  rules/learned.txt (--before), and the weight whose trees give the lowest log loss on the
  left-out recordings' windows wins. With one recording (or one night) there is nothing to
  leave out, and the home weighs one fold; --weight W sets it instead.
- The network is not re-fitted: the corpus's fits are reused (train.py's cache in --work,
  fitted here as train.py would when absent), and the home's rows get their n_<class>@k
  inputs from the network fitted on all three folds, which never saw them.
- check/ decides shipping as in train.py, but a home of the corpus's check side (the home
  protocol, tools/eval-home) makes it no longer independent: the home's windows come from
  the sources check/ is cut from. The written file records, per class, whether it ships
  here and in rules/learned.txt (meta ships_before, ships_after).
"""
import argparse
import hashlib
import json
import math
import os
import pickle
import subprocess
import sys
import time

import lightgbm as lgb
import numpy as np
import pandas as pd

import network
import train
from train import CANDIDATES, FOLDS, log

HOME_FILES = ["tools/learn/home.py"]
# What the kept fits in --work depend on besides the data and train.py: raise it when a change
# here changes how the home's trees are fitted or the weight is chosen (not for a comment).
FIT_VERSION = 1
# The weights tried for the home's windows ("fold": together they weigh as much as one fold).
CHOICES = "0,1,3,10,30,fold"


def night_of(start_time, recording, name):
    """The night key LoggedEvents gives a replay's session: the local date of the evening its
    start time falls in (noon to noon), or the recording's path without one."""
    if start_time:
        t = start_time
        utc = t.endswith("Z")
        body = t[:-1] if utc else t
        date, _, clock = body.replace(" ", "T").partition("T")
        y, m, d = (int(x) for x in date.split("-"))
        parts = clock.split(":")
        hh, mm = int(parts[0]), int(parts[1])
        ss = float(parts[2]) if len(parts) > 2 else 0.0
        tm = (y, m, d, hh, mm, int(ss), 0, 0, -1)
        unix = (__import__("calendar").timegm(tm) if utc else time.mktime(tm)) + (ss - int(ss))
        return time.strftime("%Y-%m-%d", time.localtime(unix - 12 * 3600))
    return recording or name or "?"


def logged_events(logs):
    """(events, labels): events as dicts (id, night, class, onset, offset, recording, clip);
    labels {(night, id): verdict} with the last label of each event, `none` removed."""
    events, latest = [], {}
    for path in logs:
        night, recording, open_ = "", None, {}
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(r, dict):
                    continue
                kind = r.get("kind")
                if kind == "label":
                    if r.get("id") and r.get("night") and r.get("as"):
                        latest[(r["night"], r["id"])] = r["as"]
                elif kind == "session_start":
                    source = r.get("source") or {}
                    recording = source.get("path")
                    night = night_of(r.get("start_time"), recording, source.get("name"))
                elif kind == "event_start" and isinstance(r.get("onset_s"), (int, float)):
                    # A live session's event belongs to the night of its onset; a replay's to its session's.
                    open_[r["id"]] = dict(id=r["id"], night=night, cls=r.get("class"), onset=float(r["onset_s"]),
                                          offset=float(r["onset_s"]), recording=recording, clip=None)
                elif kind == "event_end" and r.get("id") in open_ and isinstance(r.get("offset_s"), (int, float)):
                    e = open_.pop(r["id"])
                    if r["offset_s"] >= e["onset"]:
                        e["offset"] = float(r["offset_s"])
                        e["clip"] = r.get("clip")
                        events.append(e)
                elif kind == "session_end":
                    events += sorted(open_.values(), key=lambda e: e["onset"])
                    open_ = {}
        events += sorted(open_.values(), key=lambda e: e["onset"])
    labels = {k: v for k, v in latest.items() if v != "none"}
    return events, labels


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def targets(cls, verdict):
    """{class: 0/1} a label says of its event's windows (candidates only)."""
    out = {}
    if cls in CANDIDATES:
        out[cls] = 1 if verdict in ("right", cls) else 0
    if verdict in CANDIDATES:
        out[verdict] = 1
    return out


def home_rows(logs, somniq, cache, names, net):
    """The home's labelled windows as a frame of the inputs (n_ from `net`) and y_<class>
    (-1 left out), with what was used and what was missing."""
    events, labels = logged_events(logs)
    by_audio, used, missing = {}, {}, []
    for e in events:
        verdict = labels.get((e["night"], e["id"]))
        if verdict is None:
            continue
        say = targets(e["cls"], verdict)
        if not say:
            continue
        # What is left out together when the weight is chosen: a replayed recording, or a
        # live night's clips.
        if e["recording"] and os.path.isfile(e["recording"]):
            audio, span, group = e["recording"], (e["onset"], e["offset"]), e["recording"]
        elif e["clip"] and os.path.isfile(e["clip"]):
            audio, span, group = e["clip"], None, e["night"]
        else:
            missing.append(e)
            continue
        by_audio.setdefault(audio, []).append((span, say, group))
        kind = verdict if verdict in ("right", "not", "other") else "class"
        used[kind] = used.get(kind, 0) + 1
    frames = []
    for audio in sorted(by_audio):
        digest = sha256_file(audio)[:16]
        stem = os.path.splitext(os.path.basename(audio))[0]
        out = os.path.join(cache, "home", f"{stem}.{digest}.{os.path.getsize(audio)}.tsv")
        train.dump(somniq, audio, out)
        df = pd.read_csv(out, sep="\t", dtype=np.float32, engine="c")
        t = df["t"].to_numpy(np.float64)
        y = {c: np.full(len(df), -1, np.int8) for c in CANDIDATES}
        conflict = {c: np.zeros(len(df), bool) for c in CANDIDATES}
        for span, say, _ in by_audio[audio]:
            if span is None:
                hit = np.ones(len(df), bool)
            else:
                on, off = span
                overlap = np.clip(np.minimum(t + 1, off) - np.maximum(t, on), 0, None)
                hit = (overlap > 0) & (overlap >= min(train.MIN_OVERLAP_S, 0.5 * (off - on)))
            for c, v in say.items():
                conflict[c] |= hit & (y[c] >= 0) & (y[c] != v)
                y[c] = np.where(hit, v, y[c]).astype(np.int8)
        for c in CANDIDATES:
            df["y_" + c] = np.where(conflict[c], -1, y[c]).astype(np.int8)
        keep = np.stack([df["y_" + c].to_numpy() >= 0 for c in CANDIDATES], axis=1).any(axis=1)
        # The network's outputs as somniq computes them: 0 where a window is not evaluated.
        outputs = network.forward(net, network.normalise(network.contexts(train.mel_of(out, len(df)))))
        outputs[~(df["peak_snr@0"].to_numpy() > network.AUDIBLE_DB)] = 0
        df["file"] = audio
        df["group"] = by_audio[audio][0][2]
        train.net_columns(df, outputs, names)
        frames.append(df[keep])
    rows = pd.concat(frames, ignore_index=True) if frames else None
    return rows, used, missing, (rows["group"].nunique() if rows is not None else 0)


def corpus_network(a, key, jobs, data):
    """train.py's networks and out-of-fold outputs, from its cache in --work (the same file
    name train.py gives them), fitted as train.py fits them when absent."""
    Y = np.stack([data["y_" + c].to_numpy() for c in CANDIDATES], axis=1)
    fold = data["fold"].to_numpy()
    audible = data["peak_snr@0"].to_numpy() > network.AUDIBLE_DB
    fitted_net = os.path.join(a.work, "network-" + hashlib.sha256(json.dumps(
        [key, train.sha256_files(train.NETWORK_FILES), train.material_key(jobs), train.MIN_OVERLAP_S,
         train.SEED]).encode()).hexdigest()[:16] + ".pickle")
    if os.path.exists(fitted_net):
        with open(fitted_net, "rb") as fh:
            return pickle.load(fh)
    ctx = np.concatenate([network.contexts(train.mel_of(out, int((data["file"] == audio).sum())))
                          for _, _, audio, out in jobs])
    nets, oof = {}, np.zeros((len(data), len(CANDIDATES)), np.float32)
    known = (Y >= 0).any(axis=1)
    for k in FOLDS:
        tr, te = audible & known & (fold != k), audible & (fold == k)
        log(f"network without fold {k}: {int(tr.sum())} windows")
        nets[k] = network.fit(ctx[tr], Y[tr], train.SEED + k, log)
        oof[te] = network.forward(nets[k], network.normalise(ctx[te]))
    log(f"network on all folds: {int((audible & known).sum())} windows")
    nets["all"] = network.fit(ctx[audible & known], Y[audible & known], train.SEED + len(FOLDS), log)
    with open(fitted_net + ".part", "wb") as fh:
        pickle.dump((nets, oof), fh)
    os.replace(fitted_net + ".part", fitted_net)
    return nets, oof


def fit(X, y, w, rounds, valid=None):
    """train.fit with sample weights."""
    ds = lgb.Dataset(X, label=y, weight=w, free_raw_data=False, params={"verbosity": -1})
    record, kw = {}, {}
    if valid is not None:
        kw = dict(valid_sets=[lgb.Dataset(valid[0], label=valid[1], reference=ds)], valid_names=["held"],
                  callbacks=[lgb.record_evaluation(record)])
    booster = lgb.train({**train.PARAMS, "metric": "binary_logloss"}, ds, num_boost_round=rounds, **kw)
    return booster, (record["held"]["binary_logloss"] if valid is not None else None)


def figures_of(path):
    """{class: (ship?, cutoff, rounds)} of a rules file's class lines."""
    out = {}
    with open(path) as fh:
        for line in fh:
            w = line.rstrip("\n").split(" ")
            if w[0] == "class":
                kv = dict(x.split("=", 1) for x in w[3:] if "=" in x)
                out[w[1]] = (w[2] == "ship", float(kv["cutoff"]), int(kv["rounds"]))
    return out


def choose_weight(X, data, home, H, candidates, rounds, cutoffs):
    """The weight, among `candidates`, whose rules best predict the labelled windows of each
    home recording (a live night's clips together) left out: each class's trees fitted on the
    corpus and the home's windows with `rounds` of its own, the left-out recording's windows
    weighing 0 (the data are binned once per class); the lowest log loss over the held-out
    windows, every class's together, wins. Returns (weight, {weight: (log loss, window errors
    at the cutoffs, windows)})."""
    groups = home["group"].to_numpy()
    recordings = sorted(set(groups))
    loss = {w: 0.0 for w in candidates}
    errors = {w: 0 for w in candidates}
    count = 0
    for c in CANDIDATES:
        y_all, y_home = data["y_" + c].to_numpy(), home["y_" + c].to_numpy()
        keep, hk = y_all >= 0, y_home >= 0
        if not hk.any():
            continue
        n = int(keep.sum())
        ds = lgb.Dataset(np.concatenate([X[keep], H[hk]]), label=np.concatenate([y_all[keep], y_home[hk]]),
                         weight=np.ones(n + int(hk.sum())), free_raw_data=False, params={"verbosity": -1}).construct()
        g, y = groups[hk], y_home[hk]
        count += int(hk.sum())
        for w in candidates:
            for r in (recordings if w > 0 else [None]):
                ds.set_weight(np.concatenate([np.ones(n), np.where(g == r, 0.0, w)]))
                b = lgb.train({**train.PARAMS, "metric": "binary_logloss"}, ds, num_boost_round=rounds[c])
                for test in ([g == r] if r is not None else [g == x for x in recordings]):
                    m = b.predict(H[hk][test], raw_score=True)
                    p = 1 / (1 + np.exp(-m))
                    t = y[test]
                    loss[w] += float(-np.sum(t * np.log(np.maximum(p, 1e-12)) + (1 - t) * np.log(np.maximum(1 - p, 1e-12))))
                    errors[w] += int(np.sum((m > cutoffs[c]) != (t == 1)))
        log(f"  {c:12s} weights {candidates}: held-out log loss so far "
            + " ".join(f"{loss[w] / max(count, 1):.4f}" for w in candidates))
    results = {w: (loss[w] / max(count, 1), errors[w], count) for w in candidates}
    for w in candidates:
        log(f"  weight {w}: held-out home log loss {results[w][0]:.4f}, {errors[w]} of {count} windows wrong at the cutoffs")
    best = min(candidates, key=lambda w: (round(results[w][0], 6), w))
    return best, results


def evaluate(work, somniq, rules, use, paths):
    """train.evaluate, kept in `work` by the rules file's text, the rule used and the paths
    and the somniq binary (so that a second run with the same rules does not replay the folds again)."""
    with open(rules, "rb") as fh:
        kept = os.path.join(work, "home-eval-" + hashlib.sha256(fh.read() + json.dumps([use, paths, sha256_file(somniq)])
                                                                 .encode()).hexdigest()[:16] + ".json")
    if os.path.exists(kept):
        with open(kept) as fh:
            return {c: tuple(v) for c, v in json.load(fh).items()}
    got = train.evaluate(somniq, rules, use, paths)
    with open(kept + ".part", "w") as fh:
        json.dump(got, fh)
    os.replace(kept + ".part", kept)
    return got


def shipped(path):
    """{class: ship?} of a rules file's class lines."""
    out = {}
    with open(path) as fh:
        for line in fh:
            w = line.split(" ")
            if w[0] == "class":
                out[w[1]] = w[2] == "ship"
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--home", nargs="+", required=True, help="the home's event logs, with their label records")
    p.add_argument("--out", help="where to write the rules (default: home-rules.txt beside the first log)")
    p.add_argument("--weight", type=float, help="each home window's weight, instead of choosing it")
    p.add_argument("--choose-weight", metavar="W,W,...", default=CHOICES,
                   help=f"the weights tried, each home recording left out in turn ('fold': the home weighs one fold; "
                        f"default {CHOICES})")
    p.add_argument("--material", default=os.path.join(train.ROOT, ".build", "learn", "material"))
    p.add_argument("--cache", default=os.path.join(train.ROOT, ".build", "learn", "inputs"))
    p.add_argument("--corpus", default=os.path.join(train.ROOT, "..", "shared", "corpus"))
    p.add_argument("--somniq", default=os.path.join(train.ROOT, ".build", "release", "somniq"))
    p.add_argument("--work", default=os.path.join(train.ROOT, ".build", "learn", "work"))
    p.add_argument("--before", default=os.path.join(train.ROOT, "rules", "learned.txt"),
                   help="the rules the home's are compared with (which classes ship)")
    p.add_argument("--check", nargs="+")
    p.add_argument("--background", nargs="+")
    a = p.parse_args()
    out_path = a.out or os.path.join(os.path.dirname(os.path.abspath(a.home[0])), "home-rules.txt")
    if os.path.abspath(out_path) == os.path.abspath(os.path.join(train.ROOT, "rules", "learned.txt")):
        sys.exit("home: the home's rules go to a file of their own, not rules/learned.txt (--out)")
    os.makedirs(a.work, exist_ok=True)
    started = time.monotonic()

    key = train.inputs_key(a.somniq)
    names = [n for n in subprocess.run([a.somniq, "rules", "inputs"], check=True, capture_output=True,
                                       text=True).stdout.split("\n") if n]
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    jobs = train.dump_all(a.somniq, a.material, os.path.join(a.cache, key))
    data = train.load(jobs)
    fold = data["fold"].to_numpy()
    hours = len(data) * 0.5 / 3600
    log(f"corpus windows: {len(data)} ({hours:.1f} h) from {len(jobs)} files ({time.monotonic() - started:.0f} s)")
    nets, oof_net = corpus_network(a, key, jobs, data)
    train.net_columns(data, oof_net, names)
    X = data[names].to_numpy(np.float32)

    home, used, missing, recordings = home_rows(a.home, a.somniq, os.path.join(a.cache, key), names, nets["all"])
    for e in missing:
        log(f"home: {e['night']} {e['id']} ({e['cls']}): neither its recording nor its clip is there; left out")
    if home is None or home.empty:
        sys.exit("home: no labelled event of a class a learned rule decides has its sound at hand; nothing to add")
    home_digest = hashlib.sha256(pd.util.hash_pandas_object(home[names + ["y_" + c for c in CANDIDATES] + ["group"]],
                                                            index=False).to_numpy().tobytes()).hexdigest()
    fold_windows = np.mean([int((fold == k).sum()) for k in FOLDS])
    one_fold = round(float(fold_windows / len(home)), 2)
    weight, rule = (a.weight, "given") if a.weight is not None else (one_fold, "one_fold")
    chosen = ""
    if a.weight is None and recordings < 2:
        log(f"home: one recording (or night of clips): none to leave out; the home weighs one fold")
    elif a.weight is None:
        before_figures = figures_of(a.before)
        candidates = sorted({one_fold if w == "fold" else float(w) for w in a.choose_weight.split(",")})
        choosing = time.monotonic()
        log(f"home: choosing the weight among {candidates} by leaving each of {recordings} recordings out")
        rounds = {c: f[2] for c, f in before_figures.items()}
        cutoffs = {c: f[1] for c, f in before_figures.items()}
        kept = os.path.join(a.work, "home-weight-" + hashlib.sha256(json.dumps(
            [key, train.sha256_files(train.TRAINER_FILES), FIT_VERSION, train.material_key(jobs), home_digest,
             candidates, rounds, cutoffs]).encode()).hexdigest()[:16] + ".json")
        if os.path.exists(kept):
            with open(kept) as fh:
                weight, results = json.load(fh)
            results = {float(w): v for w, v in results.items()}
        else:
            weight, results = choose_weight(X, data, home, home[names].to_numpy(np.float32), candidates, rounds, cutoffs)
            with open(kept + ".part", "w") as fh:
                json.dump([weight, results], fh)
            os.replace(kept + ".part", kept)
        rule = "left_out_recordings"
        chosen = ";".join(f"{w}:{results[w][0]:.4f}" for w in candidates)
        log(f"home: weight {weight} ({time.monotonic() - choosing:.0f} s)")
    H = home[names].to_numpy(np.float32)
    labels_text = ",".join(f"{k}:{used.get(k, 0)}" for k in ("right", "not", "other", "class"))
    log(f"home: {len(home)} windows of {recordings} recordings ({labels_text}), each weighing {weight} "
        f"(a fold: {fold_windows:.0f} windows) ({time.monotonic() - started:.0f} s)")
    for c in CANDIDATES:
        yh = home["y_" + c].to_numpy()
        if (yh >= 0).any():
            log(f"  {c:12s} home windows: {int((yh == 1).sum())} positive, {int((yh == 0).sum())} negative")

    fitted = os.path.join(a.work, "home-fitted-" + hashlib.sha256(json.dumps(
        [key, train.sha256_files(train.TRAINER_FILES), FIT_VERSION, train.material_key(jobs), weight, home_digest]).encode()).hexdigest()[:16] + ".pickle")
    trees_started = time.monotonic()
    if os.path.exists(fitted):
        with open(fitted, "rb") as fh:
            fold_trees, final = pickle.load(fh)
    else:
        fold_trees, final = {k: [] for k in FOLDS}, []
        for c in CANDIDATES:
            y_all, y_home = data["y_" + c].to_numpy(), home["y_" + c].to_numpy()
            keep, hk = y_all >= 0, y_home >= 0
            Xh, yh, wh = H[hk], y_home[hk], np.full(int(hk.sum()), weight)
            curves, boosters = [], {}
            for k in FOLDS:
                tr, te = keep & (fold != k), keep & (fold == k)
                b, curve = fit(np.concatenate([X[tr], Xh]), np.concatenate([y_all[tr], yh]),
                               np.concatenate([np.ones(int(tr.sum())), wh]), train.MAX_ROUNDS, valid=(X[te], y_all[te]))
                boosters[k] = b
                curves.append(curve)
            rounds = max(train.MIN_ROUNDS, int(np.argmin(np.mean(curves, axis=0))) + 1)
            oof = np.zeros(len(data), np.float64)
            for k in FOLDS:
                te = keep & (fold == k)
                oof[te] = boosters[k].predict(X[te], raw_score=True, num_iteration=rounds)
            cutoff, window_f1 = train.best_cutoff(oof[keep], y_all[keep])
            for k in FOLDS:
                fold_trees[k].append((c, cutoff, train.export(boosters[k], rounds, names)))
            b, _ = fit(np.concatenate([X[keep], Xh]), np.concatenate([y_all[keep], yh]),
                       np.concatenate([np.ones(int(keep.sum())), wh]), rounds)
            trees = train.export(b, rounds, names)
            sample = X[:: max(1, len(X) // 5000)]
            diff = np.max(np.abs(train.margin_of(trees, sample, names) - b.predict(sample, raw_score=True)))
            assert diff < 1e-3, f"{c}: the exported trees differ from LightGBM's by {diff}"
            positives = int((y_all == 1).sum())
            final.append((c, cutoff, trees, dict(rounds=rounds, positives=positives, home_positives=int((yh == 1).sum()),
                                                 home_negatives=int((yh == 0).sum()), window_f1=round(window_f1, 3))))
            log(f"{c:12s} rounds {rounds:3d}  positives {positives:6d} + home {int((yh == 1).sum())}/{int((yh == 0).sum())}"
                f"  held-out window F1 {window_f1:.3f}")
        with open(fitted + ".part", "wb") as fh:
            pickle.dump((fold_trees, final), fh)
        os.replace(fitted + ".part", fitted)
    log(f"trees: {time.monotonic() - trees_started:.0f} s")

    # As train.py: each held-out fold with the rules fitted without it (and with the home), per offset.
    evals_started = time.monotonic()

    def pooled(use, offset):
        total = {c: (0, 0, 0) for c in CANDIDATES}
        for k in FOLDS:
            path = os.path.join(a.work, f"home-without-fold{k}.txt")
            train.write_rules(path, [], [train.class_block(c, True, cut + offset, [], trees) for c, cut, trees in fold_trees[k]],
                              digest, len(names), nets[k])
            held = [os.path.join(a.material, f"fold{k}", kind) for kind in train.kinds(a.material, k)]
            got = evaluate(a.work, a.somniq, path, use, held)
            total = {c: tuple(x + y for x, y in zip(total[c], got[c])) for c in CANDIDATES}
        return total
    cv_hand = pooled("hand", 0)
    by_offset = {o: pooled("learned", o) for o in train.OFFSETS}

    def score(x):
        return -1.0 if math.isnan(x) else x
    f1 = train.f1
    top = {c: max(score(f1(by_offset[o][c])) for o in train.OFFSETS) for c in CANDIDATES}
    best = {c: max(o for o in train.OFFSETS if score(f1(by_offset[o][c])) >= top[c] - train.OFFSET_TOLERANCE)
            for c in CANDIDATES}
    final = [(c, cut + best[c], trees, {**fig, "offset": best[c]}) for c, cut, trees, fig in final]
    path = os.path.join(a.work, "home-all-folds.txt")
    train.write_rules(path, [], [train.class_block(c, True, cut, [], trees) for c, cut, trees, _ in final], digest,
                      len(names), nets["all"])
    check = {use: evaluate(a.work, a.somniq, path, use, a.check or [os.path.join(a.corpus, "check")])
             for use in ("hand", "learned")}
    cv = {"hand": cv_hand, "learned": {c: by_offset[best[c]][c] for c in CANDIDATES}}
    quiet = a.background or [os.path.join(a.corpus, "quiet"), os.path.join(a.corpus, "stress")]
    background = {use: evaluate(a.work, a.somniq, path, use, quiet) for use in ("hand", "learned")}
    log(f"evaluations: {time.monotonic() - evals_started:.0f} s")

    before = shipped(a.before) if os.path.exists(a.before) else {}
    blocks, after = [], {}
    for c, cut, trees, fig in final:
        ch, cl = f1(cv["hand"][c]), f1(cv["learned"][c])
        kh, kl = f1(check["hand"][c]), f1(check["learned"][c])
        bh, bl = background["hand"][c][1], background["learned"][c][1]
        ships = cl > ch and kl > kh and bl <= bh
        after[c] = ships
        figures = [("rounds", fig["rounds"]), ("positives", fig["positives"]), ("home_positives", fig["home_positives"]),
                   ("home_negatives", fig["home_negatives"]), ("window_f1", fig["window_f1"]),
                   ("cutoff_offset", fig["offset"]),
                   ("cv_hand", f"{ch:.3f}"), ("cv_learned", f"{cl:.3f}"), ("check_hand", f"{kh:.3f}"),
                   ("check_learned", f"{kl:.3f}"), ("background_fp_hand", bh), ("background_fp_learned", bl)]
        blocks.append(train.class_block(c, ships, cut, figures, trees))
        change = "" if c not in before or before[c] == ships else f"  (rules/learned.txt: {'learned' if before[c] else 'hand'})"
        log(f"{c:12s} cv hand {ch:.3f} learned {cl:.3f}  check hand {kh:.3f} learned {kl:.3f}  "
            f"background s hand {bh} learned {bl}  -> {'learned' if ships else 'hand'}{change}")
    with open(os.path.join(a.corpus, "FOLDS.tsv"), "rb") as fh:
        folds_sha = hashlib.sha256(fh.read()).hexdigest()

    def classes(d):
        return ",".join(c for c in CANDIDATES if d.get(c)) or "none"
    header = [("trainer_sha256", train.sha256_files(train.TRAINER_FILES)),
              ("home_sha256", train.sha256_files(HOME_FILES)), ("folds_tsv_sha256", folds_sha),
              ("material", f"{len(jobs)}_files_{hours:.1f}_h_folds_0-2"), ("windows", len(data)),
              ("home_logs", ",".join(os.path.basename(x) for x in a.home)), ("home_recordings", recordings),
              ("home_windows", len(home)), ("home_labels", labels_text),
              ("home_weight", weight), ("home_weight_rule", rule)] + ([("home_weight_log_loss", chosen)] if chosen else []) + [
              ("ships_before", classes(before)), ("ships_after", classes(after)),
              ("lightgbm", lgb.__version__), ("params", json.dumps(train.PARAMS, sort_keys=True, separators=(",", ":"))),
              ("jax", network.jax.__version__), ("network_parameters", network.count(nets["all"])),
              ("network_multiply_adds", network.multiply_adds(nets["all"]))]
    train.write_rules(out_path, header, blocks, digest, len(names), nets["all"])
    # The first comment names the writer (the body's digest begins at the first class line).
    with open(out_path) as fh:
        text = fh.read().split("\n", 1)[1]
    with open(out_path + ".part", "w") as fh:
        fh.write("# One home's learned rules, written by tools/learn/home.py (make learn-home); do not edit.\n" + text)
    os.replace(out_path + ".part", out_path)
    log(f"ships before: {classes(before)}; after: {classes(after)}")
    log(f"wrote {out_path} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
