"""The ``quacks potion`` command through Typer's CliRunner: JSON output and the one-line errors
(exit status 2, no traceback)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import assert_user_error
from typer.testing import CliRunner

from sim.cli.main import app
from sim.rules.ruleset import load_ruleset

runner = CliRunner()
BASE = load_ruleset("base")


def run(*args):
    return runner.invoke(app, ["potion", *args])


def ok_json(*args):
    r = run(*args, "--json")
    assert r.exit_code == 0, (r.output, r.exception)
    return json.loads(r.stdout)




# ---------------------------------------------------------------------------------------------
# success


def test_sample_json_keys_and_consistency():
    d = ok_json("--n", "20000", "--seed", "3")
    for key in ("p_explode", "expected_reward_space", "n", "exact", "distribution"):
        assert key in d
    assert d["exact"] is False
    assert d["n"] == 20000
    dist = d["distribution"]
    assert set(dist) == {"intact", "exploded"}
    counts = {(int(s), 0): c for s, c in dist["intact"].items()}
    counts.update({(int(s), 1): c for s, c in dist["exploded"].items()})
    assert sum(counts.values()) == 20000
    assert all(isinstance(c, int) and c > 0 for c in counts.values())
    # the summary numbers follow from the distribution
    n = 20000
    assert d["p_explode"] == pytest.approx(sum(c for (s, x), c in counts.items() if x) / n)
    assert (d["expected_reward_space"]
            == pytest.approx(sum(s * c for (s, _), c in counts.items()) / n))
    assert (d["expected_coins"]
            == pytest.approx(sum(BASE.coins[s] * c for (s, _), c in counts.items()) / n))
    assert (d["expected_vp"]
            == pytest.approx(sum(BASE.vp[s] * c for (s, _), c in counts.items()) / n))
    lo, hi = d["p_explode_ci"]
    assert lo <= d["p_explode"] <= hi
    # defaults: the starting bag, stop white:6 (from the command's help), start 0, no flask
    assert d["bag"] == "w1x4,w2x2,w3,o1,g1"
    assert d["stop"] == "white:6" and d["start"] == 0 and d["flask"] is None


def test_starting_bag_white6_support():
    # Starting bag (w1x4,w2x2,w3,o1,g1), white:6. Every chip moves its value, so the last chip
    # sits on (white total + number of o1/g1 placed). Intact: the total is 6 or 7 when it stops
    # (the whites in the bag total 11, so the bag never runs dry first) -> last chip on 6..9,
    # reward 7..10. Exploded: the total was <= 5 before the last white (<= 3), so it is exactly
    # 8 -> last chip on 8..10, reward 9..11.
    d = ok_json("--n", "20000")
    intact = [int(s) for s in d["distribution"]["intact"]]
    exploded = [int(s) for s in d["distribution"]["exploded"]]
    assert min(intact) >= 7 and max(intact) <= 10
    assert min(exploded) >= 9 and max(exploded) <= 11


def test_exact_json():
    # bag w1,w2, white:1: reward 2 or 3 with 1/2 each (see test_exact.py)
    d = ok_json("--bag", "w1,w2", "--stop", "white:1", "--exact")
    assert d["exact"] is True and d["n"] is None
    assert d["p_explode"] == 0.0
    assert d["expected_reward_space"] == pytest.approx(2.5)
    assert d["distribution"] == {"intact": {"2": pytest.approx(0.5), "3": pytest.approx(0.5)},
                                 "exploded": {}}


def test_draws_json():
    d = ok_json("--draws", "w1,o1,w3")
    # w1 1, o1 2, w3 5 -> reward 6 (6 coins, 1 VP, no ruby)
    assert [(p["chip"], p["index"]) for p in d["placements"]] == [("w1", 1), ("o1", 2), ("w3", 5)]
    assert ((d["reward_space"], d["coins"], d["vp"], d["ruby"], d["exploded"])
            == (6, 6, 1, False, False))


def test_table_output_without_json():
    r = run("--bag", "w1,w2", "--exact")
    assert r.exit_code == 0, r.output
    assert "P(explode)" in r.stdout


def test_options_reach_the_query():
    d = ok_json("--bag", "w2x4", "--stop", "never", "--set", "game.explosion_limit=8", "--exact")
    # four w2 total 8: safe with limit 8, reward 9
    assert d["p_explode"] == 0.0 and d["distribution"]["intact"] == {"9": pytest.approx(1.0)}
    d = ok_json("--bag", "w1,w3,o1", "--stop", "never", "--flask", "3", "--exact")
    assert d["flask"] == 3 and d["distribution"]["intact"] == {"9": pytest.approx(1.0)}
    d = ok_json("--bag", "o1", "--start", "51", "--exact")
    assert d["distribution"]["intact"] == {"53": pytest.approx(1.0)}
    assert d["expected_coins"] == pytest.approx(35.0) and d["expected_vp"] == pytest.approx(15.0)


def test_ruleset_file_option(tmp_path):
    p = tmp_path / "eight.toml"
    p.write_text('extends = "base"\nname = "eight"\n[game]\nexplosion_limit = 8\n',
                 encoding="utf-8")
    d = ok_json("--bag", "w2x4", "--stop", "never", "--rules", str(p), "--exact")
    assert d["rules"] == "eight" and d["p_explode"] == 0.0


# ---------------------------------------------------------------------------------------------
# user errors: exit 2, one line


@pytest.mark.parametrize(
    "args,fragments",
    [
        (["--bag", "z1"], ["colour"]),
        (["--bag", "w1,q2"], ["colour"]),
        (["--bag", "w1x"], ["w1x"]),
        (["--bag", "w1x0"], ["w1x0"]),
        (["--bag", "w4"], ["w4"]),
        (["--bag", "r3"], ["red"]),
        (["--bag", ""], ["empty"]),
        (["--bag", "w1,,o1"], ["empty"]),
        (["--bag", "w1x65"], ["64"]),
        (["--bag", "w1,o1", "--draws", "w1,r1"], ["not in the bag"]),
        (["--bag", "w1,o1", "--draws", "w1,w1"], ["not in the bag"]),
        (["--bag", "b1,o1", "--draws", "b1"], ["blue"]),
        (["--stop", "white:"], ["white:"]),
        (["--stop", "white:0"], ["white:0"]),
        (["--stop", "risk:2"], ["risk:2"]),
        (["--stop", "risk:-0.1"], ["risk:-0.1"]),
        (["--stop", "foo"], ["foo"]),
        (["--stop", "never:3"], ["never:3"]),
        (["--start", "-1"], ["--start"]),
        (["--start", "53"], ["--start"]),
        (["--flask", "0"], ["--flask"]),
        (["--flask", "4"], ["--flask"]),
        (["--n", "0"], ["--n"]),
        (["--n", "-5"], ["--n"]),
        (["--seed", "-1"], ["--seed"]),
        (["--rules", "/nonexistent/dir/rules.toml"], ["/nonexistent/dir/rules.toml"]),
        (["--rules", "no_such_builtin"], ["no_such_builtin"]),
        (["--set", "game.explosion_limit"], ["game.explosion_limit"]),
        (["--set", "game.nokey=1"], ["game.nokey"]),
        (["--set", "nosection.key=1"], ["nosection.key"]),
        (["--set", "game.explosion_limit=0"], ["game.explosion_limit"]),
        (["--set", "books.black=3"], ["books.black"]),
    ],
)
def test_user_errors(args, fragments):
    assert_user_error(run(*args, "--json"), *fragments)


def test_broken_ruleset_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text('name = "x"\n[game\nrounds = 9\n', encoding="utf-8")
    assert_user_error(run("--rules", str(p)), str(p), "TOML")


def test_invalid_ruleset_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('extends = "base"\n[game]\nexplosion_limit = "high"\n', encoding="utf-8")
    assert_user_error(run("--rules", str(p)), str(p), "game.explosion_limit")


def test_extends_cycle_file(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "b.toml"\nname = "a"\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('extends = "a.toml"\nname = "b"\n', encoding="utf-8")
    assert_user_error(run("--rules", str(tmp_path / "a.toml")), "cycle")


def test_too_large_exact():
    assert_user_error(run("--bag", "w1x4,w2x4,w3x4,o1x4,g1x4,b1x4,r1x4", "--exact"), "too large")


def test_error_messages_do_not_leak_numpy_reprs():
    r = run("--bag", "w1,o1", "--draws", "w1,w1,o1")
    assert_user_error(r)
    assert "array(" not in r.stderr and "np." not in r.stderr


def test_sample_counts_are_plain_json_numbers():
    d = ok_json("--n", "1000", "--bag", "o1,w1")
    # o1,w1 never explodes under white:6 (total 1): both chips placed, last on 2 -> reward 3
    assert d["distribution"] == {"intact": {"3": 1000}, "exploded": {}}
    assert d["p_explode"] == 0.0 and d["expected_reward_space"] == 3.0
    assert np.isclose(d["expected_coins"], 3.0)


def test_blue_set2_protected_explosions_have_their_own_column():
    """Blue Set 2: an explosion inside a protection window still counts as an explosion, but
    scores VP and coins; the sampled distribution keeps those potions in a third column."""
    args = ("--bag", "b2x3,w3x3,w2x2", "--stop", "never", "--n", "20000", "--seed", "3")
    d = ok_json(*args, "--set", "books.blue=2")
    dist = d["distribution"]
    assert set(dist) == {"intact", "exploded", "protected"}
    n_prot = sum(dist["protected"].values())
    n_expl = sum(dist["exploded"].values())
    assert n_prot > 0 and n_expl > 0
    assert sum(dist["intact"].values()) + n_expl + n_prot == 20000
    assert d["p_protected"] == pytest.approx(n_prot / 20000)
    assert d["p_explode"] == pytest.approx((n_expl + n_prot) / 20000)
    lo, hi = d["p_protected_ci"]
    assert 0 <= lo <= d["p_protected"] <= hi <= 1
    plain = ok_json(*args)  # blue Set 1: no protection, no third column
    assert set(plain["distribution"]) == {"intact", "exploded"} and "p_protected" not in plain
    r = run(*args, "--set", "books.blue=2")
    assert r.exit_code == 0 and "P(protected)" in r.stdout
