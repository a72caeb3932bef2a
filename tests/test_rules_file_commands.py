"""The five example rules (experiments/rules/: lucky clover, bottled courage, market day, green
sprouts, pumpkin purse) play in every command that takes ``--rules-file``, all of them at once:
the three cards in the deck (``cards.extra``), green Set 7 and the pumpkin purse as the fixed
witch of a Herb Witches game. Each command exits 0 and reports the user's rules in its output
(the ruleset's overrides name them); where a command measures a rule on its own, the measure
shows it (the potion and thresholds commands score green sprouts' VP, balance lists the user's
card, book and witch in its tables, a round file loads them through a ruleset's ``plugins``).

Every command runs in a subprocess that loads the compiled rules tests' one set of rules files
(tests/rules_set.py), so they share its compiled kernels. Slow: about five seconds a command
with a warm cache. Not slow: every ``quacks WORD`` the docs and the examples show names a real
command (the examples once said ``quacks game``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from rules_set import ROOT, shared_rules_files
from test_rules_files import _env

CARDS = ("lucky-clover", "bottled-courage", "market-day")
SETS = ["--rules", "herb-witches", "--set", 'witches.fixed=["pumpkin-purse"]',
        "--set", "cards.extra=[" + ",".join(f'"{c}"' for c in CARDS) + "]",
        "--set", "books.green=7"]
SMALL = ["--threads", "1"]
BAG = ["--bag", "w1,w1,w2,g1,o1"]

# command -> its arguments besides the rules files (OUT is replaced by a fresh folder)
COMMANDS = {
    "tournament": ["--strategies", "threshold,balanced", "--games", "400", "--out", "OUT",
                   "--quiet", "--no-plots", "--json"],
    "sweep": ["--strategy", "threshold", "--param", "t=5:7:1", "--vs", "balanced", "--games",
              "200", "--out", "OUT", "--quiet", "--no-plots", "--json"],
    "tune": ["threshold", "--param", "t=4:8", "--vs", "balanced", "--budget", "400", "--out",
             "OUT", "--json"],
    "thresholds": [*BAG, "--white", "4:7", "--n", "2000", "--n-optimal", "2000", "--json"],
    "compare": ["--variant", "no-sprouts=books.green=1", "--strategies", "threshold,balanced",
                "--games", "200", "--quiet", "--json"],
    "balance": ["--games", "200", "--parts", "game,cards,books,witches", "--quiet", "--json"],
    "sensitivity": ["--knob", "game.explosion_limit=7:8", "--steps", "2", "--games", "200",
                    "--quiet", "--json"],
    "luck": ["--games", "200", "--quiet", "--json"],
    "design": ["--target", "explosion_rate=0.05:0.5", "--knob", "game.explosion_limit=7:8",
               "--budget", "400", "--retest-games", "200", "--quiet", "--json"],
    "exploit": ["--strategies", "balanced", "--candidate", "threshold", "--param", "t=4:8",
                "--games", "400", "--retest-games", "200", "--quiet", "--json"],
    "styles": ["--strategies", "balanced", "--candidate", "threshold", "--param", "t=4:8",
               "--games", "50", "--batch", "2", "--batches", "2", "--retest-games", "100",
               "--quiet", "--json"],
    "potion": [*BAG, "--stop", "white:6", "--n", "2000", "--json"],
    "play": ["--games", "10", "--json"],
    "replay": ["--seed", "3", "--game", "2", "--json"],
    "train": ["--out", "OUT/model.json", "--games", "100", "--iterations", "1", "--quiet"],
}
NO_THREADS = {"replay"}  # commands without --threads


def _quacks(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *map(str, args)],
                          capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=1800)


@pytest.fixture(scope="module")
def rule_args(tmp_path_factory) -> list[str]:
    """``--rules-file`` for each of the compiled rules tests' one set (tests/rules_set.py)."""
    files = shared_rules_files(tmp_path_factory.mktemp("rules"))
    assert {f.name for f in files} >= {"lucky_clover.py", "bottled_courage.py", "market_day.py",
                                       "green_sprouts.py", "pumpkin_purse.py"}
    return [a for f in files for a in ("--rules-file", str(f))]


def _commands() -> dict:
    """The CLI's commands, each with its click command."""
    import typer

    from sim.cli.main import app
    return typer.main.get_command(app).commands


def test_every_command_that_takes_rules_files_is_listed():
    """A new command with ``--rules-file`` must join the table above."""
    taking = {name for name, cmd in _commands().items()
              if any("--rules-file" in p.opts for p in cmd.params)}
    assert "tournament" in taking and "play" in taking
    assert taking - {"rules"} == set(COMMANDS)


