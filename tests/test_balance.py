"""``quacks balance``: the game's figures against a hand-made games and rounds table whose answers
are worked out by hand (seat advantage, catch-up, lead changes, the lock round, ties, spread,
explosions), skill from hand-made rows, the target bands (pass / fail / undecided, the straddle,
the error lines), the settings, the CLI (the JSON keys, the report folder, bad input: one line
and exit 2) and results that do not depend on chunks, threads or the backend."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.study.balance import game as G
from sim.study.balance import run as R
from sim.study.balance.settings import BalanceSettings
from sim.study.balance.skill import focus_totals, skill_table
from sim.study.balance.targets import (
    FAIL,
    NOT_MEASURED,
    PASS,
    UNDECIDED,
    TargetsError,
    check_targets,
    load_targets,
    verdict,
)

invoke, ok = invokers(app)

# --- a hand-made table: 2 players, 3 rounds, 2 deals of 2 games -----------------------------
#
# game deal | final VP (seat 0, 1) | win share | score after rounds 1, 2, 3 (seat 0, 1)
#    0   0  | 30 20                | 1   0     | (5, 10)  (15, 12)  (30, 20)
#    1   0  | 25 25                | .5 .5     | (3, 3)   (10, 12)  (25, 25)   a tie, shared
#    2   1  | 10 40                | 0   1     | (10, 0)  (10, 20)  (10, 40)
#    3   1  | 33 30                | 1   0     | (1, 2)   (20, 10)  (33, 30)
# seat 1 explodes in round 1 of every game; explosions (games table): 1 0 / 0 2 / 0 0 / 3 0.
SCORES = {0: [(5, 10), (15, 12), (30, 20)], 1: [(3, 3), (10, 12), (25, 25)],
          2: [(10, 0), (10, 20), (10, 40)], 3: [(1, 2), (20, 10), (33, 30)]}


def hand_games() -> pd.DataFrame:
    return pd.DataFrame({
        "game": [0, 0, 1, 1, 2, 2, 3, 3], "deal": [0, 0, 0, 0, 1, 1, 1, 1],
        "seat": [0, 1] * 4, "strategy": [0] * 8,
        "vp": [30, 20, 25, 25, 10, 40, 33, 30],
        "win_share": [1, 0, 0.5, 0.5, 0, 1, 1, 0],
        "explosions": [1, 0, 0, 2, 0, 0, 3, 0]})


def hand_rounds() -> pd.DataFrame:
    rows = []
    for g, per in SCORES.items():
        for k, (a, b) in enumerate(per, 1):
            rows += [{"game": g, "round": k, "seat": 0, "score": a, "exploded": 0},
                     {"game": g, "round": k, "seat": 1, "score": b, "exploded": int(k == 1)}]
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def hand():
    t = G.game_figures(hand_games(), hand_rounds(), players=2, rounds_per_game=3)
    return t.set_index("metric")


# Worked out by hand from the table above.
EXPECTED = {
    # seat 0 wins games 0 and 3 and half of game 1: 2.5 of 4
    "seat0_win_share": 0.625, "seat1_win_share": 0.375, "seat0_excess": 0.125,
    # the last player after round 1: seat 0 (wins), both (0.5), seat 1 (wins), seat 0 (wins)
    "last_after_round_1_wins": 3.5 / 4,
    # after round 2: seat 1 (0), seat 0 (0.5), seat 0 (0), seat 1 (0)
    "last_after_round_2_wins": 0.5 / 4,
    "leader_after_round_1_wins": 0.5 / 4, "leader_after_round_2_wins": 3.5 / 4,
    # (after round 3, the last: decided by definition, left out; see test_decided_figures...)
    # games 0, 2 and 3 change leader from round 1 to 2 (game 1: a tied lead kept by seat 1)
    "lead_changes": 3 / 4,
    # the winner leads from round 2 on in games 0, 2, 3; game 1: seat 0 from round 3, seat 1
    # from round 1, half each: 2 on average
    "lock_round": 2.0, "lock_round_1": 0.5 / 4, "lock_round_2": 3 / 4, "lock_round_3": 0.5 / 4,
    "tie_rate": 0.25, "shared_win_rate": 0.25,
    "winner_vp_mean": 32.0, "winner_vp_sd": math.sqrt(118 / 3),  # 30, 25, 40, 33
    "margin_mean": 10.75, "margin_sd": 13.5,  # 10, 0, 30, 3
    "vp_mean": 213 / 8,
    "explosion_rate": 6 / 24, "explosion_rate_round_1": 0.5, "explosion_rate_round_2": 0.0,
}


@pytest.mark.parametrize("metric", sorted(EXPECTED))
def test_game_figures_by_hand(hand, metric):
    r = hand.loc[metric]
    assert r["value"] == pytest.approx(EXPECTED[metric], abs=1e-12)
    assert r["deals"] == 2
    assert r["ci_lo"] <= r["value"] <= r["ci_hi"]


def test_the_table_has_every_declared_metric_once(hand):
    assert list(hand.index) == G.metric_names(2, 3)
    assert hand.loc["seat1_win_share", "label"] == "seat 2 win share"  # people count from 1
    assert hand.loc["last_after_round_2_wins", "round"] == 2
    assert len(G.metric_names(4, 9)) == 4 + 1 + 8 + 8 + 2 + 9 + 2 + 6 + 1 + 9


@pytest.mark.parametrize("rounds", [9, 3, 6])
def test_decided_figures_are_left_out_for_the_rulesets_last_round(rounds):
    """The last round's catch-up figures are decided by definition (the score after it is the
    final VP): no metric, pattern or table row; the round before keeps its figures."""
    names = G.metric_names(4, rounds)
    gone = {f"last_after_round_{rounds}_wins", f"leader_after_round_{rounds}_wins"}
    assert set(G.decided(rounds)) == gone and not gone & set(names)
    assert {f"last_after_round_{rounds - 1}_wins",
            f"leader_after_round_{rounds - 1}_wins"} <= set(names)
    assert f"last_after_round_{{k}}_wins (k 1-{rounds - 1})" in G.name_patterns(4, rounds)


def test_decided_figures_are_not_in_the_hand_table(hand):
    assert "last_after_round_3_wins" not in hand.index
    assert "leader_after_round_3_wins" not in hand.index
    assert "explosion_rate_round_3" in hand.index  # the last round is measured otherwise


def test_decided_figures_are_not_in_a_modified_rulesets_run():
    s = BalanceSettings(games=40, players=2, parts=("game",), overrides=("game.rounds=6",),
                        field=("balanced", "greedy"))
    t = R.run_balance(s).tables["game"]
    assert "leader_after_round_5_wins" in set(t["metric"])
    assert not {"last_after_round_6_wins", "leader_after_round_6_wins"} & set(t["metric"])
    assert t["round"].max() == 6  # the last round's other figures stay


def test_a_band_on_a_decided_figure_is_one_line(tmp_path):
    p = _write(tmp_path, "last_after_round_9_wins = [0.0, 0.1]\n")
    with pytest.raises(TargetsError) as e:
        R.plan_balance(BalanceSettings(games=40, parts=("game",), targets=str(p)))
    assert "last_after_round_9_wins is decided by definition" in str(e.value)
    assert "\n" not in str(e.value)


def test_rates_stay_inside_0_1_and_n_counts_what_it_should(hand):
    shares = hand[[m["kind"] == "share" for m in G.metrics(2, 3)]]
    assert (shares["ci_lo"] >= 0).all() and (shares["ci_hi"] <= 1).all()
    assert hand.loc["explosion_rate", "n"] == 24  # 8 player-games x 3 potions
    assert hand.loc["vp_mean", "n"] == 8 and hand.loc["tie_rate", "n"] == 4


def test_the_deal_is_the_unit():
    """A deal whose two games are identical is one observation, not two: the interval is the
    same as with each deal's games averaged (it would shrink if games were the unit)."""
    g, r = hand_games(), hand_rounds()
    one = G.game_figures(g, r, players=2, rounds_per_game=3).set_index("metric")
    g2 = pd.concat([g, g.assign(game=g["game"] + 10)], ignore_index=True)
    r2 = pd.concat([r, r.assign(game=r["game"] + 10)], ignore_index=True)
    two = G.game_figures(g2, r2, players=2, rounds_per_game=3).set_index("metric")
    for m in ("lead_changes", "winner_vp_mean", "margin_mean"):
        assert two.loc[m, "value"] == pytest.approx(one.loc[m, "value"])
        assert two.loc[m, "ci_hi"] - two.loc[m, "ci_lo"] == pytest.approx(
            one.loc[m, "ci_hi"] - one.loc[m, "ci_lo"])
        assert two.loc[m, "n"] == 2 * one.loc[m, "n"]
    # a rate with few events gets the exact interval on its count, which does shrink with
    # the copies: still never wider than the one without them
    m = "seat0_win_share"
    assert one.loc[m, "ci_lo"] <= two.loc[m, "ci_lo"] <= two.loc[m, "ci_hi"] <= one.loc[m, "ci_hi"]


