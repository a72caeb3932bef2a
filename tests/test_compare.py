"""``quacks compare``: a ruleset against itself gives exact zeros, explosion limit 8 gives fewer
explosions, the statistics on a hand-made table, the JSON keys, the report folder, reproducibility
and the one-line user errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import typer
from cli_helpers import assert_user_error, invokers

from sim.cli.compare_cmd import register
from sim.stats.clusters import paired_diff, ratio_mean_var
from sim.study.compare.config import CompareConfig, CompareError, RulesetSpec, parse_variant
from sim.study.compare.report import command_line
from sim.study.compare.run import run_compare
from sim.study.compare.stats import deal_totals, estimates, ratio

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)


@app.callback()
def _root() -> None:
    """Test app with the compare command."""


invoke, ok = invokers(app)
LIMIT8 = "limit8=game.explosion_limit=8"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def limit8():
    """The presets under the base game and with explosion limit 8 (2,000 games each)."""
    return run_compare(CompareConfig(rulesets=["base",
                                               ("limit8", "base", ["game.explosion_limit=8"])],
                                     games=2000, seed=1))


def test_ruleset_against_itself_is_exactly_zero():
    # twice the same ruleset, and a variant that sets a value to what it already is
    r = ok("compare", "--rules", "base", "--rules", "base", "--variant",
           "same=game.explosion_limit=7",
           "--strategies", "cautious,greedy,expected-value", "--games", 600, "--seed", 4, "--json")
    d = json.loads(r.stdout)
    assert [x["label"] for x in d["rulesets"]] == ["base", "base#2", "same"]
    assert len(d["differences"]) == 2
    for diff in d["differences"]:
        values = [*diff["metrics"].values(),
                  *(v for s in diff["strategies"].values() for v in s.values())]
        assert len(values) == 8 + 3 + 1 + 3 * 2  # metrics, seats, seat excess, strategies
        for v in values:
            assert v["diff"] == 0.0 and v["ci"] == [0.0, 0.0] and not v["significant"], v
    assert d["summary"]["significant"] == []
    a, b = (x["metrics"] for x in d["rulesets"][:2])
    assert a == b
    assert 0 < a["explosion_rate"]["ci"][0] < a["explosion_rate"]["value"]  # not zero by accident


def test_explosion_limit_8_explodes_less(limit8):
    t, d = limit8.tables["rulesets"], limit8.tables["differences"]
    rate = t[t["metric"] == "explosion_rate"].set_index("ruleset")["value"]
    assert rate["limit8"] < rate["base"]
    row = d[(d["metric"] == "explosion_rate") & (d["strategy"] == "all")].iloc[0]
    assert row["ruleset"] == "limit8" and row["reference"] == "base" and row["deals"] == 500
    assert row["ci_lo"] <= row["diff"] <= row["ci_hi"] < 0 and row["significant"]
    assert row["diff"] == pytest.approx(rate["limit8"] - rate["base"], abs=1e-15)
    # pots go further, so scores rise and games are longer
    for metric in ("mean_vp", "reward_space", "game_length"):
        assert d[(d["metric"] == metric) & (d["strategy"] == "all")].iloc[0]["ci_lo"] > 0, metric


def _hand_table(rounds: int = 7):
    """Two deals of two games of two players over seven rounds (``rounds``).

    game  deal  VP      win share  score after round 6
    0     0     50, 40  1, 0       30, 20   leader seat 0 wins: 1
    1     0     45, 47  0, 1       25, 25   tied leaders: (0 + 1) / 2 = 0.5
    2     1     38, 38  .5, .5     10, 30   leader seat 1 shares: 0.5
    3     1     60, 30  1, 0       20, 40   leader seat 1 loses: 0
    """
    games = {"game": np.repeat(np.arange(4), 2), "deal": np.repeat([0, 0, 1, 1], 2),
             "seat": np.tile([0, 1], 4), "strategy": np.tile([0, 1], 4),
             "vp": np.array([50, 40, 45, 47, 38, 38, 60, 30]),
             "win_share": np.array([1, 0, 0, 1, 0.5, 0.5, 1, 0]),
             "explosions": np.array([1, 0, 2, 0, 0, 0, 3, 0])}
    score6 = np.array([[30, 20], [25, 25], [10, 30], [20, 40]])
    g, rd, s = np.meshgrid(np.arange(4), np.arange(1, rounds + 1), np.arange(2), indexing="ij")
    table = {"game": g.ravel(), "round": rd.ravel(), "seat": s.ravel(),
             "reward_space": np.full(g.size, 10),
             "score": np.where(rd == 6, score6[g, s], 0).ravel()}
    return deal_totals(games, table, players=2, rounds_per_game=rounds, strategies=2)


def test_the_last_rounds_leader_is_decided_by_definition():
    assert "leader_wins" in estimates(_hand_table(7), players=2)
    assert "leader_wins" not in estimates(_hand_table(6), players=2)  # round 6 is the last


def test_statistics_on_a_hand_made_table():
    t = _hand_table()
    e = estimates(t, players=2)
    assert e["leader_wins"].value == 0.5
    assert e["seat_0"].value == 0.625 and e["seat_1"].value == 0.375
    assert e["first_seat_excess"].value == 0.125
    assert e["winner_vp"].value == (50 + 47 + 38 + 60) / 4
    assert e["win_margin"].value == (10 + 2 + 0 + 30) / 4
    assert e["mean_vp"].value == 348 / 8
    assert e["vp_sd"].value == pytest.approx(np.std([50, 40, 45, 47, 38, 38, 60, 30], ddof=1))
    assert e["explosion_rate"].value == 6 / (8 * 7)
    assert e["game_length"].value == 70 and e["reward_space"].value == 10
    assert e["win_share[0]"].value == 0.625 and e["mean_vp[1]"].value == (40 + 47 + 38 + 30) / 4
    # seat 0 per deal: 1 of 2 and 1.5 of 2, so the cluster-robust variance is 0.015625
    assert e["seat_0"].variance() == pytest.approx(0.015625)
    x, n = t.x["seat_0"], t.n["seat_0"]
    _, v = ratio_mean_var(x.sum(), n.sum(), (x * x).sum(), (x * n).sum(), (n * n).sum(), 2)
    assert e["seat_0"].variance() == pytest.approx(float(v))
    lo, hi = e["first_seat_excess"].interval()
    slo, shi = e["seat_0"].interval()
    assert (lo, hi) == pytest.approx((slo - 0.5, shi - 0.5))
    assert -0.5 <= lo < 0.125 < hi <= 0.5
    z = e["mean_vp"].minus(e["mean_vp"])
    assert z.value == 0 and z.interval() == (0.0, 0.0)


def test_paired_difference_is_the_paired_t_with_equal_counts():
    rng = np.random.default_rng(7)
    xa, xb = rng.integers(0, 40, 50), rng.integers(0, 40, 50)
    n = np.full(50, 16)
    d = ratio(xb, n).minus(ratio(xa, n))
    m, lo, hi, D = paired_diff(xb / 16, xa / 16)
    assert D == d.deals == 50
    assert d.value == pytest.approx(m) and d.interval() == pytest.approx((lo, hi))


def test_json_keys_and_report_folder(tmp_path):
    out = tmp_path / "rep"
    r = ok("compare", "--variant", LIMIT8, "--strategies", "cautious,greedy", "--games", 400,
           "--seed", 2, "--out", out, "--json")
    d = json.loads(r.stdout)
    for k in ("kind", "reference", "players", "games", "deals", "seed", "strategies", "rulesets",
              "differences", "metric_labels", "interval_methods", "summary", "files"):
        assert k in d, k
    assert d["kind"] == "compare" and d["reference"] == "base" and d["games"] == 400
    assert d["deals"] == 200 and d["players"] == 2
    m = d["rulesets"][1]["metrics"]
    for k in ("mean_vp", "vp_sd", "winner_vp", "explosion_rate", "game_length", "leader_wins",
              "seat_0", "seat_1", "first_seat_excess"):
        assert set(m[k]) == {"value", "ci", "n", "deals"} and m[k]["deals"] == 200, k
        assert m[k]["ci"][0] <= m[k]["value"] <= m[k]["ci"][1], k
    for k in ("explosion_rate", "leader_wins", "seat_0"):
        assert 0 <= m[k]["ci"][0] and m[k]["ci"][1] <= 1
    assert set(d["rulesets"][0]["strategies"]) == {"cautious", "greedy"}
    assert set(d["differences"][0]["strategies"]["greedy"]) == {"win_share", "mean_vp"}
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted(d["files"]) == sorted(
        ["rulesets.parquet", "strategies.parquet", "differences.parquet", "deals.parquet",
         "metrics.png", "differences.png", "win_share.png", "report.md", "run.json",
         "report.html"])
    for name in ("metrics.png", "differences.png", "win_share.png"):
        assert (out / name).read_bytes()[:8] == PNG
    t = pd.read_parquet(out / "rulesets.parquet")
    assert list(t["ruleset"].cat.categories) == ["base", "limit8"]
    assert len(pd.read_parquet(out / "deals.parquet")) == 2 * 200
    md = (out / "report.md").read_text()
    for s in ("| explosions per potion |", "![", "(metrics.png)", "quacks compare --rules base "
              "--variant limit8=game.explosion_limit=8", "numba ", "limit8 - base"):
        assert s in md, s
    run = json.loads((out / "run.json").read_text())
    assert run["versions"]["numpy"] and run["command"].startswith("quacks compare")


def test_table_output():
    r = ok("compare", "--variant", LIMIT8, "--strategies", "cautious,greedy", "--games", 200)
    for s in ("explosions per potion", "limit8 - base", "round-6 leader wins", "seat 1 win share",
              "win share by strategy", "cautious"):
        assert s in r.stdout, s


def test_same_seed_same_tables():
    cfg = CompareConfig(rulesets=["base", ("v", "base", ["game.explosion_limit=8"])],
                        strategies=("cautious", "greedy", "random"), games=300, seed=9)
    a, b = run_compare(cfg), run_compare(cfg)
    for name in ("rulesets", "strategies", "differences", "deals"):
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)
    c = run_compare(CompareConfig(**{**cfg.__dict__, "seed": 10}))
    assert not a.tables["deals"].equals(c.tables["deals"])


def test_variants_and_the_command_line():
    assert parse_variant("limit8=game.explosion_limit=8;game.rounds=8", "base",
                         ["cards.deck=false"]) \
        == RulesetSpec("limit8", "base",
                       ("cards.deck=false", "game.explosion_limit=8", "game.rounds=8"))
    assert parse_variant("game.explosion_limit=8").label == "game.explosion_limit=8"
    with pytest.raises(CompareError):
        parse_variant("=game.rounds=8")
    base = RulesetSpec("base", "base", ("cards.deck=false",))
    cfg = CompareConfig(rulesets=[base, base,
                                  parse_variant("game.rounds=8", "base", ["cards.deck=false"])],
                        strategies=("greedy",), players=3, games=30, seed=2)
    assert [r.label for r in cfg.rulesets] == ["base", "base#2", "game.rounds=8"]
    assert command_line(cfg) == ("quacks compare --rules base --rules base --set cards.deck=false "
                                 "--variant game.rounds=8 --strategies greedy --players 3 "
                                 "--games 30 --seed 2")
    # another ruleset file with overrides of its own: no command line says it
    other = CompareConfig(rulesets=[base, RulesetSpec("x", "x.toml", ("game.rounds=8",))])
    assert command_line(other) is None


@pytest.mark.parametrize("args, fragment", [
    ((), "compare needs at least two"),
    (("--rules", "base"), "compare needs at least two"),
    (("--variant", "x=game.nope=1"), "unknown key 'game.nope'"),
    (("--variant", LIMIT8, "--set", "game.explosion_limit=99"), "ruleset base"),
    (("--variant", "=game.rounds=8"), "--variant"),
    (("--variant", LIMIT8, "--strategies", "nosuch"), "unknown strategy 'nosuch'"),
    (("--variant", LIMIT8, "--games", 1), "--games 1"),
    (("--variant", LIMIT8, "--strategies", "cautious,greedy", "--players", 5), "--players 5"),
    (("--rules", "nosuch.toml", "--rules", "base"), "nosuch.toml"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, fragment):
    out = tmp_path / "never"
    r = invoke("compare", *args, "--games", 40, "--out", out) if "--games" not in args else \
        invoke("compare", *args, "--out", out)
    assert_user_error(r, fragment)
    assert not out.exists()


def test_out_not_empty(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    r = invoke("compare", "--variant", LIMIT8, "--games", 40, "--out", tmp_path)
    assert_user_error(r, "not empty", "--force")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_variant_with_fewer_rounds_than_the_leader_round(tmp_path):
    r = ok("compare", "--variant", "r5=game.rounds=5", "--strategies", "cautious,greedy",
           "--games", 200, "--out", tmp_path / "r5")
    row = next(line for line in r.stdout.splitlines() if "round-6 leader wins" in line)
    assert "n/a" in row  # the r5 column, the base column keeps its value
    assert "note: leader_wins left out for r5" in r.stdout
    d = pd.read_parquet(tmp_path / "r5" / "differences.parquet")
    assert "leader_wins" not in set(d["metric"]) and "game_length" in set(d["metric"])
    assert (tmp_path / "r5" / "metrics.png").read_bytes()[:8] == PNG
