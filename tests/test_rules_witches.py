"""The herb witches as rules: each declares herself in her module (``WITCH = witch(...)``,
``sim.rules.declare``), the witch hook table is generated from the declarations, and a user's
witch in a rules file (``--rules-file``, ``plugins = [...]``) plays when ``witches.fixed`` names
her, or is dealt at random with her group's witches (``witches.extra``).

The example witch (``experiments/rules/pumpkin_purse.py``) is played in a scripted round worked
by hand (pot track: index i gives i coins up to 5; Set 1 prices o1 3, g1 4, r1 6), and a shipped
witch rewritten as a user's file (colours, written to a temporary folder with only her id and
number changed) plays the built-in witch's games. The compiled games run in a subprocess for each
file (one user witch is loaded at a time; the kernels are cached apart, keyed by the file's
code).

Bad files: one line naming the file, the witch and the function, exit status 2.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rules_set import shared_rules_files

from sim.rules.card_files import RulesFileError
from sim.rules.witch_files import read_witch, shipped_witches

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "experiments" / "rules" / "pumpkin_purse.py"
WITCHES_DIR = ROOT / "sim" / "kernel" / "witches"


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _quacks(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *args], capture_output=True,
                          text=True, env=_env(), cwd=ROOT, timeout=timeout)


# --- the shipped witches declare themselves; the table is generated -----------------------------

def test_every_shipped_witch_declares_herself_with_todays_numbers():
    got = {w.decl.id: w for w in shipped_witches()}
    assert [w.decl.number for w in got.values()] == list(range(1, 13))
    assert got["double-coins"].hooks == ("before_buying", "final_coins")
    assert got["six-chips"].hooks == ("between_draws",) and got["six-chips"].decl.first_round == 6
    from sim.rules.witch_numbers import witch_defaults

    # the built-in strategy's witch parameters, as WITCH_DECK carried them
    assert witch_defaults() == (0.0, 1, 6, 4, 1, 3, 1, 2, 2, 1, 1, 1, 1, 6, 2.0, 20, 6, 12, 4, 8,
                                4, 4, 0.25)


def test_the_hook_table_is_generated_and_the_core_names_no_witch():
    from sim.kernel.witches import called_hooks, hooks, potion_hooks

    source = hooks.SOURCE + potion_hooks.SOURCE + called_hooks.SOURCE
    for w in shipped_witches():
        for point in w.hooks:
            assert f"{w.module}.{point}(" in source, (w.decl.id, point)
    assert potion_hooks.BETWEEN_DRAWS == (1 << 2) | (1 << 3)  # six chips, whites back
    core = [WITCHES_DIR / n for n in ("hooks.py", "potion_hooks.py", "called_hooks.py",
                                      "table.py", "common.py")]
    core += [ROOT / "sim" / "kernel" / n
             for n in ("brew.py", "brewing.py", "evaluation.py", "costs.py")]
    modules = {w.module for w in shipped_witches()}
    for path in core:  # no name, attribute or import in the code is a witch's module
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {getattr(n, "id", None) or getattr(n, "attr", None) for n in ast.walk(tree)}
        names |= {part for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                  for part in [*(n.module or "").split("."), *(a.name for a in n.names)]}
        assert not names & modules, f"{path.name} names {sorted(names & modules)}"


def test_the_example_declares_her_hook_point_and_no_number():
    src = read_witch(EXAMPLE)
    assert (src.decl.id, src.decl.group, src.decl.number) == ("pumpkin-purse", "buying", 0)
    assert src.hooks == ("before_buying",)
    assert [(e.name, e.b, e.c) for e in src.decl.events] == [("witch", "pumpkins", "coins")]


# --- bad input: one line, exit 2 ------------------------------------------------------------------

HEADER = """\
from sim.rules.declare import witch

