"""A user's rules file (``--rules-file``, ``plugins = [...]`` in a ruleset): a card declared in one
Python file, the way every shipped card is (``sim.rules.declare``), joins the game.

The example cards of ``experiments/rules/`` are played in scripted rounds worked by hand (pot
track as in tests/test_cards.py: index i gives i coins, VP 1 from space 6; set 1 prices: o1 3, g1
4, b1 5, r1 6), and two shipped cards copied word for word as rules files (only their number and
id changed: ``rules_file_copy``) give the built-in cards' games. A kernel compiled with a rules
file is cached apart (a folder keyed by the files' code), so those games run in one subprocess
that loads every file first: it compiles the round and game kernels once for the set of files
every compiled rules test loads (tests/rules_set.py; minutes the first time, then cached).

Bad files: one line naming the file, the card and the function, exit status 2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rules_set import COPIED, FILES, ROOT, SHIPPED, shared_rules_files

from sim.rules.card_files import RulesFileError, read_card
from sim.rules.card_numbers import add_card_file

QUIET = {"bag": "w1", "draws": "w1"}  # places w1 (reward 2 from the start)


@pytest.fixture(scope="module")
def all_files(tmp_path_factory) -> list[Path]:
    """Every rules file the compiled tests load, in one order: one set of kernels compiled for
    them, shared with the other compiled rules tests (tests/rules_set.py)."""
    return shared_rules_files(tmp_path_factory.mktemp("rules"))


@pytest.fixture(scope="module")
def card_files(all_files) -> list[Path]:
    """The example cards, then the shipped cards copied as rules files."""
    return all_files[:len(FILES) + len(COPIED)]


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _quacks(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *args], capture_output=True,
                          text=True, env=_env(), cwd=ROOT, timeout=timeout)


# --- the declaration, read without importing the kernel -----------------------------------------

def test_the_examples_declare_their_cards_and_hook_points(card_files):
    got = {p.stem: read_card(p) for p in card_files}
    assert got["lucky_clover"].decl.id == "lucky-clover"
    assert got["lucky_clover"].hooks == ("after_placed",) and got["lucky_clover"].draw_time
    assert got["bottled_courage"].hooks == ("after_brewing",)
    assert got["bottled_courage"].decl.words == (("pay", 1),)
    assert got["market_day"].hooks == ("buy_coins",) and not got["market_day"].draw_time
    assert all(g.decl.number == 0 for g in got.values())  # numbered when loaded
    assert got["well_stirred_copy"].decl.id == "well-stirred-copy"
    assert got["well_stirred_copy"].hooks == read_card(SHIPPED / "well_stirred.py").hooks


def _write(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


HEADER = """\
from sim.rules.declare import BLUE, card

CARD = card(0, "my-card", BLUE, name="My Card", doc="Does something.")
"""


def test_a_function_that_is_no_hook_point_is_named(tmp_path):
    p = _write(tmp_path, "typo.py", HEADER + "\n\ndef after_chips(P, s, G):\n    return False\n")
    with pytest.raises(RulesFileError, match=r"typo.py: card 'my-card', function after_chips: no "
                       "such hook point"):
        read_card(p)


def test_an_argument_the_hook_point_does_not_give_is_named(tmp_path):
    p = _write(tmp_path, "arg.py", HEADER + "\n\ndef die_rolls(G, P):\n    return 2\n")
    with pytest.raises(RulesFileError, match=r"function die_rolls: argument 'P' is not one the "
                       r"hook point gives \(G\)"):
        read_card(p)


def test_a_taken_id_and_a_file_that_does_not_parse_are_refused(tmp_path):
    p = _write(tmp_path, "dup.py", HEADER.replace("my-card", "charity"))
    with pytest.raises(RulesFileError, match=r"dup.py: card 'charity': the id is taken \(card 3\)"):
        add_card_file(p)
    p = _write(tmp_path, "broken.py", HEADER + "\ndef end_of_round(P:\n")
    with pytest.raises(RulesFileError, match=r"broken.py: syntax error on line 5"):
        add_card_file(p)
    p = _write(tmp_path, "nocard.py", "X = 1\n")
    with pytest.raises(RulesFileError, match="declares no card"):
        add_card_file(p)


@pytest.mark.parametrize(("body", "message"), [
    (HEADER.replace("my-card", "charity"), "card 'charity': the id is taken (card 3)"),
    (HEADER + "\n\ndef after_chips(P, s, G):\n    return False\n",
     "card 'my-card', function after_chips: no such hook point"),
])
def test_the_cli_refuses_a_bad_rules_file_in_one_line(tmp_path, body, message):
    p = _write(tmp_path, "bad.py", body)
    got = _quacks("rules", "--rules-file", str(p), "--json")
    assert got.returncode == 2
    assert message in got.stderr and len(got.stderr.strip().splitlines()) == 1
    assert "Traceback" not in got.stderr


def test_quacks_rules_lists_a_users_card():
    got = _quacks("rules", "--json", "--rules-file", str(FILES[0]))
    assert got.returncode == 0, got.stderr
    cards = json.loads(got.stdout)["cards"]
    assert cards[-1] == {"number": 28, "id": "lucky-clover", "name": "Lucky Clover",
                         "timing": "blue", "text": "Every orange chip a player places this round "
                         "gives them 1 VP at once.", "needs": ""}


def test_a_ruleset_names_its_plugins_relative_to_itself(tmp_path):
    toml = tmp_path / "clover.toml"
    rel = os.path.relpath(FILES[0], tmp_path)
    toml.write_text(f'extends = "base"\nplugins = ["{rel}"]\n[cards]\nextra = ["lucky-clover"]\n',
                    encoding="utf-8")
    got = _quacks("rules", "show", str(toml), "--json")
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["cards"]["extra"] == ["lucky-clover"]
    toml.write_text('extends = "base"\n[cards]\nextra = ["lucky-clover"]\n', encoding="utf-8")
    got = _quacks("rules", "show", str(toml), "--json")  # without the plugin: no such card
    assert got.returncode == 2 and "cards.extra" in got.stderr


# --- compiled: the examples' rounds, the rewrites' games ------------------------------------------

SCRIPT = r"""
import json, sys
import numpy as np
from sim.cli.user_input import load_rules_files
load_rules_files(sys.argv[1:])
from sim.api.game import play_batch
from sim.api.events import event_text
from sim.api.round_file import play_round_data
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.records import RD_CARD
from sim.rules.card_numbers import card_number
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