def test_a_round_file_reader_builds_no_kernel_hook_table():
    """A round file's ruleset may load rules files (``plugins``), which must come before the
    kernel builds its hook tables: reading round and game files imports no kernel that does."""
    script = ("import sim.api.round_file, sim.api.game_file, sim.cli.game_cmd\n"
              "from sim.rules.card_numbers import HOOKS_BUILT\n"
              "from sim.rules.book_files import BOOKS_BUILT\n"
              "from sim.rules.witch_files import WITCHES_BUILT\n"
              "print(HOOKS_BUILT[0], BOOKS_BUILT[0], WITCHES_BUILT[0])")
    got = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=_env(), cwd=ROOT, timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout.split() == ["False", "False", "False"]


def test_every_quacks_command_the_docs_show_exists():
    names = set(_commands())
    pages = [*ROOT.glob("docs/**/*.md"), ROOT / "README.md", *ROOT.glob("experiments/**/*.py"),
             *ROOT.glob("experiments/**/*.toml")]
    shown = {}
    for page in pages:
        for m in re.finditer(r"^[ \t$>]*quacks ([a-z][a-z-]*)", page.read_text(encoding="utf-8"),
                             flags=re.M):
            shown.setdefault(m.group(1), page.relative_to(ROOT))
    assert "play" in shown and "rules" in shown
    assert {w: str(p) for w, p in shown.items() if w not in names} == {}


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_the_example_rules_play_in_every_command(command, rule_args, tmp_path):
    args = [a.replace("OUT", str(tmp_path / "out")) for a in COMMANDS[command]]
    if command == "train":
        (tmp_path / "out").mkdir()
    threads = [] if command in NO_THREADS else SMALL
    got = _quacks(command, *rule_args, *SETS, *threads, *args)
    assert got.returncode == 0, got.stderr[-3000:]
    text = got.stdout + "".join(f.read_text(encoding="utf-8")
                                for f in sorted((tmp_path / "out").glob("*.json")))
    assert "pumpkin-purse" in text and "lucky-clover" in text and "books.green=7" in text


def _potion_vp(rule_args, green: int) -> float:
    got = _quacks("potion", *rule_args, "--set", f"books.green={green}", *BAG, "--stop",
                  "white:6", "--n", "2000", "--json", *SMALL)
    assert got.returncode == 0, got.stderr[-3000:]
    return json.loads(got.stdout)["expected_vp"]


@pytest.mark.slow
def test_the_potion_command_scores_green_sprouts(rule_args):
    # the bag's 4 whites never explode; stopping at 6 draws every chip, so the g1 is placed in
    # every potion, which ends on space 7 (1 VP): green sprouts' g1 scores 1 VP more
    assert _potion_vp(rule_args, 7) == 2.0
    assert _potion_vp(rule_args, 1) == 1.0


@pytest.mark.slow
def test_balance_lists_the_users_card_book_and_witch(rule_args):
    got = _quacks("balance", *rule_args, *SETS, *SMALL, *COMMANDS["balance"])
    assert got.returncode == 0, got.stderr[-3000:]
    d = json.loads(got.stdout)
    assert set(CARDS) <= {r["card"] for r in d["cards"]}
    assert "pumpkin-purse" in {r["witch"] for r in d["witches"]}
    assert "books.green=7" in d["overrides"]  # the book table's green row is green Set 7's
    assert "green" in {r["colour"] for r in d["books"]}


ROUND = """players = 2
round = 1
rules = "rules.toml"
die = ["vp1", "vp1"]

[[player]]
bag = "g1,g2,w1"
draws = "g1,w1,g2"

[[player]]
bag = "w1"
draws = "w1"
"""


@pytest.mark.slow
def test_a_round_file_loads_the_rules_through_a_rulesets_plugins(rule_args, tmp_path):
    files = rule_args[1::2]
    plugins = ", ".join(json.dumps(f) for f in files)
    (tmp_path / "rules.toml").write_text(
        f'extends = "base"\nplugins = [{plugins}]\n[books]\ngreen = 7\n', encoding="utf-8")
    (tmp_path / "round.toml").write_text(ROUND, encoding="utf-8")
    got = _quacks("round", tmp_path / "round.toml", "--json")
    assert got.returncode == 0, got.stderr[-3000:]
    sprouts = json.loads(got.stdout)
    (tmp_path / "rules.toml").write_text(
        f'extends = "base"\nplugins = [{plugins}]\n[books]\ngreen = 1\n', encoding="utf-8")
    got = _quacks("round", tmp_path / "round.toml", "--json")
    plain = json.loads(got.stdout)
    # green sprouts: a green chip placed scores its value, 1 + 2 VP
    assert sprouts["players"][0]["score"] == plain["players"][0]["score"] + 3
    assert sprouts["players"][1]["score"] == plain["players"][1]["score"]