WITCH = witch(0, "my-witch", "points", name="My Witch", doc="Does something.")
"""


def _write(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


def test_a_function_that_is_no_witch_hook_point_is_named(tmp_path):
    p = _write(tmp_path, "typo.py", HEADER + "\n\ndef at_point(P, s, G):\n    return\n")
    with pytest.raises(RulesFileError, match=r"typo.py: witch 'my-witch', function at_point: no "
                       "such hook point"):
        read_witch(p)


@pytest.mark.parametrize(("body", "message"), [
    (HEADER.replace("my-witch", "colours"), "bad.py: witch 'colours': the id is taken (witch 9)"),
    (HEADER + "\n\ndef at_point(P, s, G):\n    return\n",
     "bad.py: witch 'my-witch', function at_point: no such hook point"),
    (HEADER.replace('"points"', '"cauldron"'),
     "bad.py: WITCH = witch(...) on line 3: witch 'my-witch': group 'cauldron', expected one of "
     "potion, buying, points"),
    (HEADER + "\n\ndef at_points(P, s, coins):\n    return\n",
     "bad.py: witch 'my-witch', function at_points: argument 'coins' is not one the hook point "
     "gives"),
])
def test_the_cli_refuses_a_bad_witch_file_in_one_line(tmp_path, body, message):
    p = _write(tmp_path, "bad.py", body)
    got = _quacks("rules", "--rules-file", str(p), "--json")
    assert got.returncode == 2, got.stderr
    assert message in got.stderr and len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert "Traceback" not in got.stderr


def test_a_second_users_witch_is_refused(tmp_path):
    p = _write(tmp_path, "second.py", HEADER)
    got = _quacks("rules", "--rules-file", str(EXAMPLE), "--rules-file", str(p), "--json")
    assert got.returncode == 2
    assert "second.py: witch 'my-witch': room for one user witch only ('pumpkin-purse' is " \
        "loaded)" in got.stderr and len(got.stderr.strip().splitlines()) == 1


def test_quacks_rules_lists_a_users_witch():
    got = _quacks("rules", "--json", "--rules-file", str(EXAMPLE))
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["witches"][-1] == {
        "id": "pumpkin-purse", "number": 14, "group": "buying", "phase": "buying (step E)",
        "text": "Before buying, 1 extra coin for every orange chip in the player's pot."}


def test_a_ruleset_fixes_a_plugins_witch_in_her_group(tmp_path):
    toml = tmp_path / "purse.toml"
    rel = os.path.relpath(EXAMPLE, tmp_path)
    toml.write_text(f'extends = "herb-witches"\nplugins = ["{rel}"]\n[witches]\n'
                    'fixed = ["pumpkin-purse"]\n', encoding="utf-8")
    got = _quacks("rules", "show", str(toml), "--json")
    assert got.returncode == 0, got.stderr
    in_play = {w["id"]: w["in_play"] for w in json.loads(got.stdout)["witches"]}
    assert in_play["pumpkin-purse"] == "fixed"
    assert in_play["upgrade"] == "never" and in_play["colours"] == "random"
    toml.write_text('extends = "herb-witches"\n[witches]\nfixed = ["pumpkin-purse"]\n',
                    encoding="utf-8")
    got = _quacks("rules", "show", str(toml), "--json")  # without the plugin: no such witch
    assert got.returncode == 2 and "witches.fixed" in got.stderr


# --- compiled: the example's round, the rewrite's games ---------------------------------------

SCRIPT = r"""
import json, sys
import numpy as np
from sim.cli.user_input import load_rules_files
load_rules_files(sys.argv[2:])
import sim.api.game as AG
from sim.api.game import play_batch
from sim.api.round_file import play_round_data
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

def play(witches, *players):
    d = {"players": len(players), "round": 1, "rules": "herb-witches", "die": ["vp1"] * 4,
         "witches": list(witches), "player": [dict(p) for p in players]}
    try:
        res = play_round_data(d, "test round")
    except Exception as e:
        return str(e)
    return {"players": res["players"],
            "witch": [e for e in res["events"] if e["event"] == "witch"]}

