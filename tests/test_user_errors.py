"""Issue 22, items 1-4 and 7: what a new user tripped on. Each case is one line ``error: ...``
with exit status 2 and nothing left on disk (tracebacks, leftovers, the integer rule, input that
was accepted silently), and the quiet defaults (no needless notes, "1 part", fixed decimals)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.study.experiments import run as E
from sim.study.experiments.parts import PartReport

invoke, ok = invokers(app)

SEATS = """
[experiment]
title = "t"
games = 40

[[part]]
kind = "seats"
name = "mirror"
strategy = "balanced"
player_counts = [2]
"""

TWO_PARTS = SEATS + """
[[part]]
kind = "seats"
name = "second"
strategy = "greedy"
player_counts = [2]
"""


def _file(tmp_path: Path, text: str, name: str = "x.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def _nothing_but(tmp_path: Path, *names: str) -> None:
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(names), left


# ---------------------------------------------------------------------------------------------
# 1. tracebacks


@pytest.mark.parametrize("args", [
    ["potion", "--bag", "w1x99999999999"],
    ["potion", "--bag", "w1x65"],
    ["potion", "--bag", "w" + "9" * 5000],
    ["potion", "--draws", "w1x99999999999"],
    ["thresholds", "--bag", "start,r2x99999999999"],
    ["play", "--strategies", "balanced:buy=r4x99999999999", "--games", "1"],
    ["tournament", "--strategies", "greedy:buy=b2x99999999999,balanced", "--games", "4"],
])
def test_a_huge_chip_count_is_refused_before_it_is_expanded(args):
    line = assert_user_error(invoke(*args))
    assert "at most" in line or "no chip" in line


def test_a_huge_chip_count_in_a_round_file(tmp_path):
    src = Path(__file__).parent / "rounds" / "r01-2p-round1-basics.toml"
    f = _file(tmp_path, src.read_text().replace('bag = "start"', 'bag = "w1x99999999999"', 1))
    assert assert_user_error(invoke("round", f)).endswith("chips; at most 62")


def test_experiment_player_counts_outside_the_ruleset(tmp_path):
    f = _file(tmp_path, SEATS.replace("player_counts = [2]", "player_counts = [2, 9]"))
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"),
                      "x.toml: part 'mirror' (seats): player_counts = [2, 9]", "2 to 4")
    _nothing_but(tmp_path, "x.toml")


@pytest.mark.parametrize("where", ["/proc/x", "/sys/x", "FILE/x"])
def test_experiment_out_that_cannot_be_written(tmp_path, where):
    f = _file(tmp_path, SEATS)
    out = str(f / "x") if where == "FILE/x" else where
    assert_user_error(invoke("experiment", "run", f, "--out", out), f"--out {out}")
    _nothing_but(tmp_path, "x.toml")


def test_tune_out_is_checked_before_any_work():
    assert_user_error(invoke("tune", "threshold", "--param", "t=4:8", "--vs", "threshold",
                             "--budget", "400", "--out", "/sys/x"), "--out /sys/x: cannot write")


def test_tune_budget_has_a_range():
    line = assert_user_error(invoke("tune", "threshold", "--param", "t=4:8", "--vs", "threshold",
                                    "--budget", "100000000000"))
    assert line.startswith("error: --budget 100000000000: expected 1 to 1000000000"), line


# ---------------------------------------------------------------------------------------------
# 2. leftovers and --resume (the parts are stand-ins here: no games are played)


def _fake_runner(calls: list, stop_at: str | None = None):
    def run(part, ctx, folder):
        calls.append(part["name"])
        if part["name"] == stop_at:
            (folder / "half.png").write_bytes(b"x")
            raise KeyboardInterrupt
        return PartReport(part["name"], part["kind"], part["title"],
                          {"seats": pd.DataFrame({"seat": [1, 2], "win_share": [0.5, 0.5]})},
                          [], f"{part['name']} done", 40)
    return run


@pytest.fixture
def fake_parts(monkeypatch):
    """Every part kind runs the stand-in; ``state['stop']`` names a part that is Ctrl-C'd."""
    calls, state = [], {"stop": None}

    def runners():
        return {k: (lambda p, c, f: _fake_runner(calls, state["stop"])(p, c, f))
                for k in ("thresholds", "sweep", "tournament", "compare", "ingredient",
                          "catchup", "seats")}

    monkeypatch.setattr(E, "_runners", runners)
    return calls, state


