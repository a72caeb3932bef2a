"""User strategies: a Python file defines slot functions, registers them under a name (the other
slots fall back to a named strategy) and is used with ``--strategy-file PATH``; the functions run
inside the compiled game loop. A file whose functions cannot be compiled, a missing file, a file
that registers nothing and a syntax error are one-line errors with exit status 2.

A strategy name registers once per process and the slot-function table has room for a fixed
number of user functions (``N_UF - 1``), so every test here uses its own name and the files
define as few slot functions as they need.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_user_error
from typer.testing import CliRunner

from sim.api import potion as pot
from sim.api.events import event_dict
from sim.api.game import play_batch, replay
from sim.cli.main import app
from sim.kernel.decisions import slots as S
from sim.kernel.game import play_games
from sim.kernel.records import O_ERR, O_EXPLOSIONS
from sim.rules.ruleset import load_ruleset
from strategies.builtin import REGISTRY, StrategySpecError, parse_strategy
from strategies.registry import StrategyFileError, load_strategy_file

ROOT = Path(__file__).resolve().parent.parent
CAREFUL = ROOT / "experiments" / "strategies" / "careful.py"
SHOPPER = ROOT / "experiments" / "strategies" / "shopper.py"
BASE = load_ruleset("base")
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])




def write(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return p


@pytest.fixture(scope="module")
def careful_copy(tmp_path_factory) -> Path:
    """The README example, copied out of the repository (registered once per process)."""
    p = tmp_path_factory.mktemp("careful") / "careful.py"
    shutil.copy(CAREFUL, p)
    return p


def by_name(d: dict) -> dict:
    return {row["name"]: row for row in d["strategies"]}


# --- the README example -------------------------------------------------------------------------


def test_the_how_to_shows_the_example_file():
    """The site's "Write a strategy" includes the shipped example file itself."""
    page = (ROOT / "docs" / "how-to" / "write-a-strategy.md").read_text(encoding="utf-8")
    inc = re.search(r"```\{literalinclude\} (\S+)", page)
    assert inc, "docs/how-to/write-a-strategy.md: no literalinclude of the example"
    assert (ROOT / "docs" / "how-to" / inc.group(1)).resolve() == CAREFUL.resolve()


def test_readme_example_plays_end_to_end(careful_copy):
    r = invoke("play", "--strategy-file", careful_copy, "--strategies", "careful,balanced",
               "--games", 200, "--json")
    assert r.exit_code == 0, (r.output, r.exception)
    d = json.loads(r.stdout)
    assert d["players"] == 2 and d["games"] == 200
    rows = by_name(d)
    assert set(rows) == {"careful", "balanced"}
    for row in rows.values():
        assert row["games"] == 200 and row["illegal_decisions"] == 0
        assert 0 <= row["win_share"] <= 1
    assert sum(row["win_share"] for row in rows.values()) == pytest.approx(1.0)
    assert REGISTRY["careful"].source == "user"


def test_readme_example_parameter_t(careful_copy):
    r = invoke("play", "--strategy-file", careful_copy, "--strategies",
               "careful,careful:t=5,balanced,random", "--games", 400, "--seed", 2, "--json")
    assert r.exit_code == 0, (r.output, r.exception)
    rows = by_name(json.loads(r.stdout))
    assert set(rows) == {"careful", "careful:t=5", "balanced", "random"}
    # stopping at a white total of 5 can never explode (limit 7, biggest white 3)
    assert rows["careful:t=5"]["explosion_rate"] == 0.0
    assert rows["careful"]["explosion_rate"] > 0.0
    assert rows["careful"]["mean_vp"] != rows["careful:t=5"]["mean_vp"]
    assert all(row["illegal_decisions"] == 0 for row in rows.values())