def play(card, *players, sets=()):
    d = {"players": len(players), "round": 1, "die": ["vp1"] * 4,
         "player": [dict(p) for p in players], "set": list(sets)}
    if card:
        d["card"] = card
    res = play_round_data(d, "test round")
    gains = [[e["seat"], e["effect"], e["amount"]] for e in res["events"]
             if e.get("effect") in ("vp", "rubies")]
    own = [[e, event_text(e, [f"p{i}" for i in range(len(players))])] for e in res["events"]
           if e["event"] == "courage"]  # a user card's own event (Bottled Courage)
    return {"players": res["players"], "gains": gains, "own": own}

out = {}
QUIET = {"bag": "w1", "draws": "w1"}
clover = ({"bag": "o1x2,w1", "draws": "o1,w1,o1"}, QUIET)
out["clover"] = play("lucky-clover", *clover)
out["clover-none"] = play("", *clover)
out["courage"] = play("bottled-courage", {**QUIET, "rubies": 2},
                      {**QUIET, "rubies": 2, "card_choice": False},
                      {"bag": "w3x3", "draws": "w3,w3,w3", "rubies": 3}, {**QUIET, "rubies": 1})
market = ({"bag": "o1", "draws": "o1", "buy": "o1"}, {"bag": "o1", "draws": "o1", "buy": "g1"})
out["market"] = play("market-day", *market)
try:
    play("", *market)
    out["market-none"] = ""
except Exception as e:
    out["market-none"] = str(e)

sprouts = ({"bag": "g1,g2,w1", "draws": "g1,w1,g2"}, QUIET)
out["sprouts"] = play("", *sprouts, sets=["books.green=7"])
out["sprouts-none"] = play("", *sprouts, sets=["books.green=1"])

def games(sets, card_from=0, card_to=0):
    rs = load_ruleset("base", ["cards.deck=false", *sets])
    lineup = [parse_strategy(x) for x in ("balanced", "greedy", "reckless")]
    idx = np.arange(300, dtype=np.int64)
    res = play_batch(rs, lineup, games=idx // 3, rotations=idx % 3, seed=11, detail=True)
    rounds = np.array(res.rounds)
    card = rounds[..., RD_CARD]  # the round's card number: the copy's where the built-in's was
    rounds[..., RD_CARD] = np.where(card == card_from, card_to, card)
    return [int(x) for x in np.asarray(res.out).ravel()] + [int(x) for x in rounds.ravel()]

for built_in, copy in (("magic-potion", "magic-potion-copy"),
                       ("well-stirred", "well-stirred-copy")):
    a = games([f"cards.force={built_in}"], card_number(built_in), card_number(copy))
    b = games([f"cards.force={copy}"])
    out[built_in] = [a == b, sum(a) != 0, card_number(copy)]
mask = [int(rules_scalars(load_ruleset("base", s))[L.R_CARD_MASK])
        for s in ([], ['cards.extra=["lucky-clover"]'])]
out["mask"] = [(m >> 28) & 1 for m in mask] + [bin(mask[0]).count("1"), bin(mask[1]).count("1")]
extra = load_ruleset("base", ['cards.extra=["lucky-clover"]'])
res = play_batch(extra, [parse_strategy("balanced")] * 3, games=np.arange(30, dtype=np.int64),
                 rotations=np.zeros(30, dtype=np.int64), seed=3, detail=True)
out["deck"] = int(np.asarray(res.rounds).sum() != 0)
from sim.kernel import round as K
out["round_kernels"] = [len(K.play_round.signatures), len(K.play_rounds.signatures)]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def compiled(all_files):
    got = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, all_files)], capture_output=True,
                         text=True, env=_env(), cwd=ROOT, timeout=3600)
    assert got.returncode == 0, got.stderr[-3000:]
    return json.loads(got.stdout.strip().splitlines()[-1])