@pytest.mark.parametrize("edit", [
    lambda s: s.replace('strategy = "balanced"', 'strategy = "no-such-strategy"'),
    lambda s: s.replace("[[part]]", '[[part]]\nset = ["game.no_such_key=1"]', 1),
    lambda s: s.replace('kind = "seats"', 'kind = "tournament"', 1)
               .replace('strategy = "balanced"\nplayer_counts = [2]',
                        'strategies = ["balanced", "greedy"]\nformat = "swiss"', 1),
    lambda s: s.replace('kind = "seats"', 'kind = "thresholds"', 1)
               .replace('strategy = "balanced"\nplayer_counts = [2]',
                        'bags = [{ label = "a", bag = "w1x99" }]', 1),
    lambda s: s.replace('strategy = "greedy"', 'strategy = "greedy:t=5,t=6"'),
])
def test_every_part_is_checked_before_any_game(tmp_path, fake_parts, edit):
    calls, _ = fake_parts
    f = _file(tmp_path, edit(TWO_PARTS))
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"), "x.toml")
    assert calls == []  # nothing ran
    _nothing_but(tmp_path, "x.toml")


def test_an_error_during_a_part_leaves_nothing(tmp_path, monkeypatch):
    from sim.study.tournament.plan import TournamentError

    def boom(part, ctx, folder):
        (folder / "half.parquet").write_bytes(b"x")
        raise TournamentError("something went wrong")

    monkeypatch.setattr(E, "_runners", lambda: {"seats": boom})
    f = _file(tmp_path, SEATS)
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"), "went wrong")
    _nothing_but(tmp_path, "x.toml")


def test_ctrl_c_before_a_part_is_done_leaves_nothing(tmp_path, fake_parts):
    _, state = fake_parts
    state["stop"] = "mirror"
    f = _file(tmp_path, TWO_PARTS)
    r = invoke("experiment", "run", f, "--out", tmp_path / "o")
    assert r.exit_code == 130 and r.stderr == "interrupted: no report written\n"
    _nothing_but(tmp_path, "x.toml")


def test_ctrl_c_keeps_the_finished_parts_and_resume_continues(tmp_path, fake_parts):
    calls, state = fake_parts
    state["stop"] = "second"
    f = _file(tmp_path, TWO_PARTS)
    out = tmp_path / "o"
    r = invoke("experiment", "run", f, "--out", out)
    assert r.exit_code == 130, r.output
    assert r.stderr == (f"interrupted: 1 part of 2 kept in {out}; continue with: quacks "
                        f"experiment run {f} --out {out} --resume\n")
    _nothing_but(tmp_path, "x.toml", "o")  # no hidden staging folder
    assert (out / "mirror" / "seats.parquet").is_file() and not (out / "second").exists()
    # other settings are refused, and change nothing
    assert_user_error(invoke("experiment", "run", f, "--out", out, "--games", "8", "--resume"),
                      "--games differs")
    assert (out / E.STATE_FILE).is_file()
    state["stop"] = None
    calls.clear()
    r = ok("experiment", "run", f, "--out", out, "--resume")
    assert calls == ["second"]  # the kept part is not played again
    assert "2 parts, 80 games" in r.stdout
    report = (out / "report.md").read_text()
    assert "mirror done" in report and "second done" in report
    assert not (out / E.STATE_FILE).exists()
    assert json.loads((out / "experiment.json").read_text())["games"] == {"mirror": 40,
                                                                          "second": 40}
    _nothing_but(tmp_path, "x.toml", "o")
    assert_user_error(invoke("experiment", "run", f, "--out", out, "--resume"),
                      "nothing to resume", "complete")


def test_resume_needs_an_interrupted_run(tmp_path):
    f = _file(tmp_path, SEATS)
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o", "--resume"),
                      f"nothing to resume in {tmp_path / 'o'}")
    _nothing_but(tmp_path, "x.toml")


def test_one_part_is_one_part(tmp_path, fake_parts):
    f = _file(tmp_path, SEATS)
    r = ok("experiment", "run", f, "--out", tmp_path / "o")
    assert ": 1 part, 40 games in " in r.stdout


