#!/usr/bin/env python3
"""The home protocol (issue 41, docs/home.md): does one night of labels teach somniq this home?

Two nights of one home are mixed from the corpus's check-side material (folds 3-4) with
tools/make_scenes.py: one recurring background (the fan kind: the same fan loop under every
scene) and the home's recurring sounds, other events and times on each night. A home hears
its own sources (--sources 2, the default: two source groups of each class, FOLDS.tsv's
groups, drawn once per home: its two snorers, its two doors, its two dogs), not every
recording of the check side; --sources all draws from every check-side source, so that
night B also brings sounds night A never had; --sources newest draws from every check-side source of
the corpus's 55 newest sources (its README names them), the recordings added last.
Night A is replayed into an event log; a simulated user labels every alert: `right` when a
label of its class overlaps it (1 s collar), `not` otherwise (somniq label --from). Then
somniq learn --home fits the home's memory from the log, and night B is replayed twice,
without and with --home-rules. A second user answers as a person who heard the sound would:
`right`, else "it was X" (`--as X`) when a label of another class X overlaps it (the first
such), else `not`; their memory, learned from a copy of night A's log, scores night B a
third time ("it was": an event like one so marked is logged as X too). Night B is scored with
each memory twice: the memory alone (--no-home-fit), and with this home's fit that learn
--home writes beside it (home-fit.txt: per class, a shift of the shipped score, used where
the held-out marks chose it). Reported per night: false alerts per hour (alerted events no
label of their class overlaps) and false detections per hour (any event, held back or not),
recall of true events as alerts (labels an alerted event of their class overlaps) and as
detections (any event of their class), the smoke alarms alerted and detected, the events the
home memory held back (and how many of them were true), and the labels used.
With --refit PYTHON (the learn venv's python), the learned rules are also re-fitted with
night A's labels (tools/learn/home.py --home night-a.jsonl) and night B is replayed with
them (--learned-rules), alone and with the memory, and with the learned rules deciding every
class (--decide-by learned), the built-in ones and the re-fitted ones. The home's sounds come from folds 3-4,
the sources check/ is cut from: the re-fit's check/-based ship decisions are no longer
independent of the home (home.py reports which classes' decisions changed).

With --explain, each false alert night B keeps (as shipped, and with each user's memory and
fit) is said with the true sounds it lies on, by class and source group (the mixer's own
account, the scene's JSON), and each true event the home held back with the mark it was like;
why the memory let each false alert through (`why_left`: a class no home can teach away, no
mark of its class, its nearest mark beyond the radius, kept short of a confirmed sound, or a
sound marked right as near; the distances from night B replayed twice more with each memory
made to reach everything, `reach`); and whether a class's "not" marks would generalise to its
false alerts on other sources (a class held back whole where the other recordings' marks of it
were mostly "not": `class_rule`, chosen on night A's marks with each recording left out, then
what the rule chosen would do to night B with the memory and fit).

Usage: eval_home.py --somniq .build/release/somniq --corpus ../shared/corpus [--sources N|all] [--work DIR] [--json FILE] [--explain]
                    [--refit PYTHON [--material DIR] [--learn-cache DIR] [--learn-work DIR] [--refit-weight W]]
"""
import argparse, csv, importlib.util, json, os, random, shutil, subprocess, sys, glob
from collections import namedtuple
from types import SimpleNamespace

COLLAR = 1.0
VERBOSE = False
# The classes no home can teach away (HomeMemory.untouchable and neverTaughtAway).
CRITICAL = {"smoke_alarm", "glass_break", "scream", "gasp", "breathing_pause"}