def test_round_files_and_games_share_one_compiled_round(compiled):
    # the round is compiled once, inlined in play_rounds, for games and round files alike: a
    # round file played play_round as an entry point of its own, a second full compile of the
    # round (in every cache: the shared one and each set of rules files)
    assert compiled["round_kernels"] == [0, 1]


def test_lucky_clover_pays_each_orange_chip_placed(compiled):
    # Seat 0: o1 -> 1, w1 -> 2, o1 -> 3: two orange chips, 1 VP each at once (the same round
    # without the card: 2 VP fewer, everything else alike).
    got, none = compiled["clover"], compiled["clover-none"]
    assert [p["chip"] for p in got["players"][0]["placements"]] == ["o1", "w1", "o1"]
    assert got["gains"] == [[0, "vp", 1], [0, "vp", 1]]
    assert got["players"][0]["score"] == none["players"][0]["score"] + 2
    assert got["players"][1]["score"] == none["players"][1]["score"]


def test_bottled_courage_pays_a_ruby_for_two_vp(compiled):
    # Seat 0 (2 rubies, built-in answer: pay) -> 1 ruby, 2 VP; seat 1 declines (card_choice
    # false); seat 2 exploded (w3 x3 = 9 > 7): not asked; seat 3 (1 ruby, built-in: keep it).
    got = compiled["courage"]
    assert got["gains"] == [[0, "rubies", -1], [0, "vp", 2]]
    # its own event (declared with the card, recorded with event_code): seats 0, 1, 3 asked
    assert got["own"] == [
        [{"round": 1, "event": "courage", "seat": 0, "rubies": 2, "paid": True},
         "  p0 (seat 0): bottled courage: pays a ruby for 2 VP"],
        [{"round": 1, "event": "courage", "seat": 1, "rubies": 2, "paid": False},
         "  p1 (seat 1): bottled courage: keeps the rubies"],
        [{"round": 1, "event": "courage", "seat": 3, "rubies": 1, "paid": False},
         "  p3 (seat 3): bottled courage: keeps the rubies"]]
    assert got["players"][2]["exploded"]
    assert [p["rubies"] for p in got["players"]][:2] == [1, 2]


def test_market_day_gives_two_coins_more_to_spend(compiled):
    # o1 -> space 1, reward space 2: 2 coins, + 2 = 4: an o1 (3) and a g1 (4) are bought; the
    # same round without the card is refused (2 coins do not pay for an o1).
    got, none = compiled["market"], compiled["market-none"]
    assert [p["coins"] for p in got["players"]] == [2, 2]
    assert [p["bought"] for p in got["players"]] == [["o1"], ["g1"]]
    assert "seat 0" in none and "o1" in none


@pytest.mark.parametrize("card", ["magic-potion", "well-stirred"])
def test_a_shipped_card_rewritten_as_a_rules_file_plays_the_same_games(compiled, card):
    same, played, number = compiled[card]
    assert played and same and number > 27


def test_a_users_card_joins_the_deck_only_with_cards_extra(compiled):
    assert compiled["mask"] == [0, 1, 24, 25]
    assert compiled["deck"] == 1


def test_green_sprouts_scores_each_green_chip_placed(compiled):
    # Green Set 7 (experiments/rules/green_sprouts.py). Seat 0: g1 -> space 1 (+1 VP at once),
    # w1 -> 2, g2 -> 4 (+2 VP at once): 3 VP more than the same round with green Set 1 (whose
    # effect is at B, for a green chip last or next-to-last: a ruby, not VP). Seat 1 alike.
    got, none = compiled["sprouts"], compiled["sprouts-none"]
    assert [p["chip"] for p in got["players"][0]["placements"]] == ["g1", "w1", "g2"]
    assert got["players"][0]["score"] == none["players"][0]["score"] + 3
    assert got["players"][1]["score"] == none["players"][1]["score"]


def test_a_report_records_its_rules_files_and_replays_from_them(compiled, all_files, tmp_path):
    # the same files in the same order as the compiled fixture: its kernels, cached
    out = tmp_path / "rep"
    files = [a for f in all_files for a in ("--rules-file", str(f))]
    got = _quacks("tournament", *files, "--set", 'cards.extra=["lucky-clover"]', "--strategies",
                  "balanced,greedy", "--players", "2", "--games", "8", "--out", str(out),
                  "--no-plots", "--quiet")
    assert got.returncode == 0, got.stderr[-2000:]
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert [Path(f["path"]) for f in run["rules_files"]] == all_files
    assert run["rules_files"][0]["rules"] == ["lucky-clover"] and run["rules_files"][0]["code"]
    assert "--rules-file" in run["command"]
    got = _quacks("replay", str(out), "--row", "0", "--json")
    assert got.returncode == 0, got.stderr[-2000:]
    rep = json.loads(got.stdout)
    assert rep["matches"] and rep["notes"] == []  # the report's VP and ranks, replayed
