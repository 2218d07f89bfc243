"""The learned rules' file format (docs/learned-rules.md) on the trainer's side: the page's
example, what train.py's writer writes and rules/learned.txt all read by one checker of the
page (learned_rules_spec.py); and the writer's output kept in fixtures/learned-rules/,
which somniq's reader is tested on (Tests/SomniqConfigTests/LearnedRulesTrainerTests.swift).

After a change to the writer: `.build/learn/venv/bin/python tools/tests/test_learned_rules_format.py`
writes the fixture again (review the diff; the Swift test reads it)."""
import os
import sys

import numpy as np
import pytest

sys.path[:0] = [os.path.join(os.path.dirname(__file__), "..", "learn"), os.path.dirname(__file__)]
import jax  # noqa: E402
import network  # noqa: E402
import train  # noqa: E402
from learned_rules_spec import FormatError, body_sha256, check  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE = os.path.join(ROOT, "fixtures", "learned-rules", "written-by-the-trainer.txt")
MARGINS = os.path.join(ROOT, "fixtures", "learned-rules", "written-by-the-trainer-margins.tsv")
NAMES = ["h_cough", "flat@0", "s300-600@0"]


def spec_example():
    page = open(os.path.join(ROOT, "docs", "learned-rules.md")).read()
    return page.split("<!-- learned-rules example -->\n```\n", 1)[1].split("```", 1)[0]


def built_in_inputs():
    """rules/learned.txt's inputs line: the inputs this somniq computes."""
    line = next(l for l in open(os.path.join(ROOT, "rules", "learned.txt")) if l.startswith("inputs "))
    _, count, digest = line.split()
    return int(count), digest


def trainer_written(path):
    """A small cough rule fitted, exported, cut and written by train.py's own functions (and
    a network as network.py starts one), and the margins train.py computes of eight windows."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, len(NAMES))).astype(np.float32).astype(np.float64)
    y = ((X[:, 0] - X[:, 1]) > 0.3).astype(int)
    booster, _ = train.fit(X, y, 3)
    trees = train.export(booster, 3, NAMES)
    cutoff, window_f1 = train.best_cutoff(train.margin_of(trees, X, NAMES).astype(np.float64), y)
    block = train.class_block("cough", True, cutoff, [("rounds", 3), ("window_f1", f"{window_f1:.3f}")], trees)
    net = network.init(jax.random.PRNGKey(0), len(train.CANDIDATES))
    count, digest = built_in_inputs()
    train.write_rules(path, [("material", "tools/tests/test_learned_rules_format.py")], [block], digest, count, net)
    margins = train.margin_of(trees, X[:8], NAMES)
    rows = ["\t".join(NAMES + ["margin"])] + ["\t".join(repr(float(v)) for v in list(x) + [m]) for x, m in zip(X[:8], margins)]
    return "\n".join(rows) + "\n"


def test_the_pages_example_is_in_the_format():
    classes, header, inputs, net = check(spec_example(), train.CANDIDATES)
    assert classes == {"cough": (True, -0.5, [("rounds", "2"), ("cv_hand", "0.169"), ("cv_learned", "0.362")], 2)}
    assert [k for k, _ in header] == ["material", "body_sha256"] and net is None
    assert inputs == built_in_inputs()


def test_what_the_trainers_writer_writes_is_in_the_format_and_is_the_fixture(tmp_path):
    path = str(tmp_path / "rules.txt")
    margins = trainer_written(path)
    text = open(path).read()
    classes, header, inputs, (net_classes, layers) = check(text, train.CANDIDATES)
    assert list(classes) == ["cough"] and classes["cough"][0] and classes["cough"][3] == 3
    assert [k for k, _ in header] == ["material", "body_sha256"] and dict(header)["body_sha256"] == body_sha256(text)
    assert net_classes == train.CANDIDATES and layers == network.LAYERS
    assert text.startswith("# somniq's learned rules, written by tools/learn/train.py")
    # The fixture somniq's reader is tested on is the writer's output as it is now.
    assert text == open(FIXTURE).read(), f"the writer changed: write {FIXTURE} again ({__file__})"
    assert margins == open(MARGINS).read()


def test_the_built_in_rules_are_in_the_format():
    classes, header, inputs, net = check(open(os.path.join(ROOT, "rules", "learned.txt")).read(), train.CANDIDATES)
    assert set(classes) == set(train.CANDIDATES) and net[0] == train.CANDIDATES
    assert dict(header)["trainer_sha256"] == train.sha256_files(train.TRAINER_FILES)


@pytest.mark.parametrize("change, problem", [
    (lambda t: t.replace("somniq-learned-rules 1", "somniq-learned-rules 2"), "line 2: the first statement is not"),
    (lambda t: t.replace("class cough ship", "class snoring ship"), "line 6: `class CLASS ship|hand"),
    (lambda t: t.replace("cutoff=-0.5", "cutoff=nan"), "line 6: cutoff: 'nan' is not finite"),
    (lambda t: t.replace("l 1.5\n", ""), "line 12: `tree` inside a class, after the tree before it is complete"),
    (lambda t: t.replace("s flat@0 0.15 0.5", "s flat@0 0.15"), "line 10: `s INPUT THRESHOLD VALUE`"),
    (lambda t: t.replace("l -0.125", "l -0.25"), "line 0: body_sha256 is not the digest"),
    (lambda t: t.replace("meta material=example\n", "") + "meta material=late\n", "line 14: `meta KEY=VALUE`"),
])
def test_the_checker_names_the_line_that_leaves_the_format(change, problem):
    with pytest.raises(FormatError) as e:
        check(change(spec_example()), train.CANDIDATES)
    assert str(e.value).startswith(problem)


if __name__ == "__main__":
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    margins = trainer_written(FIXTURE)
    with open(MARGINS, "w") as fh:
        fh.write(margins)
    print(f"wrote {FIXTURE} and {MARGINS}")