out = {}
EXTRA_GAMES = 400
if sys.argv[1] == "purse":
    three = {"bag": "o1x3,w1", "draws": "o1,o1,o1", "buy": "r1"}
    two = {"bag": "o1x2,w1", "draws": "o1,o1", "buy": "o1"}
    out["purse"] = play(["pumpkin-purse"], three, two)
    out["purse-none"] = play([], three, two)
    # witches.extra: she joins the buying group's deal; games and the witches-called column
    rs = load_ruleset("herb-witches", ["cards.deck=false", 'witches.extra=["pumpkin-purse"]'])
    lineup = [parse_strategy(x) for x in ("balanced", "greedy")]
    idx = np.arange(EXTRA_GAMES, dtype=np.int64)
    res = play_batch(rs, lineup, games=idx, rotations=idx % 2, seed=5)
    wit = np.array(res.out)[..., AG.O_WITCHES].astype(np.int64)
    from sim.rules.witches import WITCHES
    calls = sum((wit >> w.number) & 1 for w in WITCHES)  # every declared witch's bit
    table = AG.summarize(res, rs.game("rounds"))
    out["extra"] = {"in_play": int(((wit[:, 0] >> 30) & 1).sum()),
                    "called": int(((wit >> 14) & 1).sum()), "calls": int(calls.sum()),
                    "witches_called": float(table["witches_called"].sum() * EXTRA_GAMES)}
    # witch_off names her: that seat never calls her, the same strategy without it does
    rs = load_ruleset("herb-witches", ["cards.deck=false", 'witches.fixed=["pumpkin-purse"]'])
    specs = ("balanced", "balanced:witch_off=pumpkin-purse")
    idx = np.arange(200, dtype=np.int64)
    res = play_batch(rs, [parse_strategy(x) for x in specs], games=idx, rotations=idx % 2,
                     seed=5)
    wit = np.array(res.out)[..., AG.O_WITCHES].astype(np.int64)
    who = res.seat_strategy()
    out["off"] = {x: int(((wit[who == j] >> 14) & 1).sum()) for j, x in enumerate(specs)}
    print(json.dumps(out))
    sys.exit(0)

def games(witch):
    rs = load_ruleset("herb-witches", ["cards.deck=false", f'witches.fixed=["{witch}"]'])
    lineup = [parse_strategy(x) for x in ("balanced", "greedy", "reckless")]
    idx = np.arange(300, dtype=np.int64)
    res = play_batch(rs, lineup, games=idx // 3, rotations=idx % 3, seed=11, detail=True)
    return np.array(res.out).astype(np.int64), np.array(res.rounds).astype(np.int64)

a_out, a_rounds = games("colours")
b_out, b_rounds = games("colours-copy")
wit = a_out[..., AG.O_WITCHES]
called = int(((wit >> 9) & 1).sum())
# the built-in's bits (9 called, 25 in play) where the copy's (14, 30) are
moved = wit & ~((1 << 9) | (1 << 25)) | ((wit >> 9) & 1) << 14 | ((wit >> 25) & 1) << 30
a_out[..., AG.O_WITCHES] = moved
out["rewrite"] = [bool((a_out == b_out).all()), bool((a_rounds == b_rounds).all()), called]
print(json.dumps(out))
"""


def _script(mode: str, files: list) -> dict:
    got = subprocess.run([sys.executable, "-c", SCRIPT, mode, *map(str, files)],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=3600)
    assert got.returncode == 0, got.stderr[-3000:]
    return json.loads(got.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """The compiled rules tests' one set of rules files (tests/rules_set.py: she is its witch):
    they share its compiled kernels."""
    return shared_rules_files(tmp_path_factory.mktemp("rules"))


@pytest.fixture(scope="module")
def compiled(files):
    """Pumpkin purse's rounds, played with the shared set of rules files loaded."""
    return _script("purse", files)


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory):
    """The colours witch's games and her copy's: one user witch is loaded at a time
    (witch_files.MAX_WITCH), so the copy has a process, and a compiled set, of its own."""
    text = (WITCHES_DIR / "colours.py").read_text(encoding="utf-8")
    copy = text.replace('WITCH = witch(9, "colours",', 'WITCH = witch(0, "colours-copy",')
    assert copy != text
    path = tmp_path_factory.mktemp("rules") / "colours_copy.py"
    path.write_text(copy, encoding="utf-8")
    return _script("rewrite", [path])


def test_pumpkin_purse_gives_a_coin_for_each_orange_chip(compiled):
    # Seat 0: o1, o1, o1 on spaces 1-3, reward space 4: 4 coins, + 3 orange chips = 7: an r1 (6).
    # Seat 1: two orange chips, 2 coins more would be under her built-in threshold (3): she is
    # not called, the seat keeps its buying penny and buys an o1 (3) with its 3 coins. Without
    # her the same round is refused: 4 coins do not pay for seat 0's r1.
    got, none = compiled["purse"], compiled["purse-none"]
    assert [p["bought"] for p in got["players"]] == [["r1"], ["o1"]]
    assert [(e["seat"], e["witch"], e["pumpkins"], e["coins"]) for e in got["witch"]
            if e["witch"] == "pumpkin-purse"] == [(0, "pumpkin-purse", 3, 3)]
    assert isinstance(none, str) and "seat 0" in none and "r1" in none


