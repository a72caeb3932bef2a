"""The ingredient books as plugins (issue 46): every shipped book declares itself in its module,
one generated table (``sim.kernel.books.hooks``) calls the shipped and the user's books through the
same hook points, a shipped book's text run as a user's rules file plays the same games, and a
user's book is measured by ``balance`` and ``compare``."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import test_numba_cache
from rules_set import REWRITTEN, USER_SET, shared_rules_files

from sim import numba_cache as nc
from sim.kernel.books import gain_hooks, hooks
from sim.kernel.books.table import GAIN_POINTS
from sim.rules.book_files import SHIPPED_BOOKS_FOLDER, shipped_books
from sim.rules.books import books
from sim.rules.card_files import read_book
from sim.rules.declare import BOOK_FLAGS, BOOK_HOOKS, BOOK_SPECIAL_FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent
SPROUTS = ROOT / "experiments" / "rules" / "green_sprouts.py"
NOT_BOOKS = {"__init__", "common", "hooks", "table", "gain_hooks"}  # the package's own modules


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


# --- the declarations ----------------------------------------------------------------------------

def test_every_shipped_book_module_declares_itself_and_names_its_hooks():
    found = {src.path.stem: src for src in shipped_books()}
    modules = {p.stem for p in SHIPPED_BOOKS_FOLDER.glob("*.py")} - NOT_BOOKS
    assert set(found) == modules  # every module is a declared book
    assert set(found) == {b.module for b in books() if b.module}  # every book with an effect
    for stem, src in found.items():
        assert stem == f"{src.decl.colour}_{src.decl.set}" and src.hooks, stem
        tree = ast.parse(src.path.read_text(encoding="utf-8"))
        public = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                  and not n.name.startswith("_")]
        assert set(public) <= set(BOOK_HOOKS) | set(BOOK_SPECIAL_FUNCTIONS), stem
        assert set(src.hooks) == set(public) - set(BOOK_SPECIAL_FUNCTIONS), stem
        assert set(src.decl.flags) <= set(BOOK_FLAGS)
    # what the rules layer shows of a shipped book is its declaration
    shown = {(b.colour, b.set): b for b in books() if b.module and b.side is None}
    for src in found.values():
        if src.decl.id == "black-1":  # the base black book: two sides, their texts in sim.rules
            continue
        b = shown[(src.decl.colour, src.decl.set)]
        assert (b.timing, b.text, b.choices) == (src.decl.timing, src.decl.doc, src.decl.choices)


# --- the generated table -------------------------------------------------------------------------

def test_the_book_table_is_generated_and_its_file_names_no_book():
    text = Path(hooks.__file__).read_text(encoding="utf-8")
    code = text.split('"""', 2)[2]  # below the docstring
    for src in shipped_books():
        assert not re.search(rf"\b{src.path.stem}\b", code), src.path.stem
        for point in src.hooks:
            assert f"{src.path.stem}.{point}(" in hooks.SOURCE + gain_hooks.SOURCE, \
                (src.path.stem, point)
    assert not re.search(r"R_BOOK \+ [A-Z]", code)  # no colour's book number tested by hand


def test_the_cards_book_hooks_are_stamped_with_the_books_that_have_them():
    # sim.kernel.books.gain_hooks (the hook points the cards call) imports only the books with a
    # function of its points: its cache-stamp lines name exactly those
    text = Path(gain_hooks.__file__).read_text(encoding="utf-8")
    named = set(re.findall(r"^# numba-cache-depends: sim/kernel/books/(\w+)\.py$", text, re.M))
    assert named == {s.path.stem for s in shipped_books() if set(s.hooks) & set(GAIN_POINTS)}
    assert named and all(f"{m}." in gain_hooks.SOURCE for m in named)


def test_per_chip_hooks_are_the_hand_written_chain_of_compares():
    # one compare of the chip's colour when no book acts on it, then the book chosen
    src = hooks.SOURCE
    assert ("def not_placed(P, s, t, G, R, E):\n    c = TYPE_COLOUR[t]\n    if c == 4:  # red\n"
            "        if R[R_BOOK + 4] == 2:\n            return red_2.not_placed(P, s, t, G, E)\n"
            "    return False\n") in src
    assert ("def doubled_move(c, move, R):\n    if c == 8:  # locoweed\n        if R[R_BOOK + 8] "
            "== 5:\n            return locoweed_5.doubled_move(move)\n    return move\n") in src
    assert ("    return c == 5 or (c == 3 and 1 <= R[R_BOOK + 3] <= 6) or (c == 4 and "
            "R[R_BOOK + 4] == 6)\n") in src
    # red Set 4 acts on white chips (its declared chips), before a white chip's own move
    assert ("    if c == 0:  # white\n        if R[R_BOOK + 4] == 4:\n            return "
            "red_4.chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF)\n        return TYPE_VALUE[t]"
            ) in src
    assert "def grants_at_b(R):\n    return R[R_BOOK + 2] == 2 or R[R_BOOK + 6] == 2 or " \
           "R[R_BOOK + 6] == 4\n" in src


