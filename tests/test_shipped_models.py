"""The shipped value models are retrained, byte for byte, by the command the docs give: the fit
keeps its bits whatever order numpy adds in, the docs' command is the recipe, and it (slow) or
``python -m sim.study.train.shipped --check`` reproduces the shipped file."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from sim.study.train.features import Positions
from sim.study.train.fit import fit_model
from strategies.models.recipes import GAMES, ITERATIONS, RECIPES, SEED, command
from strategies.value_model_file import FEATURE_NAMES, N_FEATURES, shipped_path

ROOT = Path(__file__).resolve().parents[1]
HOW_TO = ROOT / "docs" / "how-to" / "train-master.md"


def _positions(n: int = 30_000) -> Positions:
    rng = np.random.default_rng(3)
    x = np.zeros((n, N_FEATURES))
    gap = rng.integers(-40, 40, n).astype(float)
    x[:, FEATURE_NAMES.index("gap_best")] = gap
    win = (rng.random(n) < 1 / (1 + np.exp(-0.08 * gap))).astype(float)
    return Positions(x, rng.integers(1, 10, n), gap, win, np.arange(n))


def test_a_fit_writes_the_same_file_whatever_the_order_of_its_positions():
    # the same positions in another order: numpy's sums round their last bits differently (as
    # another build of numpy would); the fitted numbers, kept to SIGNIFICANT digits, do not
    d = _positions()
    p = np.random.default_rng(5).permutation(len(d.round))
    shuffled = Positions(d.x[p], d.round[p], d.margin[p], d.win[p], d.game[p])
    one, other = fit_model(d, "base", 4), fit_model(shuffled, "base", 4)
    assert one.as_json() == other.as_json()
    assert one.b.min() > 0.05  # a real fit, not a constant (the slope drawn is 0.08)


def _docs_command() -> list[str]:
    """The ``quacks train`` command of the how-to's section 3 (retraining a shipped model)."""
    text = HOW_TO.read_text()
    section = text[text.index("## 3. Retrain the shipped models"):text.index("## 4.")]
    lines = re.findall(r"^\$ (quacks train .*)$", section, flags=re.M)
    assert len(lines) == 1, lines
    return shlex.split(lines[0])[1:]


def test_the_docs_retrain_command_is_the_recipe():
    args = _docs_command()
    out = args[args.index("--out") + 1]
    rules, players = re.fullmatch(r"(.+)-(\d)p\.json", out).groups()
    assert args == command(rules, int(players), out)
    assert shipped_path(rules, int(players)).exists()
    text = HOW_TO.read_text()
    assert f"--games {GAMES} --iterations {ITERATIONS} --seed {SEED}" in text.replace("\n", " ")
    assert "python -m sim.study.train.shipped --check" in text
    readme = (ROOT / "README.md").read_text().replace("\n", " ")
    assert "`python -m sim.study.train.shipped` trains the shipped models again" in readme


def test_check_names_an_unknown_model_in_one_line(capsys):
    from sim.study.train.shipped import main

    with pytest.raises(SystemExit) as e:
        main(["--check", "base-9p"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "no shipped model base-9p" in err[-1] and "base-4p" in err[-1]


def test_check_says_when_a_model_differs(monkeypatch, capsys):
    # --check compares bytes and writes nothing: a model trained one digit off is reported
    import sim.study.train.shipped as shipped

    path = shipped_path("base", 2)
    before = path.read_bytes()
    monkeypatch.setattr(shipped, "retrain", lambda r, n: before.decode().replace("0", "1", 1))
    assert shipped.main(["--check", "base-2p"]) == 1
    assert "base-2p.json: differs" in capsys.readouterr().out
    monkeypatch.setattr(shipped, "retrain", lambda r, n: before.decode())
    assert shipped.main(["--check", "base-2p"]) == 0
    assert path.read_bytes() == before


@pytest.mark.slow
def test_the_docs_retrain_command_writes_the_shipped_file(tmp_path):
    from sim.cli.app import app
    from tests.cli_helpers import invokers

    _, ok = invokers(app)
    args = _docs_command()
    name = args[args.index("--out") + 1]
    args[args.index("--out") + 1] = str(tmp_path / name)
    ok(*args, "--quiet")
    rules, players = re.fullmatch(r"(.+)-(\d)p\.json", name).groups()
    assert (tmp_path / name).read_bytes() == shipped_path(rules, int(players)).read_bytes()
    assert (rules, int(players)) in RECIPES