# ---------------------------------------------------------------------------------------------
# 3. the integer rule in the experiment commands and files


def test_experiment_games_follows_the_rule(tmp_path):
    f = _file(tmp_path, SEATS)
    line = assert_user_error(invoke("experiment", "run", f, "--games", "10000000000"))
    assert line.startswith("error: --games 10000000000: expected 1 to 1000000000"), line
    _nothing_but(tmp_path, "x.toml")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda s: s.replace("games = 40", "games = 10000000000"),
     "x.toml: [experiment]: games = 10000000000: expected 1 to 1000000000"),
    (lambda s: s.replace("games = 40", "games = 40\nseed = -1"),
     "x.toml: [experiment]: seed = -1: expected 0 to 9223372036854775807"),
    (lambda s: s.replace("player_counts = [2]", "player_counts = [2]\ngames = 0"),
     "x.toml: part 'mirror' (seats): games = 0: expected 1 to 1000000000"),
    (lambda s: s.replace("games = 40", "games = 40\nplayers = 99"),
     "x.toml: [experiment]: players = 99: expected 1 to 5"),
])
def test_experiment_file_integers_name_the_file_and_key(tmp_path, edit, message):
    f = _file(tmp_path, edit(SEATS))
    line = assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"))
    assert message in line and "--games" not in line and "--seed" not in line, line
    _nothing_but(tmp_path, "x.toml")


# ---------------------------------------------------------------------------------------------
# 4. accepted silently before


@pytest.mark.parametrize(("args", "needle"), [
    (["play", "--strategies", "threshold:t=5/6/7,balanced"], "exactly 9 (one per round"),
    (["play", "--strategies", "threshold:t=5,t=6,balanced"], "parameter 't' is given twice"),
    (["tournament", "--strategies", "threshold:t=5/6,balanced", "--games", "8"], "exactly 9"),
    (["compare", "--variant", "a=game.rats_from_round=21", "--variant", "a=game.rats_from_round=3",
      "--games", "8"], "the label 'a' is used twice"),
    (["compare", "--variant", "norats=game.rats_from_round=21", "--leader-round", "15",
      "--games", "8"],
     "--leader-round 15: no ruleset here plays a round after it (the leader after the last "
     "round is the winner by definition); expected 1 to 8"),
    (["tournament", "--strategies", "threshold,random", "--players", "3", "--games", "6"],
     "2 strategies for 3 seats; give one per seat, or one for all"),
    (["tune", "threshold:t=5/6", "--param", "flask=1:3", "--vs", "balanced", "--budget", "400"],
     "exactly 9"),
])
def test_refused_with_one_line(args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_user_error(invoke(*args), needle)
    _nothing_but(tmp_path)


def test_catchup_rounds_outside_the_game(tmp_path):
    f = _file(tmp_path, SEATS.replace('kind = "seats"', 'kind = "catchup"').replace(
        'strategy = "balanced"\nplayer_counts = [2]',
        'strategies = ["balanced", "greedy"]\nafter_rounds = [0, 12]\nplayers = 2'))
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"),
                      "after_rounds = [0, 12]: round 0 is not a round", "1 to 9")
    _nothing_but(tmp_path, "x.toml")


def test_experiment_variant_labels_are_unique(tmp_path):
    f = _file(tmp_path, SEATS.replace('kind = "seats"', 'kind = "compare"').replace(
        'strategy = "balanced"\nplayer_counts = [2]',
        'strategies = ["balanced", "greedy"]\nplayers = 2\n'
        'variants = [{ label = "a" }, { label = "a", set = ["game.rats_from_round=21"] }]'))
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"),
                      "the label 'a' is used twice")


def test_plot_refuses_a_corrupt_games_table(tmp_path):
    d = tmp_path / "rep"
    d.mkdir()
    (d / "summary.csv").write_text("strategy,games\nbalanced,4\n")
    (d / "games.parquet").write_bytes(b"this is not parquet at all")
    assert_user_error(invoke("plot", d), f"{d / 'games.parquet'}: not a readable parquet file")
    (d / "games.parquet").unlink()
    (d / "summary.csv").write_bytes(b"\xff\xfe\x00garbage\x00\n\x00")
    assert_user_error(invoke("plot", d), "summary.csv")