def test_readme_example_parameters_reach_sp(careful_copy):
    load_strategy_file(careful_copy)
    d = parse_strategy("careful")
    t5 = parse_strategy("careful:t=5,p=0.5")
    assert d.params[S.SLOT_CUSTOM, 0] == 6 and d.params[S.SLOT_CUSTOM, 1] == 0.25
    assert t5.params[S.SLOT_CUSTOM, 0] == 5 and t5.params[S.SLOT_CUSTOM, 1] == 0.5
    assert np.array_equal(d.kinds, t5.kinds)  # parameters are data
    assert d.kinds[S.SLOT_STOP] >= S.USER_BASE and d.kinds[S.SLOT_FLASK] >= S.USER_BASE
    bal = parse_strategy("balanced")
    for slot in (S.SLOT_BLUE, S.SLOT_YELLOW, S.SLOT_EXPLODE, S.SLOT_BUY, S.SLOT_RUBY,
                 S.SLOT_PURPLE):
        assert d.kinds[slot] == bal.kinds[slot]  # the fallback's slots
        assert np.array_equal(d.params[slot], bal.params[slot])
    with pytest.raises(StrategySpecError, match="out of range"):
        parse_strategy("careful:t=50")
    # the fallback's parameters are accepted too
    assert parse_strategy("careful:buy=red").values["buy"][:3] == ["r4", "r2", "r1"]


def test_shopper_example_buys_only_its_list(tmp_path):
    """The buy-slot example (README): it buys only the colours of its list, through the
    helpers, and a list given on the command line reaches it."""
    from sim.kernel.records import O_BOUGHT
    from sim.rules import chips

    p = tmp_path / "shopper.py"
    shutil.copy(SHOPPER, p)
    load_strategy_file(p)
    idx = np.arange(200, dtype=np.int64)
    for spec, listed in (("shopper", {chips.BLUE, chips.RED, chips.ORANGE}),
                         ("shopper:prefer=k1>g4>g1", {chips.BLACK, chips.GREEN})):
        res = play_batch(BASE, [parse_strategy(spec), parse_strategy("balanced")], games=idx,
                         rotations=idx % 2, seed=5)
        mine = res.out[res.seat_strategy() == 0]
        assert (mine[:, O_ERR] == 0).all()
        bought = mine[:, O_BOUGHT:O_BOUGHT + chips.N_COLOURS].sum(axis=0)
        assert all(bought[c] == 0 for c in range(chips.N_COLOURS) if c not in listed), spec
        assert all(bought[c] > 0 for c in listed), spec


def test_readme_example_in_strategies_listing(careful_copy):
    r = invoke("strategies", "careful", "--strategy-file", careful_copy, "--json")
    assert r.exit_code == 0, r.output
    (s,) = json.loads(r.stdout)["strategies"]
    assert s["name"] == "careful" and s["source"] == "user"
    assert s["description"].startswith("Stops at white total t or risk p")
    names = [p["name"] for p in s["parameters"]]
    assert names[:2] == ["t", "p"] and "flask" in names
    assert s["parameters"][0]["default"] == 6
    r = invoke("strategies", "--strategy-file", careful_copy)
    assert r.exit_code == 0 and "careful" in r.stdout