def test_row_order_and_chunks_change_nothing(hand):
    g, r = hand_games(), hand_rounds()
    shuffled = G.game_figures(g.sample(frac=1, random_state=3), r.sample(frac=1, random_state=4),
                              players=2, rounds_per_game=3).set_index("metric")
    pd.testing.assert_frame_equal(shuffled, hand)
    parts = [G.deal_totals(g[g["deal"] == d], r[r["game"].isin(g[g["deal"] == d]["game"])],
                           players=2, rounds_per_game=3) for d in (1, 0)]
    from sim.study.compare.stats import DealTotals

    chunked = G.game_table(DealTotals.concat(parts), 2, 3).set_index("metric")
    pd.testing.assert_frame_equal(chunked, hand)


# --- skill ---------------------------------------------------------------------------------

def test_skill_from_hand_made_rows():
    # 2 players, 2 deals x 2 seatings, the focus (strategy 0) in seat 0, then seat 1. Strong
    # lineup: the focus wins 2 of deal 0's games and 1 of deal 1's (per deal 1 and 0.5); weak
    # lineup: 1 and 0 (per deal 0.5 and 0). Gap 0.5 in both deals: no spread, [0.5, 0.5]
    strong = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2, 3, 3], "deal": [0, 0, 0, 0, 1, 1, 1, 1],
                           "strategy": [0, 1, 1, 0, 0, 1, 1, 0],
                           "win_share": [1, 0, 0, 1, 1, 0, 1, 0]})
    weak = strong.assign(win_share=[1, 0, 1, 0, 0, 1, 1, 0])
    t = skill_table(focus_totals(strong), focus_totals(weak), players=2, strong_spec="expert",
                    weak_specs=("balanced",)).set_index("metric")
    assert t.loc["skill_strong_win_share", "value"] == 0.75
    assert t.loc["skill_weak_win_share", "value"] == 0.25
    assert t.loc["skill_strong_excess", "value"] == 0.25
    assert t.loc["skill_gap", "value"] == 0.5
    assert (t.loc["skill_gap", "ci_lo"], t.loc["skill_gap", "ci_hi"]) == (0.5, 0.5)
    assert t.loc["skill_strong_win_share", "n"] == 4 and t.loc["skill_gap", "deals"] == 2
    assert t.loc["skill_weak_win_share", "label"] == "balanced win share against expert x1"


