"""Commands refuse what they would otherwise accept and answer wrongly (issue 43): a card that
does nothing to a single potion, an empty starting bag, a compare variant without overrides, a
figure file whose extension names another format, a run of one deal (no interval), one strategy
spec with no --players; and a design search says why it stopped.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.rules.cards import CARD_IDS, DRAW_TIME_CARDS

invoke, ok = invokers(app)
ROOT = Path(__file__).resolve().parent.parent


# --- 1. potion / thresholds --card: only a card that acts while the potion is brewed ----------

def _hook_cards(*hooks: str) -> set[str]:
    """The card ids whose modules the named hooks of the generated hook table call."""
    from sim.kernel.cards.hooks import SOURCE

    tree = ast.parse(SOURCE)
    found = set()
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name in hooks:
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    found.add(node.value.id.replace("_", "-"))
    return found & set(CARD_IDS)


def test_the_draw_time_cards_are_those_the_potion_hooks_play():
    # the hooks a single potion runs (sim/kernel/potions.py, brew.py, brewing.py)
    hooks = ("potion_setup", "free_draws", "placed_move", "after_placed", "after_chip",
             "exploded")
    assert set(DRAW_TIME_CARDS) == _hook_cards(*hooks)
    assert "charity" not in DRAW_TIME_CARDS and len(DRAW_TIME_CARDS) == 4


@pytest.mark.parametrize("command", [["potion", "--n", 100],
                                     ["thresholds", "--n", 200, "--risk", "none"]])
@pytest.mark.parametrize("card", ["charity", "lucky-devil", "seasoned-perfectly"])
def test_a_card_without_a_draw_time_rule_is_refused(command, card):
    assert_user_error(invoke(*command, "--card", card), f"--card {card}", "brewed",
                      *DRAW_TIME_CARDS)


def test_an_unknown_card_is_refused_with_the_playable_ones():
    assert_user_error(invoke("potion", "--card", "no-such-card"), "no such card",
                      *DRAW_TIME_CARDS)


def test_every_potion_header_names_the_card():
    first = lambda r: r.stdout.splitlines()[0]  # noqa: E731
    assert "| card none |" in first(ok("potion", "--n", 100))
    assert "| card well-stirred |" in first(ok("potion", "--n", 100, "--card", "well-stirred"))
    assert "| card none |" in first(ok("potion", "--exact"))
    assert "| card none |" in first(ok("potion", "--regret", "--compare", "white:6"))
    assert "| card a-second-chance |" in first(
        ok("potion", "--draws", "w1,w2", "--card", "a-second-chance"))
    assert "| card none |" in first(ok("thresholds", "--n", 200, "--risk", "none"))
    for extra, card in (([], None), (["--card", "pumpkin-patch-party"], "pumpkin-patch-party"),
                        (["--draws", "w1"], None), (["--regret", "--compare", "white:6"], None),
                        (["--exact"], None)):
        assert json.loads(ok("potion", "--n", 100, "--json", *extra).stdout)["card"] == card


# --- 4. thresholds --png: the format the file's extension names ------------------------------

MAGIC = {"png": b"\x89PNG", "jpg": b"\xff\xd8\xff", "svg": b"<?xml", "pdf": b"%PDF"}


def test_thresholds_png_writes_the_format_the_extension_names(tmp_path):
    for ext, magic in MAGIC.items():
        f = tmp_path / f"curve.{ext}"
        ok("thresholds", "--white", "5:6", "--risk", "none", "--png", f)
        assert f.read_bytes().startswith(magic), ext
    bare = tmp_path / "curve"  # no extension: PNG, as the option's name says
    ok("thresholds", "--white", "5:6", "--risk", "none", "--png", bare)
    assert bare.read_bytes().startswith(MAGIC["png"])


def test_thresholds_png_refuses_an_extension_it_cannot_write(tmp_path):
    f = tmp_path / "curve.xyz"
    assert_user_error(invoke("thresholds", "--white", "5:6", "--risk", "none", "--png", f),
                      "--png", "curve.xyz", ".png", ".svg")
    assert list(tmp_path.iterdir()) == []


# --- 2. an empty starting bag is a bad bag --------------------------------------------------

@pytest.mark.parametrize("value", ["", '""', "' '"])
def test_an_empty_starting_bag_is_refused(value):
    assert_user_error(invoke("play", "--games", 10, "--set", f"game.starting_bag={value}"),
                      "game.starting_bag", "at least one chip")


def test_a_ruleset_file_with_an_empty_starting_bag_is_refused(tmp_path):
    f = tmp_path / "empty.toml"
    f.write_text('extends = "base"\nname = "empty"\n[game]\nstarting_bag = ""\n')
    assert_user_error(invoke("potion", "--rules", f, "--n", 100), "game.starting_bag",
                      "at least one chip")


# --- 3. compare --variant: a variant needs overrides, and errors say what --variant takes -----

@pytest.mark.parametrize(("variant", "fragment"), [
    ("a=", "no overrides"), ("a=;", "no overrides"), ("nolabel", "'nolabel' is not"),
    ("a=game.explosion_limit", "is not section.key=value"),
    ("a=game.explosion_limit=8;zz", "'zz' is not"),
])
def test_a_variant_without_overrides_or_with_a_bad_item_is_refused(variant, fragment):
    line = assert_user_error(invoke("compare", "--variant", variant, "--games", 10), fragment,
                             f"--variant '{variant}'", "LABEL=section.key=value")
    assert "--set" not in line


def test_a_variant_with_an_unknown_key_or_bad_value_names_the_variant():
    for variant, fragment in (("a=foo.bar=1", "unknown key 'foo.bar'"),
                              ("a=game.explosion_limit=abc", "game.explosion_limit")):
        line = assert_user_error(invoke("compare", "--variant", variant, "--games", 10),
                                 "--variant", fragment)
        assert "--set" not in line


# --- 5. tournament and sweep: one deal gives no interval, so it is refused as compare does ---

@pytest.mark.parametrize("args", [
    ["tournament", "--games", 1], ["tournament", "--games", 4],
    ["tournament", "--games", 1, "--until-ci", 0.05],
    ["sweep", "--games", 1, "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "balanced"],
    ["compare", "--games", 4, "--variant", "a=game.rounds=8"],
])
def test_a_run_of_one_deal_is_refused(args, tmp_path):
    from sim.study.tournament.run import TWO_DEALS

    out = tmp_path / "out"
    extra = ["--out", out] if args[0] != "compare" else []
    assert_user_error(invoke(*args, *extra, "--quiet"), f"--games {args[2]}", "1 deal of 4 games",
                      "give at least 8", TWO_DEALS)
    assert not out.exists()


# --- 6. design says why its search stopped and how much of the budget it used ---------------

DESIGN_TOY = ["design", "--target", "explosion_rate=0.08:0.13", "--players", 2, "--field",
              "threshold:t=5,flask=0", "--set", "game.rounds=1", "--set", "cards.deck=false",
              "--retest-games", 400, "--seed", 5]


def test_design_says_it_measured_every_candidate(tmp_path):
    out = tmp_path / "d"
    r = ok(*DESIGN_TOY, "--knob", "game.explosion_limit=3:9", "--budget", 4000, "--out", out)
    line = ("the search stopped because every candidate the knobs allow was measured: 1,700 of "
            "4,000 games used")
    assert line in r.stdout
    assert "The" + line[3:] in (out / "report.md").read_text()
    d = json.loads(ok(*DESIGN_TOY, "--knob", "game.explosion_limit=3:9", "--budget", 4000,
                      "--json").stdout)
    assert d["stopped"] == "space" and d["stop"] == line


def test_design_says_it_ran_out_of_budget():
    r = ok(*DESIGN_TOY, "--knob", "game.explosion_limit=3:30", "--budget", 2000)
    why = "the search stopped because the budget could not pay for another first rung: "
    assert why in r.stdout and " of 2,000 games used" in r.stdout


def test_design_says_it_stopped_on_repeated_proposals(monkeypatch):
    from sim.study.design import search

    monkeypatch.setattr(search, "MAX_REPEATS", 1)  # the toy's sampler repeats itself early
    d = json.loads(ok(*DESIGN_TOY, "--knob", "game.explosion_limit=3:30", "--budget", 20_000,
                      "--first-rung", 2, "--json").stdout)
    used = d["games"]["search"]
    assert d["stopped"] == "repeats" and used < 20_000
    assert d["stop"] == (f"the search stopped because 1 proposals in a row were already "
                         f"measured: {used:,} of 20,000 games used")


# --- 7. one strategy spec serves every seat of the default player count -----------------------

@pytest.mark.parametrize("args", [
    ["tournament", "--strategies", "balanced", "--games", 8, "--no-plots", "--json", "--quiet"],
    ["compare", "--strategies", "balanced", "--variant", "a=game.rounds=8", "--games", 8,
     "--json", "--quiet"],
])
def test_one_spec_fills_the_default_seats(args, tmp_path):
    out = ["--out", tmp_path / "out"] if args[0] == "tournament" else []
    d = json.loads(ok(*args, *out).stdout)
    assert d["players"] == 4
    d = json.loads(ok(*args, *out, "--players", 3, "--force").stdout if out else
                   ok(*args, "--players", 3).stdout)
    assert d["players"] == 3


def test_play_with_one_spec_fills_the_default_seats():
    d = json.loads(ok("play", "--strategies", "balanced", "--games", 20, "--json").stdout)
    assert d["players"] == 4
    d = json.loads(ok("play", "--strategies", "balanced", "--games", 20, "--players", 2,
                      "--json").stdout)
    assert d["players"] == 2
    d = json.loads(ok("play", "--strategies", "balanced", "--games", 20, "--rules",
                      "herb-witches", "--json").stdout)
    assert d["players"] == 4  # the default count, within the ruleset's 2 to 5


def test_replay_with_one_spec_fills_the_default_seats():
    d = json.loads(ok("replay", "--seed", 1, "--game", 0, "--strategies", "balanced",
                      "--json").stdout)
    assert d["seats"] == ["balanced"] * 4


def test_one_spec_and_a_ruleset_of_fewer_seats(tmp_path):
    f = tmp_path / "three.toml"
    f.write_text('extends = "base"\nname = "three"\n[game]\nmax_players = 3\n')
    d = json.loads(ok("play", "--strategies", "balanced", "--games", 20, "--rules", f,
                      "--json").stdout)
    assert d["players"] == 3