def test_readme_example_replays(careful_copy):
    r = invoke("replay", "--strategy-file", careful_copy, "--strategies", "careful,balanced",
               "--seed", 1, "--game", 3, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["seats"] == ["careful", "balanced"]
    assert any(e["event"] == "final" for e in d["events"])


# --- user slots run inside the game loop ----------------------------------------------------------

THRESHOLD_FILE = """
    from sim.kernel.layout import F_WHITE
    from strategies.builtin import Param
    from strategies.helpers_nb import over_limit, risk_free_draw
    from strategies.registry import register
    from strategies.slots import SLOT_CUSTOM


    def stop(P, s, G, R, SP, a, b, M):
        if risk_free_draw(P, s, G):  # A Second Chance's five chips, as the built-in stoppers
            return 1
        if over_limit(P, s):
            return 0
        return 1 if P[s, F_WHITE] < SP[s, SLOT_CUSTOM, 0] else 0


    register("ut-white", "The white-threshold stop, written as a user strategy.",
             fallback="threshold", stop=stop,
             params=[Param("t", "float", 6, 1, 30, "white total to stop at")])
"""


@pytest.fixture(scope="module")
def user_threshold(tmp_path_factory) -> Path:
    p = write(tmp_path_factory.mktemp("uthr"), "white.py", THRESHOLD_FILE)
    load_strategy_file(p)
    return p


def _play(specs, games=300, seed=21):
    lineup = [parse_strategy(s) for s in specs]
    idx = np.arange(games, dtype=np.int64)
    return play_batch(BASE, lineup, games=idx, rotations=idx % len(specs), seed=seed, detail=True)


@pytest.mark.parametrize("t", [4, 6, 7, 9])
def test_user_threshold_equals_builtin_threshold(user_threshold, t):
    """Same seed, same t: the user's stop slot makes exactly the built-in decisions, so every game
    (scores, ranks, explosions, per-round records) is identical."""
    mine = _play([f"ut-white:t={t}", "balanced", "threshold:t=5"])
    ref = _play([f"threshold:t={t}", "balanced", "threshold:t=5"])
    assert np.all(mine.out[..., O_ERR] == 0)
    assert np.array_equal(mine.out, ref.out)
    assert np.array_equal(mine.rounds, ref.rounds)


def test_user_threshold_parameter_changes_the_games(user_threshold):
    a = _play(["ut-white:t=5", "balanced"])
    b = _play(["ut-white:t=9", "balanced"])
    who = a.seat_strategy()
    assert a.out[..., O_EXPLOSIONS][who == 0].sum() == 0
    assert b.out[..., O_EXPLOSIONS][who == 0].mean() > 4
    # and it is not the fallback's own default (t=6) in disguise
    assert not np.array_equal(_play(["ut-white:t=8", "balanced"]).out,
                              _play(["threshold", "balanced"]).out)


def test_user_threshold_cli_matches_builtin(user_threshold):
    def rows(spec):
        r = invoke("play", "--strategy-file", user_threshold, "--strategies",
                   f"{spec},balanced,random",
                   "--games", 300, "--seed", 4, "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)["strategies"]
        return [{k: v for k, v in row.items() if k != "name"} for row in out]

    assert rows("ut-white:t=7") == rows("threshold:t=7")


def test_user_threshold_replay_matches_builtin(user_threshold):
    lineup_u = [parse_strategy("ut-white:t=7"), parse_strategy("balanced")]
    lineup_b = [parse_strategy("threshold:t=7"), parse_strategy("balanced")]
    eu, ou = replay(BASE, lineup_u, seed=3, game=5, rotation=1)
    eb, ob = replay(BASE, lineup_b, seed=3, game=5, rotation=1)
    assert np.array_equal(eu, eb) and np.array_equal(ou, ob)


def test_user_strategy_does_not_recompile(tmp_path):
    _play(["threshold", "balanced"], games=2)
    before = (len(play_games.signatures), len(play_games.overloads),
              sum(play_games.stats.cache_misses.values()))
    p = write(tmp_path, "never.py", """
        from strategies.registry import register


        def stop(P, s, G, R, SP, a, b, M):
            return 1


        register("ut-never", "Never stops (user).", fallback="balanced", stop=stop)
    """)
    assert load_strategy_file(p) == ["ut-never"]
    res = _play(["ut-never", "balanced", "ut-never:p=0.1"], games=40)
    assert np.all(res.out[..., O_ERR] == 0)
    # balanced's other slots are reckless's: a never-stop slot over balanced is reckless exactly
    ref = _play(["reckless", "balanced", "reckless"], games=40)
    assert np.array_equal(res.out, ref.out)
    after = (len(play_games.signatures), len(play_games.overloads),
             sum(play_games.stats.cache_misses.values()))
    assert after == before


# --- the red slot: a red chip's extra distance from pumpkins is optional -------------------------

RED_FILE = """
    from sim.rules.chips import TYPE_VALUE
    from strategies.builtin import Param
    from strategies.registry import register
    from strategies.slots import SLOT_CUSTOM


    def red(P, s, G, R, SP, a, b, M):
        # a = the extra distance offered (1 or 2), b = the red chip's type
        return 1 if a >= SP[s, SLOT_CUSTOM, 0] and TYPE_VALUE[b] != 1 else 0


    def red_always(P, s, G, R, SP, a, b, M):
        return 1


    register("ut-red", "Pumpkin archetype that takes a red's extra distance only if it is at "
             "least k and the chip is not an r1.", fallback="pumpkin", red=red,
             params=[Param("k", "int", 2, 1, 3, "smallest extra distance to take")])
    register("ut-red-always", "Pumpkin archetype with a user red slot that always takes.",
             fallback="pumpkin", red=red_always)
"""


@pytest.fixture(scope="module")
def user_red(tmp_path_factory) -> Path:
    p = write(tmp_path_factory.mktemp("ured"), "red.py", RED_FILE)
    assert load_strategy_file(p) == ["ut-red", "ut-red-always"]
    return p


def _red_events(specs, games=range(12)):
    lineup = [parse_strategy(s) for s in specs]
    got = []
    for g in games:
        E, out = replay(BASE, lineup, seed=9, game=g, rotation=0)
        assert (out[:, O_ERR] == 0).all()
        got += [e for e in (event_dict(row) for row in E) if e["event"] == "red"]
    return got


def test_user_red_slot_is_registered(user_red):
    st = parse_strategy("ut-red:k=1")
    assert st.kinds[S.SLOT_RED] >= S.USER_BASE and st.params[S.SLOT_CUSTOM, 0] == 1
    assert parse_strategy("pumpkin").kinds[S.SLOT_RED] == S.RED_ALWAYS
    assert "red" in S.DECISION_SLOTS


@pytest.mark.parametrize("k", [1, 2, 3])
def test_user_red_slot_decides_every_offer(user_red, k):
    """The function sees the extra offered (a) and the chip (b); each offer follows its rule,
    and the built-ins (seat 1) take every extra."""
    ev = _red_events([f"ut-red:k={k}", "pumpkin"])
    mine = [e for e in ev if e["seat"] == 0]
    assert len(mine) >= 5 and {e["extra"] for e in mine} == {1, 2}
    for e in mine:
        assert e["taken"] == (e["extra"] >= k and e["chip"] != "r1"), e
    assert all(e["taken"] for e in ev if e["seat"] == 1)
    if k == 3:
        assert not any(e["taken"] for e in mine)


def test_user_red_always_equals_builtin(user_red):
    """A user red slot that always takes plays exactly the built-in games; one that declines
    plays different ones."""
    ref = _play(["pumpkin", "balanced", "pumpkin"])
    same = _play(["ut-red-always", "balanced", "ut-red-always"])
    assert np.array_equal(same.out, ref.out) and np.array_equal(same.rounds, ref.rounds)
    assert not np.array_equal(_play(["ut-red:k=3", "balanced", "ut-red:k=3"]).out, ref.out)


# --- user stop rules in `quacks potion` (the registry's stop rules are accepted there) ---------


def test_potion_sampled_user_stop_equals_builtin(user_threshold):
    bag = "start,r1,b1,y1"
    mine = pot.sample(pot.make_query(bag, "ut-white:t=7", 2, 1, BASE), 20_000, seed=6)
    ref = pot.sample(pot.make_query(bag, "white:7", 2, 1, BASE), 20_000, seed=6)
    assert np.array_equal(mine, ref)


def test_potion_exact_user_stop_is_not_never(user_threshold):
    q = pot.make_query("start", "ut-white:t=6", None, 0, BASE)
    try:
        got = pot.exact(q)
    except ValueError:
        return  # refusing a stop rule it cannot enumerate is fine
    want = pot.exact(pot.make_query("start", "white:6", None, 0, BASE))
    assert np.allclose(got, want, atol=1e-12), "exact user stop rule computed as 'never'"


OVERFLOW = """
import numpy as np
from sim.api.game import play_batch
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.registry import StrategyFileError, register
from strategies.slots import N_UF


def stop(P, s, G, R, SP, a, b, M):
    return 0


refused = False
for i in range(N_UF + 2):
    try:
        register(f"overflow{i}", "x", fallback="threshold", stop=stop)
    except StrategyFileError as e:
        refused = "too many" in str(e)
        break
assert refused
idx = np.arange(2)
play_batch(load_ruleset("base"), [parse_strategy("threshold")] * 2, games=idx, rotations=idx,
           seed=1)
print("ok")
"""


def test_refused_registration_does_not_break_later_games():
    r = subprocess.run([sys.executable, "-c", OVERFLOW], capture_output=True, text=True,
                       timeout=600,
                       cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


# --- errors ------------------------------------------------------------------------------------


def test_broken_slot_does_not_compile(tmp_path):
    p = write(tmp_path, "broken.py", """
        from strategies.registry import register


        def stop(P, s, G, R, SP, a, b, M):
            return undefined_thing + 1


        register("ut-broken", "Does not compile.", fallback="threshold", stop=stop)
    """)
    r = invoke("play", "--strategy-file", p, "--strategies", "threshold,balanced", "--games", 5)
    line = assert_user_error(r, "does not compile", "ut-broken", "stop")
    assert "undefined_thing" in line and "nopython" in line  # Numba's own message
    assert "ut-broken" not in REGISTRY


def test_slot_with_wrong_return_type_does_not_compile(tmp_path):
    p = write(tmp_path, "badtype.py", """
        from strategies.registry import register


        def buy(P, s, G, R, SP, a, b, M):
            return "r4"


        register("ut-badtype", "Returns a string.", fallback="balanced", buy=buy)
    """)
    for cmd in (["play", "--strategies", "balanced,random", "--games", 5],
                ["strategies"], ["potion", "--bag", "start", "--n", 10],
                ["replay", "--seed", 1, "--game", 0, "--strategies", "balanced,random"]):
        r = invoke(cmd[0], "--strategy-file", p, *cmd[1:])
        line = assert_user_error(r, "does not compile", "slot 'buy'")
        assert "str" in line or "unicode" in line, line


def test_load_strategy_file_raises_strategy_file_error(tmp_path):
    p = write(tmp_path, "broken3.py", """
        from strategies.registry import register


        def flask(P, s, G, R, SP, a, b, M):
            return P.no_such_attribute


        register("ut-broken3", "Does not compile.", fallback="threshold", flask=flask)
    """)
    with pytest.raises(StrategyFileError, match="does not compile"):
        load_strategy_file(p)


def test_missing_file(tmp_path):
    r = invoke("play", "--strategy-file", tmp_path / "nope.py", "--strategies",
               "threshold,balanced",
               "--games", 5)
    assert_user_error(r, "no such file", "nope.py")
    r = invoke("strategies", "--strategy-file", tmp_path / "nope.py")
    assert_user_error(r, "no such file")


def test_file_registers_nothing(tmp_path):
    p = write(tmp_path, "empty.py", """
        def stop(P, s, G, R, SP, a, b, M):
            return 0
    """)
    r = invoke("play", "--strategy-file", p, "--strategies", "threshold,balanced", "--games", 5)
    assert_user_error(r, "registers no strategy", "register")
    # a refused file is not among the loaded ones, which a Dask run ships to its workers
    from strategies.registry import LOADED_FILES

    assert str(p.resolve()) not in LOADED_FILES


def test_syntax_error(tmp_path):
    p = write(tmp_path, "syntax.py", """
        from strategies.registry import register

        def stop(P, s, G, R, SP, a, b, M:
            return 0
    """)
    r = invoke("potion", "--strategy-file", p, "--bag", "start", "--n", 10)
    assert_user_error(r, "syntax error on line", "syntax.py")


@pytest.mark.parametrize("body,fragments", [
    ("""
        from strategies.registry import register

        def stop(P, s, G, R, SP, a, b, M):
            return 0

        register("ut-badslot", "x", fallback="threshold", stopp=stop)
     """, ["unknown slot(s) stopp", "stop, flask"]),
    ("""
        from strategies.registry import register

        def stop(P, s, G, R, SP, a, b, M):
            return 0

        register("ut-badfallback", "x", fallback="nope", stop=stop)
     """, ["unknown fallback 'nope'", "balanced"]),
    ("""
        from strategies.registry import register

        def stop(P, s, G, R, SP, a, b, M):
            return 0

        register("threshold", "x", stop=stop)
     """, ["'threshold' is a built-in"]),
    ("""
        raise RuntimeError("boom")
     """, ["RuntimeError: boom"]),
])
def test_bad_registrations(tmp_path, body, fragments):
    p = write(tmp_path, "bad.py", body)
    r = invoke("play", "--strategy-file", p, "--strategies", "threshold,balanced", "--games", 5)
    assert_user_error(r, *fragments)
    assert REGISTRY["threshold"].source == "built-in"


def test_user_parameter_out_of_range(careful_copy):
    r = invoke("play", "--strategy-file", careful_copy, "--strategies", "careful:t=50,balanced",
               "--games", 5)
    assert_user_error(r, "out of range", "1 to 20")
    r = invoke("play", "--strategy-file", careful_copy, "--strategies", "careful:q=1,balanced",
               "--games", 5)
    assert_user_error(r, "unknown parameter 'q'", "t, p")