def test_witches_extra_deals_her_in_her_group_and_counts_her_calls(compiled):
    # exact: 1 in 5 games (sim.rules.witch_deal; tests/test_witch_deal.py checks the kernel's
    # deal on 20,000 games); here the ruleset reaches the kernel: 400 games, 99.9% Wilson
    from sim.stats.intervals import wilson

    got = compiled["extra"]
    lo, hi = wilson(got["in_play"], 400, 3.2905267314919255)
    assert lo <= 0.2 <= hi, (got["in_play"], lo, hi)
    # the play table's witches called per game counts her (bit 14) with the shipped witches
    assert got["called"] > 0 and got["witches_called"] == pytest.approx(got["calls"])


def test_witch_off_turns_a_rules_files_witch_off(compiled):
    # her off bit (SP[s, SLOT_WITCH, USER_OFF]); before, witch_off=pumpkin-purse wrote WITCH_OFF
    # over a shipped witch's threshold (offset 14) and she was still called
    got = compiled["off"]
    assert got["balanced"] > 0 and got["balanced:witch_off=pumpkin-purse"] == 0, got


@pytest.mark.parametrize(("extra", "message"), [
    ('["colours"]', "got ['colours']"),  # a shipped witch is dealt already
    ('["nope"]', "got ['nope']"),
    ('["pumpkin-purse"]', "got ['pumpkin-purse']"),  # her file not loaded
])
def test_witches_extra_refuses_a_witch_not_from_a_rules_file_in_one_line(extra, message):
    got = _quacks("rules", "show", "herb-witches", "--set", f"witches.extra={extra}", "--json")
    assert got.returncode == 2 and "Traceback" not in got.stderr
    line = got.stderr.strip()
    assert len(line.splitlines()) == 1 and "key 'witches.extra'" in line and message in line


def test_quacks_rules_show_her_in_the_random_deal_with_witches_extra():
    def in_play(*over):
        got = _quacks("rules", "show", "herb-witches", "--rules-file", str(EXAMPLE), *over,
                      "--json")
        assert got.returncode == 0, got.stderr
        return {w["id"]: w["in_play"] for w in json.loads(got.stdout)["witches"]}

    assert in_play()["pumpkin-purse"] == "never"
    got = in_play("--set", 'witches.extra=["pumpkin-purse"]')
    assert got["pumpkin-purse"] == "random" and got["upgrade"] == "random"
    got = in_play("--set", 'witches.extra=["pumpkin-purse"]', "--set", 'witches.fixed=["upgrade"]')
    assert got["pumpkin-purse"] == "never" and got["upgrade"] == "fixed"


@pytest.mark.slow  # a compiled set of its own (a second user witch cannot join the shared one)
def test_a_shipped_witch_rewritten_as_a_rules_file_plays_the_same_games(rewritten):
    same_out, same_rounds, called = rewritten["rewrite"]
    assert called > 0 and same_out and same_rounds


def test_a_report_records_her_file_and_replays_from_it(compiled, files, tmp_path):
    # the shared set, as the fixture's process loaded it: its kernels, cached
    out = tmp_path / "rep"
    loads = [a for f in files for a in ("--rules-file", str(f))]
    got = _quacks("tournament", "--rules", "herb-witches", *loads, "--set",
                  'witches.fixed=["pumpkin-purse"]', "--strategies", "balanced,greedy",
                  "--players", "2", "--games", "8", "--out", str(out), "--no-plots", "--quiet")
    assert got.returncode == 0, got.stderr[-2000:]
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert [Path(f["path"]) for f in run["rules_files"]] == files
    assert files[-1] == EXAMPLE
    assert run["rules_files"][-1]["rules"] == ["pumpkin-purse"] and run["rules_files"][-1]["code"]
    got = _quacks("replay", str(out), "--row", "0", "--json")
    assert got.returncode == 0, got.stderr[-2000:]
    rep = json.loads(got.stdout)
    assert rep["matches"] and rep["notes"] == []  # the report's VP and ranks, replayed
