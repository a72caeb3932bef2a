"""``quacks luck`` (sim.luck): every source of a game's randomness has its own streams, a game can
share one source with another and redraw the rest, and the shares of the variance add up.

The kernel side: a game whose streams all start from its own index is the ordinary game; a
source the rules do not use (no deck, a one-faced die, no witches, strategies without random
choices) changes nothing when it is redrawn. The study side: every share in [0, 1], first-order
at most total (within noise), a constant source's share 0 with an interval holding 0, and the
command's report folder and one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.api.game import play_batch
from sim.cli.main import app
from sim.kernel import rng
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

LINEUP = [parse_strategy(s) for s in ("expert", "greedy", "balanced")]
ONE_FACE = 'die.faces=["vp1"]'


def play(rs, games2d, rotations=None):
    m = len(games2d)
    rot = np.zeros(m, dtype=np.int64) if rotations is None else rotations
    return play_batch(rs, LINEUP, games=np.asarray(games2d, dtype=np.int64), rotations=rot,
                      seed=5, detail=True).out


def test_every_stream_from_the_games_own_index_is_the_ordinary_game():
    rs = load_ruleset("herb-witches")
    games = np.arange(40, dtype=np.int64)
    rot = games % 3
    a = play_batch(rs, LINEUP, games=games, rotations=rot, seed=5, detail=True)
    b = play_batch(rs, LINEUP, games=np.repeat(games[:, None], rng.N_STREAMS, axis=1),
                   rotations=rot, seed=5, detail=True)
    np.testing.assert_array_equal(a.out, b.out)
    np.testing.assert_array_equal(a.rounds, b.rounds)


@pytest.mark.parametrize("rules, overrides, streams", [
    ("base", ("cards.deck=false",), (rng.DECK_STREAM,)),
    ("base", (ONE_FACE,), tuple(rng.DIE_STREAM + s for s in range(3))),
    ("base", (), (rng.WITCH_STREAM,)),
    ("base", (), tuple(rng.CHOICE_STREAM + s for s in range(3))),  # no random strategy seated
], ids=["no-deck", "one-faced-die", "no-witches", "no-random-choices"])
def test_a_source_the_game_does_not_use_changes_nothing_when_redrawn(rules, overrides, streams):
    rs = load_ruleset(rules, list(overrides))
    g = np.repeat(np.arange(30, dtype=np.int64)[:, None], rng.N_STREAMS, axis=1)
    h = g.copy()
    h[:, list(streams)] += 1000
    np.testing.assert_array_equal(play(rs, g), play(rs, h))


@pytest.mark.parametrize("streams", [(rng.BAG_STREAM + 1,), (rng.DECK_STREAM,),
                                     tuple(rng.DIE_STREAM + s for s in range(3)),
                                     (rng.WITCH_STREAM,)],
                         ids=["bag-1", "deck", "die", "witches"])
def test_a_source_in_use_changes_games_when_redrawn(streams):
    rs = load_ruleset("herb-witches")
    g = np.repeat(np.arange(60, dtype=np.int64)[:, None], rng.N_STREAMS, axis=1)
    h = g.copy()
    h[:, list(streams)] += 1000
    a, b = play(rs, g), play(rs, h)
    assert (a != b).any(axis=(1, 2)).mean() > 0.3


def test_the_witches_follow_their_own_stream_only():
    """Two games that share only the witches' stream play with the same three witches."""
    from sim.kernel.records import O_WITCHES

    rs = load_ruleset("herb-witches")
    g = np.repeat(np.arange(20, dtype=np.int64)[:, None], rng.N_STREAMS, axis=1)
    h = g + 500
    h[:, rng.WITCH_STREAM] = g[:, rng.WITCH_STREAM]
    a, b = play(rs, g), play(rs, h)
    in_play = ~((1 << 16) - 1)  # bit 16 + w: witch w in play
    np.testing.assert_array_equal(a[:, :, O_WITCHES] & in_play, b[:, :, O_WITCHES] & in_play)
    assert not np.array_equal(a, b)


# --- the study --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small():
    """A small run: 2 players, base without the deck and with a one-faced die."""
    import sim

    return sim.luck(players=2, strategies="expert,random", games=6_000, seed=3,
                    set=["cards.deck=false", ONE_FACE]).result


def test_shares_add_up(small):
    sh = small.tables["shares"]
    for c in ("first", "first_lo", "first_hi", "total", "total_lo", "total_hi"):
        assert sh[c].between(0.0, 1.0).all(), c
    assert (sh["first_lo"] <= sh["first"]).all() and (sh["first"] <= sh["first_hi"]).all()
    assert sh["consistent"].all()
    summ = small.tables["summary"]
    assert (summ["skill"] + summ["luck"]).round(9).eq(1.0).all()


def test_a_constant_source_gets_share_zero(small):
    sh = small.tables["shares"]
    for name in ("deck", "die", "witches"):
        rows = sh[sh["input"] == name]
        assert (rows["first"] == 0).all() and (rows["total"] == 0).all(), name
        assert (rows["first_lo"] <= 0).all() and (rows["total_lo"] <= 0).all(), name
    live = sh[(sh["input"] == "bag 0") & (sh["outcome"] == "vp")]
    assert (live["total_lo"] > 0).all()


def test_the_strong_strategy_needs_few_games_to_win_a_match(small):
    m = small.tables["matches"].iloc[0]
    assert m["stronger"] == "expert" and m["weaker"] == "random"
    assert m["p"] > 0.9 and m["best_of"] <= 3


