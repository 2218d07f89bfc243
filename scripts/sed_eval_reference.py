#!/usr/bin/env python3
"""Scores label files with the sed_eval package, as the reference for `somniq eval`.

usage: sed_eval_reference.py [--labels a,b,c] [--resolution 1.0] [--collar 1.0]
                             REF.tsv EST.tsv [REF.tsv EST.tsv ...]

Each pair is one recording: its reference labels and the estimated events, both
DCASE / sed_eval label files (onset<TAB>offset<TAB>class per line, seconds; an empty
reference means background only). Prints JSON with sed_eval's segment-based metrics
(time_resolution=--resolution) and event-based metrics (t_collar=--collar,
percentage_of_length=0.5, evaluate_onset=True, evaluate_offset=False, optimal matching):
per class precision, recall, f1 and counts, the overall (micro) scores, and the
class-wise average (macro, numpy.nanmean over classes). NaN is written as null.
--labels defaults to every class found in the files, sorted.

sed_eval and its dependency dcase_util must be importable, e.g.
    python3 -m venv /tmp/sedeval && /tmp/sedeval/bin/pip install sed_eval
    /tmp/sedeval/bin/python scripts/sed_eval_reference.py --labels cough,snoring ref.tsv est.tsv
"""

import argparse
import json
import math
import sys
import warnings

try:
    import dcase_util
    import sed_eval
except ImportError as error:
    sys.exit(f"sed_eval_reference.py: {error}; install sed_eval: "
             "python3 -m venv /tmp/sedeval && /tmp/sedeval/bin/pip install sed_eval, "
             "then run this script with /tmp/sedeval/bin/python")


def fail(message):
    sys.exit(f"sed_eval_reference.py: {message}")


def strict_events(path):
    """The events of a label file under the rules of somniq's LabelFile.parse."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    events = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) != 3:
            fail(f"{path}:{number}: expected onset<TAB>offset<TAB>class, found {len(fields)} fields")
        try:
            onset, offset = float(fields[0]), float(fields[1])
        except ValueError:
            fail(f"{path}:{number}: onset and offset must be numbers")
        if not (math.isfinite(onset) and math.isfinite(offset)) or onset < 0 or offset < onset or not fields[2]:
            fail(f"{path}:{number}: needs 0 <= onset <= offset and a class")
        events.append((onset, offset, fields[2]))
    return events


def load(path):
    """The file as sed_eval reads it, checked against the strict reading.

    dcase_util picks a parser from the file extension and would read a .tsv file as a CSV
    with a header row, so the plain-text format and the tab delimiter are forced."""
    expected = strict_events(path)
    if not expected:
        return dcase_util.containers.MetaDataContainer([])
    events = sed_eval.io.load_event_list(path, file_format="TXT", delimiter="\t")
    found = [(e["onset"], e["offset"], e["event_label"]) for e in events]
    if found != expected:
        fail(f"{path}: dcase_util read {len(found)} events that differ from the file's {len(expected)}")
    return events


def number(value):
    value = float(value)
    return None if math.isnan(value) else value


def scores(f_measure):
    return {"precision": number(f_measure["precision"]),
            "recall": number(f_measure["recall"]),
            "f1": number(f_measure["f_measure"])}


def counts(table):
    return {key: int(table[key]) for key in ("Ntp", "Nfp", "Nfn", "Nref", "Nsys", "Nsubs") if key in table}


def report(metrics, labels):
    results = metrics.results()
    return {
        "overall": {**scores(results["overall"]["f_measure"]), **counts(metrics.overall)},
        "class_wise_average": scores(results["class_wise_average"]["f_measure"]),
        "class_wise": {label: {**scores(results["class_wise"][label]["f_measure"]),
                               **counts(metrics.class_wise[label])}
                       for label in labels},
    }


def main():
    parser = argparse.ArgumentParser(description="Score label files with sed_eval (reference for somniq eval).")
    parser.add_argument("files", nargs="+", metavar="REF_EST",
                        help="reference and estimated label files, in pairs: ref1 est1 ref2 est2 ...")
    parser.add_argument("--labels", help="comma-separated classes (default: every class in the files)")
    parser.add_argument("--resolution", type=float, default=1.0, help="segment length in seconds (default 1.0)")
    parser.add_argument("--collar", type=float, default=1.0, help="onset collar in seconds (default 1.0)")
    args = parser.parse_args()
    if len(args.files) % 2:
        parser.error("files come in pairs: reference then estimate")

    pairs = [(load(r), load(e)) for r, e in zip(args.files[0::2], args.files[1::2])]
    found = sorted({e["event_label"] for ref, est in pairs for e in list(ref) + list(est)})
    labels = [l for l in args.labels.split(",") if l] if args.labels is not None else found
    unknown = [l for l in found if l not in labels]
    if unknown:
        fail(f"not in --labels but in the files: {', '.join(unknown)} "
             "(sed_eval's segment-based metrics cannot score a class outside its list)")

    segment_based = sed_eval.sound_event.SegmentBasedMetrics(
        event_label_list=labels, time_resolution=args.resolution)
    event_based = sed_eval.sound_event.EventBasedMetrics(
        event_label_list=labels, t_collar=args.collar, percentage_of_length=0.5,
        evaluate_onset=True, evaluate_offset=False)
    for reference, estimated in pairs:
        segment_based.evaluate(reference_event_list=reference, estimated_event_list=estimated)
        event_based.evaluate(reference_event_list=reference, estimated_event_list=estimated)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # nanmean of classes that are all NaN
        output = {
            "sed_eval_version": sed_eval.__version__,
            "labels": labels,
            "files": len(pairs),
            "segment_based": {"time_resolution": args.resolution,
                              "evaluated_seconds": segment_based.evaluated_length_seconds,
                              **report(segment_based, labels)},
            "event_based": {"t_collar": args.collar, **report(event_based, labels)},
        }
    print(json.dumps(output, indent=2, allow_nan=False))


if __name__ == "__main__":
    main()