# --- targets -------------------------------------------------------------------------------

@pytest.mark.parametrize("ci, want", [
    ((0.24, 0.26), PASS), ((0.23, 0.27), PASS),  # inside, edges included
    ((0.20, 0.22), FAIL), ((0.28, 0.30), FAIL),  # wholly below, wholly above
    ((0.22, 0.24), UNDECIDED), ((0.26, 0.28), UNDECIDED),  # straddles the low, the high edge
    ((0.20, 0.30), UNDECIDED),  # wider than the band
    ((0.20, 0.23), UNDECIDED),  # touches the edge: not wholly outside
    ((float("nan"), float("nan")), UNDECIDED),
])
def test_verdict(ci, want):
    assert verdict(*ci, 0.23, 0.27) == want


def test_check_targets_in_file_order_and_not_measured():
    figures = pd.DataFrame({"metric": ["tie_rate", "seat0_win_share"], "label": ["t", "s"],
                            "value": [0.06, 0.25], "ci_lo": [0.05, 0.24],
                            "ci_hi": [0.07, 0.26]})
    bands = {"seat0_win_share": (0.23, 0.27), "tie_rate": (0.0, 0.05), "skill_gap": (0.1, 0.5)}
    t = check_targets(bands, figures)
    assert list(t["metric"]) == list(bands)
    assert list(t["verdict"]) == [PASS, UNDECIDED, NOT_MEASURED]


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "t.toml"
    p.write_text(text)
    return p


def test_load_targets(tmp_path):
    p = _write(tmp_path, "seat0_win_share = [0.23, 0.27]\nwinner_vp_mean = [55, 70]\n")
    assert load_targets(p) == {"seat0_win_share": (0.23, 0.27), "winner_vp_mean": (55.0, 70.0)}