# ---------------------------------------------------------------------------------------------
# 7. Ctrl-C in tune: the games go in short compiled calls


def test_tune_plays_in_short_pieces_with_the_same_shares(monkeypatch):
    from sim.study.tune import run as T

    seen = []

    class Slow(T.LocalBackend):
        def deal_shares(self, ruleset, specs, seed, deals, chunks=64):
            seen.append(len(deals))
            return np.asarray(deals, dtype=float) / 1000

    ev = T.Evaluator(None, ["balanced"], 2, 1, backend=Slow())
    deals = np.arange(5000, dtype=np.int64)
    share = ev.deal_shares("threshold", deals)
    assert np.array_equal(share, deals / 1000)
    assert seen[0] == T.FIRST_PIECE and len(seen) > 1 and sum(seen) == 5000
    assert ev.games_played == 10_000


# ---------------------------------------------------------------------------------------------
# 7. quiet defaults: no rounds note unless rounds were asked for, fixed decimals, plot's sources


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    """A real small tournament report (games detail, the default), and what it said."""
    out = tmp_path_factory.mktemp("small") / "rep"
    r = ok("tournament", "--strategies", "threshold,random", "--games", 200, "--out", out)
    return out, r


def _copy(small_report, tmp_path) -> Path:
    import shutil

    return Path(shutil.copytree(small_report[0], tmp_path / "rep"))


def test_no_rounds_note_unless_rounds_were_asked_for(small_report, tmp_path):
    assert "rounds.png" not in small_report[1].stderr and small_report[1].stderr == "", \
        small_report[1].stderr
    out = _copy(small_report, tmp_path)
    assert ok("plot", out).stderr == ""
    # rounds asked for (--detail rounds) but absent from the report: that is worth the note
    run = json.loads((out / "run.json").read_text())
    assert run["detail"] == "games" and not (out / "rounds_summary.csv").exists()
    run["detail"] = "rounds"
    (out / "run.json").write_text(json.dumps(run))
    assert ok("plot", out).stderr.strip() == (
        "note: rounds.png and bag_by_round.png skipped: the report has no rounds table")


def _drawn_from(r) -> list[str]:
    line = " ".join(r.stdout.split())  # (a long line may be wrapped)
    m = re.fullmatch(r"(.*)/: (.*) \(drawn from (.*)\)", line)
    assert m, line
    return m[1], m[2].split(", "), m[3].split(", ")


def test_plot_says_which_files_it_drew_from(small_report, tmp_path):
    from sim.study.reports.files import TABLE_FILES

    out = _copy(small_report, tmp_path)
    tables = [n for n in TABLE_FILES.values() if (out / n).is_file()]
    assert {"summary.csv", "pairs.csv", "seats.csv", "vp_hist.csv"} <= set(tables)
    where, plots, used = _drawn_from(ok("plot", out))
    assert where == str(out) and "win_share.png" in plots and "seats.png" in plots
    assert used == [*tables, "run.json"]
    (out / "seats.csv").unlink()  # a table that is not there is not named (nor its plot drawn)
    _, plots, used = _drawn_from(ok("plot", out))
    assert used == [t for t in tables if t != "seats.csv"] + ["run.json"]
    assert "seats.png" not in plots


def _play_rows(*args):
    """The table rows of ``quacks play``: one list of cells per strategy."""
    r = ok("play", *args)
    return [[c.strip() for c in line.strip().strip("│").split("│")]
            for line in r.stdout.splitlines() if line.startswith("│")]


FIXED = {4: r"\d\.\d{4}", 2: r"\d+\.\d{2}", 3: r"\d\.\d{3}"}


def _value_ci(digits: int) -> str:
    x = FIXED[digits]
    return rf"{x} \[{x}, {x}\]"


