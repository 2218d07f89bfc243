"""tools/learn/train.py: the labels' rule, the cutoff, the trees as somniq reads them and
evaluates them, and the fingerprints the rules file records."""
import hashlib
import math
import os

import numpy as np
import pytest

import train
from conftest import ROOT, write


def test_f1_of_counts_and_of_nothing():
    assert train.f1((3, 1, 2)) == 6 / 9
    assert train.f1((0, 4, 0)) == 0
    assert math.isnan(train.f1((0, 0, 0)))


def test_best_cutoff_lies_between_two_distinct_margins():
    margin = np.array([3.0, 2.0, 2.0, 1.0, -1.0])
    y = np.array([1, 1, 0, 1, 0])
    cutoff, f1 = train.best_cutoff(margin, y)
    # Calling the four above -1 present: tp 3, fp 1, fn 0 -> F1 6/7, the best; the cutoff
    # halfway to the next margin down. Between the two 2.0s is no cutoff.
    assert (cutoff, f1) == (0.0, 6 / 7)
    assert train.best_cutoff(np.array([1.0, 0.5]), np.array([1, 0])) == (0.75, 1.0)


def test_a_window_is_positive_negative_or_left_out_by_its_overlap_with_a_label(tmp_path):
    audio = write(str(tmp_path / "fold0" / "scenes" / "a.flac"), "")
    write(str(tmp_path / "fold0" / "scenes" / "a.tsv"),
          "1.0\t1.2\tcough\n"        # 0.2 s: half of it (0.1 s) is enough
          "2.9\t6.0\tcough\n"        # long: 0.25 s of it is needed
          "7.0\t7.0\tsnoring\n"      # empty: no label
          "not a label line\n")
    out = write(str(tmp_path / "dump.tsv"), "t\tx\n" + "".join(f"{0.5 * i}\t{i}\n" for i in range(14)))
    assert train.labels_of(audio) == [(1.0, 1.2, "cough"), (2.9, 6.0, "cough"), (7.0, 7.0, "snoring")]
    data = train.load([(0, "scenes", audio, out)])
    # Windows of 1 s every 0.5 s: [0.5, 1.5] and [1, 2] hold all of the short cough; [2, 3]
    # holds 0.1 s of the long one (< 0.25 s: left out); [2.5, 3.5] to [5.5, 6.5] hold enough.
    assert data["y_cough"].tolist() == [0, 1, 1, 0, -1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
    # Snoring is not a class a learned rule decides (train.CANDIDATES): no column of its own.
    assert data["y_scream"].tolist() == [0] * 14 and "y_snoring" not in data
    assert set(data["fold"]) == {0} and set(data["file"]) == {audio}


def test_the_network_columns_shift_within_a_file_and_are_0_beyond_its_ends():
    import pandas as pd
    data = pd.DataFrame({"file": ["a", "a", "a", "b", "b"]})
    outputs = np.zeros((5, len(train.CANDIDATES)), np.float32)
    outputs[:, 0] = [1, 2, 3, 4, 5]
    train.net_columns(data, outputs, [])
    c = train.CANDIDATES[0]
    assert data[f"n_{c}@0"].tolist() == [1, 2, 3, 4, 5]
    assert data[f"n_{c}@1"].tolist() == [2, 3, 0, 5, 0]
    assert data[f"n_{c}@-2"].tolist() == [0, 0, 1, 0, 0]


def test_the_trainer_fingerprint_is_each_files_path_and_bytes():
    h = hashlib.sha256()
    for p in train.TRAINER_FILES:
        h.update(p.encode() + b"\0" + open(os.path.join(ROOT, p), "rb").read())
    assert train.sha256_files(train.TRAINER_FILES) == h.hexdigest()
    # The one rules/learned.txt records: the trainer in the repository fitted them.
    recorded = [l for l in open(os.path.join(ROOT, "rules", "learned.txt")) if l.startswith("meta trainer_sha256=")]
    assert recorded == [f"meta trainer_sha256={h.hexdigest()}\n"]


# A tree as LightGBM dumps it (Booster.dump_model).
DUMPED = {"split_feature": 1, "threshold": 0.1, "decision_type": "<=", "missing_type": "None", "internal_value": -0.5,
          "left_child": {"leaf_value": -2.0},
          "right_child": {"split_feature": 0, "threshold": 3.0, "decision_type": "<=", "internal_value": 0.5,
                          "left_child": {"leaf_value": 0.25}, "right_child": {"leaf_value": 1.5}}}


def test_a_dumped_tree_is_written_in_preorder_with_its_inputs_names():
    assert train.tree_lines(DUMPED, ["h_cough", "flat@0"]) == [
        "s flat@0 0.1 -0.5", "l -2.0", "s h_cough 3.0 0.5", "l 0.25", "l 1.5"]
    with pytest.raises(AssertionError):
        train.tree_lines({**DUMPED, "missing_type": "NaN"}, ["h_cough", "flat@0"])


def test_the_margin_is_somniqs_thresholds_at_the_float32_at_or_below_them():
    trees = [["tree"] + train.tree_lines(DUMPED, ["h_cough", "flat@0"]), ["tree", "l -0.125"]]
    # float32(0.1) is above 0.1: the threshold is the float32 below it, so an input of
    # float32(0.1) goes right, as somniq's evaluator sends it.
    X = np.array([[0.0, 0.05], [2.0, float(np.float32(0.1))], [4.0, 0.5]])
    assert train.margin_of(trees, X, ["h_cough", "flat@0"]).tolist() == [-2.125, 0.125, 1.375]


def test_the_exported_trees_sum_to_lightgbms_own_margin():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + 0.5 * X[:, 2] > 0).astype(int)
    booster, _ = train.fit(X, y, 12)
    trees = train.export(booster, 12, ["a", "b", "c"])
    assert len(trees) == 12 and all(t[0] == "tree" for t in trees)
    ours = train.margin_of(trees, X, ["a", "b", "c"])
    assert np.allclose(ours, booster.predict(X, raw_score=True), atol=1e-5)