USER_BOOK = '''
from sim.rules.declare import book

BOOK = book("orange", 7, "B", name="Pumpkin Pie", flags=("grants_at_b",), doc="A test book.")


def chip_move(P, s, t, G):
    return 3


def green_at_b(P, s, die):
    return


def chip_bought(P, s, t):
    return True
'''


def test_a_users_book_gets_the_shipped_books_hook_points(tmp_path):
    # generated with a user's book (the source only: nothing compiled): it is called where the
    # shipped books are, tested against its own colour and set
    path = tmp_path / "pie.py"
    path.write_text(USER_BOOK, encoding="utf-8")
    user = read_book(path)
    assert user.hooks == ("chip_move", "green_at_b", "chip_bought")
    module = types.ModuleType("pie")
    exec(compile(USER_BOOK, str(path), "exec"), module.__dict__)  # noqa: S102
    modules = {**{s.path.stem: __import__(f"sim.kernel.books.{s.path.stem}", fromlist=["x"])
                  for s in shipped_books()}, "user_book_orange_7": module}
    src = hooks.generate([*hooks.SOURCES, user], modules)
    assert ("    if c == 1:  # orange\n        if R[R_BOOK + 1] == 7:\n            return "
            "user_book_orange_7.chip_move(P, s, t, G)\n    if c == 4:  # red") in src
    assert "    if R[R_BOOK + 1] == 7:\n        user_book_orange_7.green_at_b(P, s, die)\n" in src
    assert "    if R[R_BOOK + 1] == 7:\n        return user_book_orange_7.chip_bought(P, s, t)\n" \
           in src
    assert "R[R_BOOK + 6] == 4 or R[R_BOOK + 1] == 7\n" in src
    assert src.replace("user_book_orange_7", "") != hooks.SOURCE


# --- the compiled code's cache -------------------------------------------------------------------

tree = test_numba_cache.tree  # the fixture: a copy of the sources, its stamps after edits

def test_a_books_text_edit_recompiles_nothing_and_a_rule_edit_only_its_users(tree):
    stamps = tree  # tests/test_numba_cache.py's copy of the sources, stamped after edits
    before = stamps()
    text = stamps([("sim/kernel/books/red_1.py", "With 1-2 orange chips", "With one or two "
                    "orange chips")])
    assert [m for m in before if before[m] != text[m]] == []
    # an event's text, declared with its book (event(..., text=...)): no stamp changes either
    text = stamps([("sim/kernel/books/blue_2.py", '"protected for the next {draws:~draw}"',
                    '"protected for {draws:~draw}"')])
    assert [m for m in before if before[m] != text[m]] == []
    book = "sim/kernel/books/red_1.py"
    after = stamps([(book, "return 2 if n_orange >= 3", "return 3 if n_orange >= 3")])
    hit = {m for m in before if before[m] != after[m]}
    assert book in hit and "sim/kernel/brew.py" in hit and "sim/kernel/game.py" in hit
    assert hit == {m for m in before if book in nc.closure(m)}
    assert not [m for m in hit if m.startswith(("sim/kernel/books/", "sim/kernel/cards/"))
                and m not in (book, "sim/kernel/books/hooks.py")]


# --- compiled: a shipped book as a user's rules file, a user's book measured --------------------

GAMES = """
import json, sys
import numpy as np
from sim.cli.user_input import load_rules_files
load_rules_files(sys.argv[1:])
from sim.api.game import play_batch
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

def games(sets):
    rs = load_ruleset("base", ["cards.deck=false", *sets])
    lineup = [parse_strategy(x) for x in ("balanced", "greedy", "reckless")]
    idx = np.arange(240, dtype=np.int64)
    res = play_batch(rs, lineup, games=idx // 3, rotations=idx % 3, seed=5, detail=True)
    return [int(x) for x in np.asarray(res.out).ravel()] + \\
        [int(x) for x in np.asarray(res.rounds).ravel()]

from sim.api.round_file import play_round_data
from sim.rules.books import book_questions

def play_round(sets, *players):
    d = {"players": len(players), "round": 1, "die": ["vp1"] * 4,
         "player": [dict(p) for p in players], "set": list(sets)}
    return play_round_data(d, "test round")["players"]

out = {}
quiet = {"bag": "w1", "draws": "w1"}
gold = ({"bag": "y2,w1", "draws": "y2,w1", "rubies": 2},
        {"bag": "y2,w1", "draws": "y2,w1", "rubies": 1}, quiet)
out["gold"] = play_round(["books.yellow=7"], *gold)
out["gold-none"] = play_round(["books.yellow=3"], *gold)
# its own event, in the round's events and a replay's text
from sim.api.events import event_text
d = {"players": 3, "round": 1, "die": ["vp1"] * 4, "player": [dict(p) for p in gold],
     "set": ["books.yellow=7"]}
out["gold-events"] = [[e, event_text(e, ["ann", "bob", "cy"])]
                      for e in play_round_data(d, "test round")["events"] if e["event"] == "gold"]
# its own round-file key: seat 0 declines, seat 1 pays (the built-in answers the other way round)
out["gold-scripted"] = play_round(["books.yellow=7"], {**gold[0], "yellow_gold": [False]},
                                  {**gold[1], "yellow_gold": [True]}, quiet)
from sim.rules.books import round_file_keys
out["gold-key"] = round_file_keys()["yellow_gold"]
out["questions"] = [[q.number, q.id, q.colour, q.set] for q in book_questions()][-1]
for name, user in NAMES.items():
    colour, n = name.split("_")
    a = games([f"books.{colour}={n}"])
    b = games([f"books.{colour}={user}"])
    out[name] = [a == b, sum(a) != 0]
print(json.dumps(out))
""".replace("NAMES", repr(USER_SET))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[str]:
    """The compiled rules tests' one set of rules files (tests/rules_set.py)."""
    return [str(f) for f in shared_rules_files(tmp_path_factory.mktemp("rules"))]