@pytest.mark.parametrize("args, witches", [
    # a sure winner and a sure loser: shares 1 and 0, which a %g format prints as "1" and "0"
    (["--strategies", "threshold,random", "--games", 300], False),
    (["--rules", "herb-witches", "--strategies", "expert,random", "--games", 200], True),
])
def test_play_tables_print_fixed_decimals(args, witches):
    rows = _play_rows(*args)
    assert len(rows) == 2
    shares = []
    for row in rows:
        assert len(row) == (8 if witches else 7), row
        _, _, games, share, vp, rank, expl, *wit = row
        assert re.fullmatch(r"[\d,]+", games)
        assert re.fullmatch(_value_ci(4), share), share
        assert re.fullmatch(_value_ci(2), vp), vp
        assert re.fullmatch(FIXED[3], rank), rank
        assert re.fullmatch(_value_ci(4), expl), expl
        if witches:
            assert re.fullmatch(_value_ci(2), wit[0]), wit
        shares.append(share)
    if not witches:  # the case the fixed decimals are for
        assert shares[0].startswith("1.0000 [") and shares[0].endswith(", 1.0000]"), shares
        assert shares[1].startswith("0.0000 [0.0000, "), shares


# ---------------------------------------------------------------------------------------------
# quacks round: the file is checked before the compile notice


ROUND_FILE = Path(__file__).parent / "rounds" / "r01-2p-round1-basics.toml"


@pytest.fixture
def uncached(monkeypatch):
    """As on a machine whose Numba cache is empty: the compile notice is due (once)."""
    import sim.cli.common
    import sim.numba_cache

    monkeypatch.setattr(sim.numba_cache, "is_cached", lambda entry: False)
    monkeypatch.setattr(sim.cli.common, "_NOTICE_SHOWN", False)


@pytest.mark.parametrize("edit, needle", [
    (lambda t: t.replace('bag = "start"', 'bag = "w1x99999999999"', 1), "at most 62"),
    (lambda t: t.replace("players = 2", "players = 9"), "players"),
    (lambda t: t + "\nbogus = 1\n", "unknown key 'bogus'"),
    (lambda t: t.replace('draws = "o1,w1,g1,w2"', 'draws = "o1,zz"'), "zz"),
    (lambda t: "players = [", "not valid TOML"),
    (None, "no such file"),
])
def test_a_bad_round_file_is_one_line_even_before_the_kernels_are_compiled(tmp_path, uncached,
                                                                          edit, needle):
    f = tmp_path / "missing.toml" if edit is None else _file(tmp_path, edit(ROUND_FILE.read_text()))
    line = assert_user_error(invoke("round", f), needle)
    assert "compiling" not in line


def test_a_good_round_file_still_gets_the_notice_when_a_kernel_must_compile(uncached):
    from sim.cli.compiling import notice_lines

    r = ok("round", ROUND_FILE)
    assert r.stderr.splitlines() == notice_lines(["sim/kernel/round.play_rounds"])
    assert "player 0" in r.stdout


# ---------------------------------------------------------------------------------------------
# quacks potion --draws: a list the bag cannot supply is refused before the compile notice


@pytest.mark.parametrize("args, needle", [
    (["--draws", "w1x70"], "fewer w1"),  # the start bag has 4 white 1s and nothing puts one back
    (["--draws", "w1x5"], "fewer w1"),
    (["--bag", "w1,o1", "--draws", "o1,o1"], "fewer o1"),
])
def test_a_draw_list_the_bag_cannot_supply_is_one_line_before_compiling(uncached, args, needle):
    line = assert_user_error(invoke("potion", "--n", 10, *args), needle)
    assert "compiling" not in line


@pytest.mark.parametrize("args", [
    ["--draws", "w1x5", "--flask", "1"],  # the flask can put a w1 back
    ["--bag", "w1,b1,o1", "--draws", "b1,w1,o1,w1"],  # a blue chip's look puts the w1 back
])
def test_a_draw_list_a_chip_may_come_back_for_is_left_to_the_kernel(args):
    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api
    from sim.rules.ruleset import load_ruleset

    rs = load_ruleset("base")
    bag = args[args.index("--bag") + 1] if "--bag" in args else "start"
    flask = int(args[args.index("--flask") + 1]) if "--flask" in args else None
    q = pot.make_query(bag, "never", flask, 0, rs)
    draws = draws_api.check_draws(q, args[args.index("--draws") + 1])  # not refused here
    assert draws_api.surely_short(q, draws) == [] and len(draws) == 4 + (args[1] == "w1x5")