def run(cmd, **kw):
    if VERBOSE:
        print("+ " + " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, text=True, **kw)


# The corpus's newest sources (its README: "the 55 added after them (43 clips and 12 loops:
# 30 rows of tools/dev_sources.tsv ..., 25 rows of tools/github_sources.tsv"): the last rows
# of dev_sources.tsv and every row of github_sources.tsv.
NEWEST_DEV_ROWS = 30


def newest_files(corpus):
    """The files of the corpus's 55 newest sources (README), by their manifest rows."""
    def rows(name):
        with open(os.path.join(corpus, "tools", name)) as f:
            return [r["file"] for r in csv.DictReader(f, delimiter="\t")]
    return set(rows("dev_sources.tsv")[-NEWEST_DEV_ROWS:]) | set(rows("github_sources.tsv"))


def sources_option(text):
    """--sources read: a number of source groups of each class, None for all, or "newest"."""
    return None if text == "all" else text if text == "newest" else int(text)


def home_sources(corpus, per_class, seed):
    """The source groups of folds 3-4 this home hears: `per_class` of each class's, drawn
    with `seed` (None: all of them; "newest": all of those of the corpus's 55 newest sources,
    the recordings added last)."""
    groups, newest = {}, newest_files(corpus) if per_class == "newest" else None
    with open(os.path.join(corpus, "FOLDS.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["file"].startswith("clips/") and r["fold"] in ("3", "4") and (newest is None or r["file"] in newest):
                groups.setdefault(r["class"], set()).add(r["group"])
    if per_class is None or newest is not None:
        return set().union(*groups.values())
    rng = random.Random(seed)
    return {g for c in sorted(groups) for g in rng.sample(sorted(groups[c]), min(per_class, len(groups[c])))}


def scenes(corpus, out, seed, n, length, sources):
    """A night's scenes, by the corpus's own mixer, its clips limited to the home's `sources`
    (the mixer's manifest reader is wrapped: the corpus is read, never changed)."""
    if not glob.glob(os.path.join(out, "*.flac")):
        spec = importlib.util.spec_from_file_location("make_scenes", os.path.join(corpus, "tools/make_scenes.py"))
        ms = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ms)
        folds = ms.read_folds(ms.ROOT)
        read = ms.read_manifest
        ms.read_manifest = lambda root: {f: r for f, r in read(root).items()
                                         if not f.startswith("clips/") or folds.get(f, {}).get("group") in sources}
        args = SimpleNamespace(out=out, seed=seed, n=n, length=float(length), snr_min=6.0, snr_max=30.0, gain_db=0.0,
                               folds="3,4", room=0.0, gain_range=None, loud=0.0, bg="fan", drift_db=0.0, alarms=True,
                               counts="1.5,smoke_alarm=0.5")
        quiet = open(os.devnull, "w")
        saved, sys.stdout = sys.stdout, quiet
        try:
            ms.cmd_random(args)
        finally:
            sys.stdout = saved
    return sorted(glob.glob(os.path.join(out, "*.flac")))


def labels(flac):
    out = []
    with open(flac[:-5] + ".tsv") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) == 3:
                out.append((float(p[0]), float(p[1]), p[2]))
    return out


def replay(somniq, files, log, evening, home=None, rules=None, decide=None, fit=False):
    if os.path.exists(log):
        os.remove(log)
    for i, f in enumerate(files):
        minutes = i * 10  # each scene its own time of the evening, 10 minutes apart
        start = f"{evening}T{22 + minutes // 60:02d}:{minutes % 60:02d}"
        cmd = [somniq, "replay", f, "--format", "jsonl", "--output", log, "--start", start]
        if home:
            cmd += ["--home-rules", home] + ([] if fit else ["--no-home-fit"])
        if rules:
            cmd += ["--learned-rules", rules]
        if decide:
            cmd += ["--decide-by", decide]
        run(cmd)


def records(log):
    """The log's records, one by one; a line that is not JSON (a torn last line) is skipped."""
    with open(log) as f:
        for line in f:
            try:
                yield json.loads(line)
            except ValueError:
                continue


Event = namedtuple("Event", "source id cls onset offset alert suppressed tier home")
Event.__doc__ = """An event of a log, read once: its recording, id, class, onset and offset (s), whether it
alerted, why it was held back (None, "home", ...), its tier and the home's trace of it (None)."""


def events(log):
    """Every ended event of the log (`Event`), in the order they ended."""
    found, source, open_ = [], None, {}
    for r in records(log):
        k = r.get("kind")
        if k == "session_start":
            source = r["source"].get("path")
        elif k == "event_start":
            open_[r["id"]] = r, source
        elif k == "event_end" and r["id"] in open_:
            start, s = open_.pop(r["id"])
            found.append(Event(s, start["id"], start["class"], start["onset_s"], r["offset_s"], start["alert"],
                               start.get("suppressed"), start.get("tier"), (start.get("trace") or {}).get("home")))
    return found


def sounds(flac, groups):
    """The true sounds of a scene and their sources: (start, end, class, source groups) for
    each label span of each event its JSON records (the mixer's own account of what it put
    where); `groups` maps a clip's file to its source group (FOLDS.tsv)."""
    out = []
    for e in json.load(open(flac[:-5] + ".json")).get("events", []):
        src = sorted({groups.get(p["clip"], p["clip"]) for p in e.get("parts", []) if "clip" in p})
        for lo, hi in e.get("labels", []):
            out.append((lo, hi, e["class"], src))
    return out


def source_groups(corpus):
    with open(os.path.join(corpus, "FOLDS.tsv")) as f:
        return {r["file"]: r["group"] for r in csv.DictReader(f, delimiter="\t")}


def heard_on(files, log, groups):
    """Each event of `log` with what it lay on: {id: (recording, class, onset, offset, alert,
    suppressed, home trace, [(class, source group)] of the true sounds it overlaps)}."""
    under = {f: sounds(f, groups) for f in files}
    out = {}
    for e in events(log):
        lay = sorted({(lc, g) for lo, hi, lc, src in under.get(e.source, []) if overlaps((e.onset, e.offset), (lo, hi)) for g in src})
        out[e.id] = (e.source, e.cls, e.onset, e.offset, e.alert, e.suppressed, e.home, lay)
    return out


def explain(files_a, log_a, marks, files_b, log_b, groups):
    """Where night B's false alerts come from, and which true events the home held back.
    `marks` are night A's labels ({id: verdict}). Returns (false alerts, true held back):
    each false alert as a dict of its class, whether no home can teach it away (critical),
    the true sounds it lay on ("class:group", none: the background) and whether night A
    marked a false alert of its class on one of those sources (the memory had something of
    it to be near); each true event held back as its class, source and the night A mark it
    was found like (with what that mark lay on)."""
    a = heard_on(files_a, log_a, groups)
    marked_not = {}
    for i, v in marks.items():
        if i in a and v != "right":
            for _, g in a[i][7]:
                marked_not.setdefault(a[i][1], set()).add(g)
    refs = {f: labels(f) for f in files_b}
    false, held = [], []
    for i, (s, c, on, off, alert, why, home, lay) in heard_on(files_b, log_b, groups).items():
        true = any(lc == c and overlaps((on, off), (lo, hi)) for lo, hi, lc in refs.get(s, []))
        if alert and not true:
            false.append({"id": i, "scene": os.path.basename(s), "class": c, "onset_s": on, "critical": c in CRITICAL,
                          "on": [f"{lc}:{g}" for lc, g in lay], "re_classified": bool(home and home.get("from")),
                          "marked_source": any(g in marked_not.get(c, ()) for _, g in lay)})
        if why == "home" and true:
            like = (home or {}).get("like")
            mark = a.get(like)
            held.append({"id": i, "scene": os.path.basename(s), "class": c, "onset_s": on,
                         "on": [f"{lc}:{g}" for lc, g in lay if lc == c], "like": like, "label": (home or {}).get("label"),
                         "distance": (home or {}).get("distance"),
                         "mark_on": [f"{lc}:{g}" for lc, g in mark[7]] if mark else None})
    return false, held


def reach(somniq, memory, files_b, work, tag):
    """How near each event of night B lies to the memory's marks: night B replayed twice with
    `memory` made to reach everything (every class's radius 1000, ratio 1, no mark's own cap), once
    with its "not" marks alone and once with its "right" ones as "not" (the memory's own scaling,
    and its fit beside it): each event's trace then names its nearest "not" mark and its distance,
    and the distance to the nearest "right" one. Returns ({(scene, class, onset): {"not": (distance,
    mark), "right": (distance, mark)}}, {class: (radius, ratio, prior)}, {class: {mark: cap}})."""
    text = open(memory).read().splitlines()
    classes, caps = {}, {}
    for line in text:
        p = line.split()
        if p and p[0] == "class":
            classes[p[1]] = (float(p[3]), float(p[5]), len(p) == 7)
        elif p and p[0] == "cap":
            caps.setdefault(p[1], {})[p[2]] = float(p[3])
    found = {}
    for kind in ("not", "right"):
        out = []
        for line in text:
            p = line.split()
            if p and p[0] == "cap":
                continue
            if p and p[0] == "class":
                line = f"class {p[1]} radius 1000 ratio 1" + (" prior" if len(p) == 7 else "")
            elif p and p[0] == "memory":
                if (p[1] == "right") != (kind == "right"):
                    continue
                line = " ".join(["memory", "not"] + p[2:])
            out.append(line)
        crafted = os.path.join(work, f"reach-{tag}-{kind}.txt")
        with open(crafted, "w") as f:
            f.write("\n".join(out) + "\n")
        fit = fit_beside(memory)
        if os.path.exists(fit):
            shutil.copyfile(fit, crafted[:-4] + ".fit.txt")
        log = crafted[:-4] + ".jsonl"
        replay(somniq, files_b, log, "2026-11-23", home=crafted, fit=True)
        for e in events(log):
            if e.home and not e.home.get("from"):
                found.setdefault((os.path.basename(e.source), e.cls, round(e.onset, 1)), {})[kind] = (e.home["distance"], e.home["like"])
    return found, classes, caps


def fit_beside(memory):
    """Where learn --home writes the fit of `memory` (HomeFitFile.beside): home-fit.txt beside
    home-memory.txt, NAME.fit.txt beside NAME.txt."""
    d, name = os.path.split(memory)
    return os.path.join(d, "home-fit.txt" if name == "home-memory.txt" else name[:-4] + ".fit.txt")


def why_left(f, near, classes, caps):
    """Why the memory let false alert `f` (an `explain` dict) through: a class no home can teach
    away, an event a correction logged, no mark of its class, its nearest mark beyond its class's
    radius (the corpus's prior's or the one chosen), that mark's own radius (a confirmed event near
    it), or a sound of its class marked right about as near (the ratio); "not told" where none
    of those holds (the replays that measured the distances went otherwise than the log's)."""
    if f["critical"]:
        return "never taught away"
    if f["re_classified"]:
        return "logged by a correction"
    c = f["class"]
    d = near.get((f["scene"], c, round(f["onset_s"], 1)), {})
    if c not in classes or "not" not in d:
        return "no mark of its class"
    radius, ratio, prior = classes[c]
    dn, mark = d["not"]
    dr = d.get("right", (float("inf"), None))[0]
    f["distance_not"], f["distance_right"], f["radius"], f["ratio"] = dn, (None if dr == float("inf") else dr), radius, ratio
    if dn > radius:
        return "beyond the prior's radius" if prior else "beyond its class's radius"
    if dn >= caps.get(c, {}).get(mark, float("inf")):
        return "its mark kept short of a confirmed sound"
    if dn > ratio * dr:
        return "a sound marked right as near (ratio)"
    return "not told"


def print_explain(name, false, held):
    print(f"where night B's false alerts come from ({name}): {len(false)} false alerts, "
          f"{sum(f['critical'] for f in false)} of classes no home can teach away")
    why = {}
    for f in false:
        if "why" in f:
            why.setdefault(f["why"], []).append(f["class"])
    for w in sorted(why, key=lambda w: (-len(why[w]), w)):
        cs = {c: why[w].count(c) for c in why[w]}
        print(f"  why the memory let it through: {w}: {len(why[w])} ("
              + ", ".join(f"{c} {n}" for c, n in sorted(cs.items(), key=lambda x: (-x[1], x[0]))) + ")")
    per = {}
    for f in false:
        k = per.setdefault(f["class"], {"n": 0, "on": {}, "marked": 0})
        k["n"] += 1
        k["marked"] += f["marked_source"]
        for o in f["on"] or ["background"]:
            k["on"][o] = k["on"].get(o, 0) + 1
    for c in sorted(per, key=lambda c: (-per[c]["n"], c)):
        k = per[c]
        on = ", ".join(f"{o} {n}" for o, n in sorted(k["on"].items(), key=lambda x: (-x[1], x[0])))
        print(f"  {c:16} {k['n']:3}{' critical' if c in CRITICAL else '         '}  on: {on}"
              f"  (its source marked \"not {c}\" in night A: {k['marked']})")
    for h in held:
        print(f"  true {h['class']} held back: {h['scene']} {h['id']} at {h['onset_s']:.1f} s on {', '.join(h['on'])},"
              f" like {h['like']} ({h['label']}, distance {h['distance']}) on {', '.join(h['mark_on'] or ['?'])}")


# The class-level rules measured by `class_rule` (issue 48, item 2): a class's alerts held back
# whole where the other recordings' marks of it were at least K "not" and at most a share P
# "right". Most careful first: among equals, the first wins.
CLASS_RULES = [(k, p) for k in (5, 3, 2) for p in (0.0, 0.1, 0.2, 1 / 3)]


def class_rule(files_a, log_a, marks, groups):
    """Would a class's "not" marks generalise to its false alerts on other sources? Measured on
    night A's own marks, each recording left out in turn: for each rule of CLASS_RULES (a class
    held back whole where the other recordings marked at least K of its alerts and at most a share
    P of them right), the held-out marked alerts of classes a home may teach (no critical one) it
    holds back, false and confirmed, and of the false ones those on a source no other recording
    marked "not" of their class (what the memory, which holds back what lies near a mark, has
    nothing of). Returns {rule: figures}, rule "K/P"."""
    a = heard_on(files_a, log_a, groups)
    marked = [(a[i][0], a[i][1], v == "right", {g for _, g in a[i][7]}) for i, v in sorted(marks.items())
              if i in a and a[i][1] not in CRITICAL]
    # "It was X" is also a mark of X right (not held out as an alert: none of X was raised).
    said = [(a[i][0], v, True, set()) for i, v in sorted(marks.items()) if i in a and v not in ("right", "not")]
    out = {}
    for k, p in CLASS_RULES:
        f = {"false": 0, "false_held": 0, "confirmed": 0, "confirmed_held": 0, "unmarked_false": 0, "unmarked_false_held": 0}
        for rec, c, right, on in marked:
            others = [(r, s) for r2, c2, r, s in marked + said if r2 != rec and c2 == c]
            n_right, n_not = sum(r for r, _ in others), sum(not r for r, _ in others)
            held = n_not >= k and n_right <= p * (n_not + n_right)
            unmarked = not any(on & s for r, s in others if not r)
            if right:
                f["confirmed"] += 1
                f["confirmed_held"] += held
            else:
                f["false"] += 1
                f["false_held"] += held
                f["unmarked_false"] += unmarked
                f["unmarked_false_held"] += held and unmarked
        f["errors"] = f["false"] - f["false_held"] + f["confirmed_held"]
        out[f"{k}/{p:.2f}"] = f
    return out


def class_rule_on(files_b, log_b, marks_by_class, k, p):
    """What rule K/P, from all of night A's marks ({class: (not, right)}), would do to night B's
    log: the alerts of classes it holds back whole, false and true, and night B's recall as alerts
    without them."""
    refs = {f: labels(f) for f in files_b}
    evs = events(log_b)
    muted = {c for c, (n_not, n_right) in marks_by_class.items() if c not in CRITICAL and n_not >= k and n_right <= p * (n_not + n_right)}
    false = true = 0
    for s, i, c, on, off, alert, why, _, _ in evs:
        if alert and c in muted:
            if any(lc == c and overlaps((on, off), (lo, hi)) for lo, hi, lc in refs.get(s, [])):
                true += 1
            else:
                false += 1
    total = alerted = 0
    for f, ls in refs.items():
        for lo, hi, c in ls:
            total += 1
            alerted += any(e[0] == f and e[2] == c and e[5] and c not in muted and overlaps((e[3], e[4]), (lo, hi)) for e in evs)
    return {"classes": sorted(muted), "false_held": false, "true_held": true, "recall_alerted": round(alerted / max(1, total), 3)}


def marks_by_class(log_a, marks):
    """{class: (not, right)} of night A's marked alerts; "it was X" is a mark of X right too."""
    out = {}
    for s, i, c, on, off, alert, why, _, _ in events(log_a):
        if i in marks:
            n, r = out.get(c, (0, 0))
            out[c] = (n + (marks[i] != "right"), r + (marks[i] == "right"))
            if marks[i] not in ("right", "not"):
                n, r = out.get(marks[i], (0, 0))
                out[marks[i]] = (n, r + 1)
    return out


def overlaps(a, b):
    return a[0] - COLLAR < b[1] and b[0] - COLLAR < a[1]


def score(files, log):
    """A night's figures. Alerts (what wakes someone): false alerts per hour, recall of true
    events as alerts, alarms alerted, false alerts at the critical tier (what wakes a household)
    and true events of critical classes alerted at it.
    Detections (what the log keeps, held-back events too): false detections per hour, recall of
    true events as detections, alarms detected."""
    evs = events(log)
    seconds = 0.0
    refs = {f: labels(f) for f in files}
    for f in files:
        seconds += json.load(open(f[:-5] + ".json"))["length_s"]
    false_alerts = false_detections = held_back = held_back_true = critical_false = 0
    critical = {e.id for e in evs if e.tier == "critical"}
    verdicts = []
    for s, i, c, on, off, alert, why, _, _ in evs:
        true = any(lc == c and overlaps((on, off), (lo, hi)) for lo, hi, lc in refs.get(s, []))
        false_detections += 0 if true else 1
        if alert:
            was = next((lc for lo, hi, lc in refs.get(s, []) if lc != c and overlaps((on, off), (lo, hi))), None)
            verdicts.append((i, "right" if true else "not", None if true else was))
            false_alerts += 0 if true else 1
            critical_false += 0 if true or i not in critical else 1
        if why == "home":
            held_back += 1
            held_back_true += 1 if true else 0
    total = found = alerted = alarms = alarms_found = alarms_alerted = critical_labels = critical_alerted = 0
    per_class = {}
    for s, i, c, on, off, alert, why, _, _ in evs:
        if alert and not any(lc == c and overlaps((on, off), (lo, hi)) for lo, hi, lc in refs.get(s, [])):
            per_class.setdefault(c, {"labels": 0, "alerted": 0, "false_alerts": 0})["false_alerts"] += 1
    for f, ls in refs.items():
        for lo, hi, c in ls:
            hits = [e for e in evs if e[0] == f and e[2] == c and overlaps((e[3], e[4]), (lo, hi))]
            hit, warned = bool(hits), any(e[5] for e in hits)
            total += 1
            found += hit
            alerted += warned
            k = per_class.setdefault(c, {"labels": 0, "alerted": 0, "false_alerts": 0})
            k["labels"] += 1
            k["alerted"] += warned
            if c in CRITICAL:
                critical_labels += 1
                critical_alerted += any(e[5] and e[1] in critical for e in hits)
            if c == "smoke_alarm":
                alarms += 1
                alarms_found += hit
                alarms_alerted += warned
    hours = seconds / 3600
    return {"hours": round(hours, 3), "events": len(evs), "alerts": sum(1 for e in evs if e[5]),
            "false_alerts": false_alerts, "false_alerts_per_hour": round(false_alerts / hours, 2),
            "critical_false_alerts": critical_false, "critical_labels": critical_labels,
            "critical_alerted": critical_alerted,
            "false_detections": false_detections, "false_detections_per_hour": round(false_detections / hours, 2),
            "held_back_home": held_back, "held_back_true": held_back_true,
            "labels_in_night": total, "recall_detected": round(found / max(1, total), 3),
            "recall_alerted": round(alerted / max(1, total), 3),
            "alarms": alarms, "alarms_found": alarms_found, "alarms_alerted": alarms_alerted,
            "per_class": {c: per_class[c] for c in sorted(per_class)}}, verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--somniq", default=".build/release/somniq")
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--work", help="where the nights and logs go (default /tmp/somniq-eval-home-SOURCES)")
    ap.add_argument("--scenes", type=int, default=6, help="scenes a night (default 6)")
    ap.add_argument("--length", type=int, default=300, help="seconds a scene (default 300)")
    ap.add_argument("--seed", type=int, default=41, help="the home: its sources and night A (night B: SEED+1; default 41)")
    ap.add_argument("--sources", default="2", help="source groups of each class the home hears (default 2), all, or newest "
                    "(every check-side source of the corpus's 55 newest, its README says which: 6 classes)")
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--verbose", action="store_true", help="print each command run")
    ap.add_argument("--explain", action="store_true", help="also say, per class, what true sound of night B each false "
                    "alert left with the memory and the fit lies on (class and source group), and which true events "
                    "the home held back and the mark they were like")
    ap.add_argument("--refit", metavar="PYTHON", help="also re-fit the learned rules with night A's labels "
                    "(tools/learn/home.py run by this python, the learn venv's) and score night B with them")
    ap.add_argument("--material", help="home.py's --material (the corpus material of folds 0-2)")
    ap.add_argument("--learn-cache", help="home.py's --cache")
    ap.add_argument("--learn-work", help="home.py's --work")
    ap.add_argument("--refit-weight", help="home.py's --weight (the home windows' weight, instead of choosing it)")
    a = ap.parse_args()
    global VERBOSE
    VERBOSE = a.verbose
    somniq, corpus = os.path.abspath(a.somniq), os.path.abspath(a.corpus)
    a.work = a.work or f"/tmp/somniq-eval-home-{a.sources}" + ("" if a.seed == 41 else f"-{a.seed}")
    os.makedirs(a.work, exist_ok=True)
    sources = home_sources(corpus, sources_option(a.sources), a.seed)
    night_a = scenes(corpus, os.path.join(a.work, "A"), a.seed, a.scenes, a.length, sources)
    night_b = scenes(corpus, os.path.join(a.work, "B"), a.seed + 1, a.scenes, a.length, sources)

    log_a = os.path.join(a.work, "night-a.jsonl")
    replay(somniq, night_a, log_a, "2026-11-22")
    a_figures, verdicts = score(night_a, log_a)
    log_a_was = os.path.join(a.work, "night-a-was.jsonl")
    shutil.copyfile(log_a, log_a_was)
    label_file, was_file = os.path.join(a.work, "labels-a.txt"), os.path.join(a.work, "labels-a-was.txt")
    with open(label_file, "w") as f, open(was_file, "w") as g:
        for i, v, was in verdicts:
            f.write(f"{i} {v}\n")
            g.write(f"{i} {was or v}\n")
    run([somniq, "label", "--from", label_file, "--log", log_a], stdout=subprocess.DEVNULL)
    run([somniq, "label", "--from", was_file, "--log", log_a_was], stdout=subprocess.DEVNULL)
    memory, memory_was = os.path.join(a.work, "home-memory.txt"), os.path.join(a.work, "home-memory-was.txt")
    learned = run([somniq, "learn", "--home", "--log", log_a, "--output", memory], capture_output=True).stdout
    learned_was = run([somniq, "learn", "--home", "--log", log_a_was, "--output", memory_was], capture_output=True).stdout

    log_b0, log_b1 = os.path.join(a.work, "night-b.jsonl"), os.path.join(a.work, "night-b-home.jsonl")
    log_b6 = os.path.join(a.work, "night-b-home-was.jsonl")
    replay(somniq, night_b, log_b0, "2026-11-23")
    replay(somniq, night_b, log_b1, "2026-11-23", home=memory)
    replay(somniq, night_b, log_b6, "2026-11-23", home=memory_was)
    # With the memory and this home's fit (home-fit.txt beside the memory, learn --home's too).
    log_b7, log_b8 = os.path.join(a.work, "night-b-home-fit.jsonl"), os.path.join(a.work, "night-b-home-was-fit.jsonl")
    replay(somniq, night_b, log_b7, "2026-11-23", home=memory, fit=True)
    replay(somniq, night_b, log_b8, "2026-11-23", home=memory_was, fit=True)
    before, _ = score(night_b, log_b0)
    after, _ = score(night_b, log_b1)
    after_was, _ = score(night_b, log_b6)
    after_fit, _ = score(night_b, log_b7)
    after_was_fit, _ = score(night_b, log_b8)
    refit = both = learned_all = refit_all = None
    if a.refit:
        rules = os.path.join(a.work, "home-rules.txt")
        cmd = [a.refit, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "learn", "home.py"),
               "--home", log_a, "--out", rules, "--somniq", somniq, "--corpus", corpus]
        for flag, value in (("--material", a.material), ("--cache", a.learn_cache), ("--work", a.learn_work)):
            if value:
                cmd += [flag, os.path.abspath(value)]
        if a.refit_weight:
            cmd += ["--weight", a.refit_weight]
        run(cmd)
        log_b2, log_b3 = os.path.join(a.work, "night-b-refit.jsonl"), os.path.join(a.work, "night-b-refit-home.jsonl")
        replay(somniq, night_b, log_b2, "2026-11-23", rules=rules)
        replay(somniq, night_b, log_b3, "2026-11-23", home=memory, rules=rules)
        refit, _ = score(night_b, log_b2)
        both, _ = score(night_b, log_b3)
        # The learned rules deciding every class, the built-in ones and the re-fitted ones: what
        # the re-fit does where the ship decision (the corpus's) keeps the hand rule.
        log_b4, log_b5 = os.path.join(a.work, "night-b-learned.jsonl"), os.path.join(a.work, "night-b-refit-learned.jsonl")
        replay(somniq, night_b, log_b4, "2026-11-23", decide="learned")
        replay(somniq, night_b, log_b5, "2026-11-23", rules=rules, decide="learned")
        learned_all, _ = score(night_b, log_b4)
        refit_all, _ = score(night_b, log_b5)
    used = {"not": sum(v == "not" for _, v, _ in verdicts), "right": sum(v == "right" for _, v, _ in verdicts),
            "it_was": sum(w is not None for _, _, w in verdicts)}
    drop = 1 - after["false_alerts_per_hour"] / before["false_alerts_per_hour"] if before["false_alerts_per_hour"] else 0
    drop_was = 1 - after_was["false_alerts_per_hour"] / before["false_alerts_per_hour"] if before["false_alerts_per_hour"] else 0
    drop_fit = 1 - after_fit["false_alerts_per_hour"] / before["false_alerts_per_hour"] if before["false_alerts_per_hour"] else 0
    drop_was_fit = 1 - after_was_fit["false_alerts_per_hour"] / before["false_alerts_per_hour"] if before["false_alerts_per_hour"] else 0
    change = {k: round(after[k] - before[k], 3) for k in ("recall_detected", "recall_alerted")}
    change_was = {k: round(after_was[k] - before[k], 3) for k in ("recall_detected", "recall_alerted")}
    change_fit = {k: round(after_fit[k] - before[k], 3) for k in ("recall_detected", "recall_alerted")}
    change_was_fit = {k: round(after_was_fit[k] - before[k], 3) for k in ("recall_detected", "recall_alerted")}
    result = {"night_a": a_figures, "labels": used, "learn": learned.strip().splitlines(),
              "learn_it_was": learned_was.strip().splitlines(),
              "night_b_before": before, "night_b_after": after, "false_alerts_per_hour_drop": round(drop, 3),
              "recall_change": change,
              "night_b_after_it_was": after_was, "false_alerts_per_hour_drop_it_was": round(drop_was, 3),
              "recall_change_it_was": change_was,
              "night_b_after_fit": after_fit, "false_alerts_per_hour_drop_fit": round(drop_fit, 3), "recall_change_fit": change_fit,
              "night_b_after_it_was_fit": after_was_fit, "false_alerts_per_hour_drop_it_was_fit": round(drop_was_fit, 3),
              "recall_change_it_was_fit": change_was_fit,
              "targets": {"false_alerts_down_80": drop >= 0.8, "recall_alerted_not_lower": change["recall_alerted"] >= -0.02,
                          "every_alarm_alerted": after["alarms_alerted"] == after["alarms"]},
              "targets_it_was": {"false_alerts_down_80": drop_was >= 0.8, "recall_alerted_up": change_was["recall_alerted"] > 0,
                                 "every_alarm_alerted": after_was["alarms_alerted"] == after_was["alarms"]},
              "targets_fit": {"false_alerts_down_80": drop_fit >= 0.8, "recall_alerted_up": change_fit["recall_alerted"] > 0,
                              "every_alarm_alerted": after_fit["alarms_alerted"] == after_fit["alarms"]},
              "targets_it_was_fit": {"false_alerts_down_80": drop_was_fit >= 0.8, "recall_alerted_up": change_was_fit["recall_alerted"] > 0,
                                     "every_alarm_alerted": after_was_fit["alarms_alerted"] == after_was_fit["alarms"]}}
    if refit:
        result["night_b_refit"], result["night_b_refit_and_memory"] = refit, both
        result["night_b_learned_deciding_all"], result["night_b_refit_deciding_all"] = learned_all, refit_all
    print(f"night A: {a_figures['hours']} h, {a_figures['alerts']} alerts, labelled {used['not']} not, {used['right']} right"
          f" (the second user: {used['it_was']} of the not as \"it was X\")")
    for line in result["learn"]:
        print("  learn --home: " + line)
    for line in result["learn_it_was"]:
        print("  learn --home (it was X): " + line)
    print(f"night B ({before['hours']} h, {before['labels_in_night']} true events, {before['alarms']} smoke alarms):")
    rows = [("before", before), ("after", after), ("it was", after_was), ("after+fit", after_fit), ("it was+fit", after_was_fit)] + ([("refit", refit), ("both", both), ("learned*", learned_all), ("refit*", refit_all)] if refit else [])
    for name, r in rows:
        print(f"  {name:10} false alerts/h {r['false_alerts_per_hour']:7.2f} ({r['false_alerts']} of {r['alerts']} alerts)"
              f"  false detections/h {r['false_detections_per_hour']:7.2f}"
              f"  recall as alerts {r['recall_alerted']:.3f}, as detections {r['recall_detected']:.3f}"
              f"  alarms alerted {r['alarms_alerted']}/{r['alarms']} (detected {r['alarms_found']})"
              f"  held back by home {r['held_back_home']} ({r['held_back_true']} true)"
              f"  critical false alerts {r['critical_false_alerts']}, critical events alerted as critical"
              f" {r['critical_alerted']}/{r['critical_labels']}")
    if refit:
        print("  (after: with the memory; refit: the re-fitted learned rules; both: the two; *: learned rules deciding every class)")
    print(f"false alerts/h down {100 * drop:.0f} % (target 80 %), recall as alerts {change['recall_alerted']:+.3f}, "
          f"as detections {change['recall_detected']:+.3f} (target -0.02 or better)")
    print(f"it was X: false alerts/h down {100 * drop_was:.0f} % (target 80 %), recall as alerts {change_was['recall_alerted']:+.3f} (target: up), "
          f"as detections {change_was['recall_detected']:+.3f}")
    print(f"with the fit: false alerts/h down {100 * drop_fit:.0f} %, recall as alerts {change_fit['recall_alerted']:+.3f}; "
          f"it was X with the fit: down {100 * drop_was_fit:.0f} %, recall as alerts {change_was_fit['recall_alerted']:+.3f} (target: up)")
    # Per class: true events alerted of those in the night, and false alerts, before / with the
    # memory / with the memory and the fit ("it was X" user).
    print("per class (it was X user): alerted/true and false alerts, before | memory | memory+fit")
    for c in sorted(set(before["per_class"]) | set(after_was["per_class"]) | set(after_was_fit["per_class"])):
        cells = []
        for r in (before, after_was, after_was_fit):
            k = r["per_class"].get(c, {"labels": 0, "alerted": 0, "false_alerts": 0})
            cells.append(f"{k['alerted']:2}/{k['labels']:<2} fa {k['false_alerts']:3}")
        print(f"  {c:16} " + " | ".join(cells))
    if a.explain:
        groups = source_groups(corpus)
        marks = {i: v for i, v, _ in verdicts}
        marks_was = {i: was or v for i, v, was in verdicts}
        for name, m, log in (("shipped", marks, log_b0), ("\"not\" user, memory+fit", marks, log_b7),
                             ("\"it was\" user, memory+fit", marks_was, log_b8)):
            false, held = explain(night_a, log_a if m is marks else log_a_was, m, night_b, log, groups)
            if log != log_b0:
                mem = memory if m is marks else memory_was
                near, classes, caps = reach(somniq, mem, night_b, a.work, "not" if m is marks else "was")
                for f in false:
                    f["why"] = why_left(f, near, classes, caps)
            print_explain(name, false, held)
            result.setdefault("explain", {})[name] = {"false_alerts": false, "true_held_back": held}
        # Item 2 of the note: would a class's "not" marks generalise to its other sources? Chosen
        # by night A's held-out marks; night B only says what the rule chosen would have done.
        for name, m, la, lb in (("\"not\" user", marks, log_a, log_b7), ("\"it was\" user", marks_was, log_a_was, log_b8)):
            rules = class_rule(night_a, la, m, groups)
            base = next(iter(rules.values()))
            base_errors = base["false"]
            best = min(rules, key=lambda r: rules[r]["errors"])
            print(f"a class held back whole by its marks ({name}), night A, each recording left out: {base['false']} false "
                  f"alerts ({base['unmarked_false']} on sources no other recording marked), {base['confirmed']} confirmed; "
                  f"none held back: {base_errors} errors")
            for r, f in rules.items():
                print(f"  {r}: holds back {f['false_held']} false ({f['unmarked_false_held']} on unmarked sources), "
                      f"{f['confirmed_held']} confirmed: {f['errors']} errors")
            k, p = best.split("/")
            on_b = class_rule_on(night_b, lb, marks_by_class(la, m), int(k), float(p))
            print(f"  best {best} ({'helps' if rules[best]['errors'] < base_errors else 'does not help'} on the held-out marks); "
                  f"on night B with the memory and fit it would hold back {on_b['classes']}: {on_b['false_held']} false and "
                  f"{on_b['true_held']} true alerts, recall as alerts {on_b['recall_alerted']}")
            result.setdefault("class_rule", {})[name] = {"held_out": rules, "best": best, "night_b": on_b}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