@pytest.fixture(scope="module")
def compiled(files):
    got = subprocess.run([sys.executable, "-c", GAMES, *files], capture_output=True, text=True,
                         env=_env(), cwd=ROOT, timeout=3600)
    assert got.returncode == 0, got.stderr[-3000:]
    return json.loads(got.stdout.strip().splitlines()[-1])


def test_shipped_books_rewritten_as_rules_files_play_the_same_games(compiled):
    # each shipped module's own text, only its set number changed (8-12): that set plays the
    # games the shipped set plays, byte for byte (240 games of 3 seats, rounds recorded)
    assert {stem: compiled[stem] for stem in REWRITTEN} == {s: [True, True] for s in REWRITTEN}


def test_a_users_book_asks_its_own_question_with_a_default_answer(compiled):
    # Worked by hand: seat 0 (2 rubies) places y2 -> 2: the built-in answer pays (2 rubies or
    # more): 1 ruby for 2 VP at once; seat 1 (1 ruby) keeps its ruby. With yellow Set 3 instead
    # (a raise of the explosion limit: the same placements) no one pays.
    got, none = compiled["gold"], compiled["gold-none"]
    assert got[0]["rubies"] == none[0]["rubies"] - 1
    assert got[0]["score"] == none[0]["score"] + 2
    assert (got[1]["rubies"], got[1]["score"]) == (none[1]["rubies"], none[1]["score"])
    # numbered after the shipped books' questions, listed with them
    assert compiled["questions"] == [10, "yellow-gold", "yellow", 7]
    # its own event (book(..., events=(event("gold", ...),))): seat 0 paid, nobody else
    assert compiled["gold-events"] == [[
        {"round": 1, "event": "gold", "seat": 0, "chip": "y2", "vp": 2},
        "  ann (seat 0): golden mandrake: y2 buys 2 VP for a ruby"]]


def test_a_users_book_declares_its_own_round_file_key(compiled):
    # yellow_gold (script_key in the book's declaration, read by its scripted): seat 0 (2 rubies)
    # is scripted to decline, seat 1 (1 ruby) to pay: 1 ruby for 2 VP, the built-in answers the
    # other way round (gold above)
    got, none = compiled["gold-scripted"], compiled["gold-none"]
    assert (got[0]["rubies"], got[0]["score"]) == (none[0]["rubies"], none[0]["score"])
    assert got[1]["rubies"] == none[1]["rubies"] - 1
    assert got[1]["score"] == none[1]["score"] + 2
    assert compiled["gold-key"] == ["scripted", "yellow Set 7: one per yellow chip: true pays a "
                                    "ruby"]


def _quacks(files: list[str], *args: str) -> subprocess.CompletedProcess:
    loads = [a for f in files for a in ("--rules-file", f)]
    return subprocess.run([sys.executable, "-m", "sim.cli.main", args[0], *loads, *args[1:]],
                          capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=3600)


def test_compare_measures_a_users_book_against_the_shipped_one(files):
    # green Sprouts (experiments/rules/green_sprouts.py, green Set 7) against green Set 1
    got = _quacks(files, "compare", "--variant", "sprouts=books.green=7",
                  "--strategies", "balanced,greedy", "--games", "16", "--seed", "3", "--json",
                  "--quiet", "--threads", "1")
    assert got.returncode == 0, got.stderr[-3000:]
    text = got.stdout
    assert "sprouts" in text
    data = json.loads(text)
    assert "green-7" in json.dumps(data) or "books.green=7" in json.dumps(data)


def test_balance_measures_a_ruleset_with_a_users_book(files):
    got = _quacks(files, "balance", "--set", "books.green=7",
                  "--parts", "books", "--players", "2", "--games", "16", "--seed", "3", "--json",
                  "--quiet", "--threads", "1")
    assert got.returncode == 0, got.stderr[-3000:]
    data = json.loads(got.stdout)
    # the books table measures each colour under the ruleset's books: green is green Sprouts
    assert data["overrides"] == ["books.green=7"]
    green = [row for row in data["books"] if row["colour"] == "green"]
    assert len(green) == 1 and green[0]["games"] == 16 and "win_share_lo" in green[0]