@pytest.mark.parametrize("text, needle", [
    ("seat0_win_share = 0.25", "seat0_win_share = 0.25: expected a band"),
    ("seat0_win_share = [0.27, 0.23]", "low < high"),
    ("seat0_win_share = [0.2, 0.3, 0.4]", "expected a band"),
    ('seat0_win_share = ["a", "b"]', "expected a band"),
    ("seat0_win_share = [true, 1]", "expected a band"),
    ("[seat0_win_share]\nlo = 1", "expected a band"),
    ("seat0_win_share = [0.23", "not valid TOML"),
])
def test_a_malformed_targets_file_is_one_line(tmp_path, text, needle):
    with pytest.raises(TargetsError) as e:
        load_targets(_write(tmp_path, text))
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_unknown_metric_names_the_closest(tmp_path):
    p = _write(tmp_path, "seat0_winshare = [0.2, 0.3]\n")
    with pytest.raises(TargetsError) as e:
        R.plan_balance(BalanceSettings(games=40, parts=("game",), targets=str(p)))
    msg = str(e.value)
    assert "unknown metric 'seat0_winshare'" in msg and "did you mean 'seat0_win_share'" in msg
    assert "last_after_round_{k}_wins (k 1-8)" in msg and "\n" not in msg


# --- settings ------------------------------------------------------------------------------

def test_settings_derive_deals_seats_and_the_command():
    s = BalanceSettings(players=3, games=100, field=("expert", "greedy"))
    assert s.deals == 34 and s.seated == ["expert", "greedy", "expert"]
    assert s.command() == ("quacks balance --rules base --players 3 --field expert,greedy "
                           "--games 100 --seed 1")
    assert s.to_json()["deals"] == 34


def test_a_missing_measurement_is_one_line(monkeypatch):
    monkeypatch.setitem(R.MEASUREMENTS, "cards", ("sim.study.balance.no_such_module", "f"))
    with pytest.raises(R.BalanceError, match="the cards measurement .* is not in this version"):
        R.plan_balance(BalanceSettings(games=40))


# --- runs ----------------------------------------------------------------------------------

def test_chunks_and_threads_change_nothing(monkeypatch):
    import numba

    s = BalanceSettings(games=400, parts=("game", "skill"), field=("balanced", "greedy"),
                        strong="ev", weak=("cautious",))
    a = R.run_balance(s)
    monkeypatch.setitem(R.CHUNKS, "first_chunk_games", 40)
    monkeypatch.setitem(R.CHUNKS, "max_chunk_games", 80)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = R.run_balance(s)
    finally:
        numba.set_num_threads(before)
    assert len(b.plan.game.chunk_bounds) > len(a.plan.game.chunk_bounds)
    for name in ("game", "skill"):
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name])


def _json(r) -> dict:
    return json.loads(r.stdout)


def test_cli_json_and_report_folder(tmp_path):
    """One tiny run of every part (the slowest test here, about 10 s warm): the JSON keys, one
    row per card, the report folder and its page."""
    targets = _write(tmp_path, "seat0_win_share = [0.0, 1.0]\nskill_gap = [2, 3]\n")
    out = tmp_path / "bal"
    r = ok("balance", "--games", 40, "--players", 2, "--json", "--out", out, "--targets",
           targets, "--quiet")
    d = _json(r)
    parts = {"cards", "witches", "books", "game", "skill", "targets"}
    run = {"kind", "rules", "overrides", "rules_display", "rules_hash", "players", "rounds",
           "strategies", "games", "deals", "seed", "settings", "seconds", "notes", "out", "files"}
    assert set(d) == parts | run
    assert len(d["cards"]) == 24 and {"card", "vp", "vp_lo", "vp_hi", "rank"} <= set(d["cards"][0])
    for part in ("cards", "books"):  # every ranked table: the rank with its 95% interval
        for row in d[part]:
            assert 1 <= row["rank_lo"] <= row["rank"] <= row["rank_hi"] <= len(d[part]), part
        table = pd.read_parquet(out / f"{part}.parquet")
        assert {"rank", "rank_lo", "rank_hi"} <= set(table.columns), part
        assert table["rank_lo"].tolist() == [x["rank_lo"] for x in d[part]], part
    assert not {"last_after_round_9_wins", "leader_after_round_9_wins"} & {
        r["metric"] for r in d["game"]}
    assert d["witches"] == []  # base: no witches
    assert {r["metric"] for r in d["game"]} == set(G.metric_names(2, 9))
    assert [t["verdict"] for t in d["targets"]] == [PASS, FAIL]
    assert d["deals"] == 20 and d["games"] == 40 and d["players"] == 2
    for f in ("game.parquet", "skill.parquet", "cards.parquet", "books.parquet",
              "targets.parquet", "game.png", "report.md", "run.json", "report.html"):
        assert (out / f).is_file(), f
    assert not (out / "witches.parquet").exists()  # an empty table stays out
    assert sorted(d["files"]) == sorted(p.name for p in out.iterdir())
    back = pd.read_parquet(out / "game.parquet").set_index("metric")
    assert back.loc["seat0_win_share", "value"] == next(
        x["value"] for x in d["game"] if x["metric"] == "seat0_win_share")
    html = (out / "report.html").read_text()
    assert "<h1>Balance</h1>" in html and "seat0_win_share" in html and "game.png" in html
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["kind"] == "balance" and manifest["command"].startswith("quacks balance")


