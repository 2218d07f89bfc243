"""tools/learn/material.py: each fold's batches mix from that fold alone, so that every
source group (FOLDS.tsv) stays on one side of the cross-validation."""
import material
from conftest import write

FOLDS_TSV = ("file\tclass\tgroup\tfold\n"
             "clips/cough/a.flac\tcough\tg1\t0\n"
             "backgrounds/clock/c0.flac\tclock\tk1\t0\n"
             "backgrounds/rain/r1.flac\train\tk2\t1\n"
             "backgrounds/fan/f1.flac\tfan\tk3\t1\n"
             "backgrounds/traffic/t3.flac\ttraffic\tk4\t3\n"
             "backgrounds/loose.flac\t-\tk5\t2\n")


def test_a_folds_background_kinds_are_its_own_after_the_synthetic_ones(tmp_path):
    write(str(tmp_path / "FOLDS.tsv"), FOLDS_TSV)
    assert material.kinds(str(tmp_path), 0) == ["pink", "fan", "hum", "clock"]
    assert material.kinds(str(tmp_path), 1) == ["pink", "fan", "hum", "rain"]
    # A loop not in a kind's folder is no kind; fold 3's traffic is check/'s side, never fold 2's.
    assert material.kinds(str(tmp_path), 2) == ["pink", "fan", "hum"]


def test_every_batch_mixes_from_its_own_fold_alone(tmp_path):
    write(str(tmp_path / "FOLDS.tsv"), FOLDS_TSV)
    batches = list(material.batches(str(tmp_path), "/out"))
    assert [(f, k) for f, k, _ in batches] == [(f, k) for f in (0, 1, 2) for k in ("scenes", "nights", "stress")]
    for fold, kind, cmd in batches:
        args = cmd[3:]
        assert cmd[2] == (material.STRESS if kind == "stress" else material.MIXER)
        if kind == "stress":
            assert args[:2] == [str(fold), f"/out/fold{fold}/stress"]
            continue
        assert args[args.index("--folds") + 1] == str(fold)
        assert args[args.index("--out") + 1] == f"/out/fold{fold}/{kind}"
        own = set(material.kinds(str(tmp_path), fold)) - ({"pink"} if kind == "nights" else set())
        assert set(args[args.index("--bg") + 1].split(",")) == own
    # Seeded per fold and kind: the same corpus gives the same files, and no two batches the same.
    seeds = [cmd[cmd.index("--seed") + 1] for _, k, cmd in batches if k != "stress"]
    assert len(set(seeds)) == len(seeds) == 6