def test_the_seating_explains_much_of_a_lopsided_lineup(small):
    summ = small.tables["summary"].set_index("outcome")
    assert summ.loc["win", "skill_lo"] > 0.3


runner = CliRunner()


def test_the_command_writes_its_report_and_compares_variants(tmp_path):
    out = tmp_path / "luck"
    r = runner.invoke(app, ["luck", "--players", "2", "--strategies", "expert,greedy",
                            "--games", "1800", "--seed", "2", "--variant", "hw=herb-witches",
                            "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in out.iterdir())
    for name in ("summary.parquet", "summary.csv", "shares.parquet", "shares.csv",
                 "matches.csv", "differences.csv", "shares.png", "report.md", "report.html",
                 "run.json"):
        assert name in files, name
    assert "hw adds" in r.output and "points of luck to base" in r.output
    run = json.loads((out / "run.json").read_text())
    assert run["kind"] == "luck" and [v["label"] for v in run["settings"]["variants"]] == [
        "base", "hw"]


def test_repeated_rules_play_the_variants_side_by_side():
    """``--rules base --rules herb-witches`` (as quacks exploit and styles take them) is
    ``--variant herb-witches=herb-witches``: the same games, tables and answer line; the
    command line that reproduces the run names both rulesets."""
    import sim

    kw = dict(players=2, strategies="expert,greedy", games=900, seed=6)
    a = sim.luck(rules=["base", "herb-witches"], **kw).result
    b = sim.luck(variant="herb-witches=herb-witches", **kw).result
    assert [v.label for v in a.settings.variants] == ["base", "herb-witches"]
    for name in ("summary", "shares", "matches", "differences"):
        assert a.tables[name].equals(b.tables[name]), name
    assert "quacks luck --rules base --rules herb-witches --players 2" in a.settings.command()


@pytest.mark.parametrize("args, words", [
    (["--variant", "nolabel"], "--variant 'nolabel'"),
    (["--variant", "a=base;herb-witches"], "--variant"),
    (["--variant", "base=herb-witches"], "repeat"),
    (["--rules", "base", "--rules", "base"], "--rules: the labels base, base repeat"),
    (["--games", "50"], "--games 50"),
    (["--players", "1"], "--players"),
    (["--rules-file", "/nonexistent/h_card.py"], "--rules-file /nonexistent/h_card.py"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    r = runner.invoke(app, ["luck", "--quiet", *args])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and words in lines[0], r.output


def test_a_rules_file_puts_its_card_in_the_luck_runs_deck():
    """``--rules-file``: the luck run's rulesets are loaded with the file's card (``--set
    cards.extra`` names it; without the file that is an unknown card). In a fresh process (a
    card loaded here would stay in the test process), stopped by a --games too small for the
    design, which is checked once the rulesets are loaded and before any kernel compiles."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    card = root / "experiments" / "rules" / "lucky_clover.py"
    args = ["--set", 'cards.extra=["lucky-clover"]', "--games", "50", "--quiet"]

    def luck(*more: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sim.cli.main", "luck", *more, *args],
                              capture_output=True, text=True, cwd=root, timeout=600)

    without, loaded = luck(), luck("--rules-file", str(card))
    assert without.returncode == 2 and "got ['lucky-clover']" in without.stderr, without.stderr
    assert loaded.returncode == 2, loaded.stderr
    assert loaded.stderr.strip() == "error: --games 50: expected at least 110 (ten rows of the " \
        "design, 11 games each)", loaded.stderr


def test_the_api_keywords_are_the_cli_options_with_the_same_defaults():
    import inspect

    import typer

    import sim

    cmd = typer.main.get_command(app).commands["luck"]
    cli = {}
    for p in cmd.params:
        longest = max((o for o in p.opts if o.startswith("--")), key=len, default=None)
        cli[longest[2:].replace("-", "_") if longest else p.name.rstrip("_")] = p.default
    for k in ("json", "quiet"):
        cli.pop(k, None)
    api = {k: p.default for k, p in inspect.signature(sim.luck).parameters.items()}
    assert not set(cli) - set(api)
    for k, default in cli.items():
        assert api[k] == getattr(default, "value", default) or api[k] == default, k


@pytest.mark.slow
def test_dask_gives_the_local_answer(monkeypatch):
    """Two variants on a local cluster of two worker processes, the design cut into several
    pieces: every table equal to the local run's, to the last digit."""
    pytest.importorskip("distributed")
    import pandas as pd

    import sim.study.luck.run as luck_run
    from sim.study.luck.design import LuckSettings, Variant, pieces
    from sim.study.tournament.backend import make_backend

    monkeypatch.setattr(luck_run, "pieces", lambda design: pieces(design, piece_games=330))
    settings = LuckSettings(variants=(Variant("base", "base"), Variant("hw", "herb-witches")),
                            players=2, strategies=("expert", "greedy"), games=1_100, seed=4)
    plan = luck_run.plan_luck(settings)
    local = luck_run.run_luck(plan)
    with make_backend("dask", workers=2, threads=1) as be:
        far = luck_run.run_luck(plan, backend=be)
    assert set(far.tables) == {"summary", "shares", "matches", "differences"}
    for name, df in local.tables.items():
        pd.testing.assert_frame_equal(df, far.tables[name], check_exact=True, obj=name)