def test_cli_tables(tmp_path):
    r = ok("balance", "--games", 40, "--players", 2, "--parts", "game,skill,books")
    assert "the game (95% CI, deals as the unit)" in r.stdout
    assert "seat0_win_share" in r.stdout and "skill_gap" in r.stdout
    assert "fortune-teller" not in r.stdout
    assert "Left out, decided by definition: last_after_round_9_wins" in r.stdout
    assert "rank [95% CI]" in r.stdout and "Rank 1, the colour most worth buying" in r.stdout


@pytest.mark.parametrize("args, needle", [
    (["--set", "game.no_such_key=1"], "no_such_key"),
    (["--players", "5"], "--players 5: expected 2 to 4"),
    (["--players", "1"], "--players 1: expected 2 to 4"),
    (["--players", "9"], "--players 9: expected 1 to 5"),
    (["--parts", "game,luck"], "--parts game,luck: expected one or more of"),
    (["--games", "3"], "--games 3: expected at least 8"),
    (["--field", ",,"], "--field"),
    (["--field", "nosuch"], "nosuch"),
    (["--targets", "nowhere.toml"], "--targets nowhere.toml: no such file"),
    (["--backend", "local", "--workers", "2"], "--workers: only with --backend dask"),
])
def test_cli_bad_input_is_one_line(args, needle):
    assert_user_error(invoke("balance", "--parts", "game", *args), needle)


def test_cli_bad_targets_and_out(tmp_path):
    bad = _write(tmp_path, "tie_rate = [0.1]\n")
    assert_user_error(invoke("balance", "--targets", bad), "tie_rate = [0.1]: expected a band")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert_user_error(invoke("balance", "--parts", "game", "--out", tmp_path / "full"),
                      "not empty")


def test_experiment_balance_part_keys(tmp_path):
    from sim.study.experiments.file import ExperimentFileError, load_experiment

    p = tmp_path / "x.toml"
    p.write_text('[experiment]\ntitle = "x"\n[[part]]\nkind = "balance"\nname = "b"\n'
                 'targets = "t/b.toml"\nmeasure = ["game"]\n')
    part = load_experiment(p).parts[0]
    assert Path(part["targets"]) == tmp_path / "t" / "b.toml"  # relative to the file
    p.write_text('[experiment]\ntitle = "x"\n[[part]]\nkind = "balance"\nname = "b"\n'
                 "measure = [1]\n")
    with pytest.raises(ExperimentFileError, match="'measure' must be a non-empty list"):
        load_experiment(p)


def test_rank_intervals_in_the_csv_of_an_experiments_balance_part(tmp_path):
    """The CSV tables (an experiment's balance part with csv = true) carry the rank and its
    interval, as the parquet and JSON do (test_cli_json_and_report_folder)."""
    p = tmp_path / "x.toml"
    p.write_text('[experiment]\ntitle = "x"\nplayers = 2\ncsv = true\n[[part]]\n'
                 'kind = "balance"\nname = "b"\nmeasure = ["books"]\n')
    ok("experiment", "run", p, "--out", tmp_path / "out", "--games", 8)
    csv = pd.read_csv(tmp_path / "out" / "b" / "books.csv")
    back = pd.read_parquet(tmp_path / "out" / "b" / "books.parquet")
    assert {"rank", "rank_lo", "rank_hi"} <= set(csv.columns)
    assert csv["rank_hi"].tolist() == back["rank_hi"].tolist()
    assert ((csv["rank_lo"] <= csv["rank"]) & (csv["rank"] <= csv["rank_hi"])).all()
    md = (tmp_path / "out" / "report.md").read_text()
    assert "rank [95% CI]" in md and "Rank 1, the colour most worth buying" in md


@pytest.mark.slow
def test_dask_gives_the_local_answer():
    pytest.importorskip("distributed")
    from sim.study.tournament.backend import make_backend

    s = BalanceSettings(games=80, players=2, field=("balanced", "greedy"))
    local = R.run_balance(s).to_json()
    with make_backend("dask", workers=2, threads=1) as be:
        remote = R.run_balance(s, backend=be).to_json()
    for k in ("game", "skill", "cards", "witches", "books"):
        assert remote[k] == local[k], k
    assert np.isfinite(local["game"][0]["value"])
