"""``quacks rules``: the cards, books and variants as data, the listing and ``rules show``.
Nothing here compiles a kernel."""

from __future__ import annotations

import json
import sys

import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.rules import cards
from sim.rules.books import books
from sim.rules.ruleset import load_ruleset
from sim.rules.variants import VARIANTS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

invoke, ok = invokers(app)

CARD_ORDER = [
    "roll-the-die", "the-pot-is-filling-up", "charity", "rat-infestation", "beginners-bonus",
    "just-in-time", "you-only-get-to-choose-one", "rats-are-your-friends", "a-good-start",
    "choose-wisely", "wheel-and-deal", "an-opportunistic-moment", "less-is-more",
    "the-pot-is-full", "pumpkin-patch-party", "lucky-devil", "its-shining-extra-bright",
    "magic-potion", "seasoned-perfectly", "living-in-luxury", "well-stirred", "strong-ingredient",
    "schadenfreude", "a-second-chance",
]


@pytest.fixture(scope="module")
def listing() -> dict:
    r = ok("rules", "--json")
    return json.loads(r.stdout)


def test_listing_has_the_five_lists(listing):
    assert set(listing) == {"rulesets", "books", "cards", "witches", "variants"}
    assert all(isinstance(v, list) and v for v in listing.values())
    assert "base" in [r["name"] for r in listing["rulesets"]]
    base = next(r for r in listing["rulesets"] if r["name"] == "base")
    assert base["description"] == load_ruleset("base").data["description"]


def test_witches_listed_with_ids_groups_and_texts(listing):
    got = listing["witches"]
    assert [w["number"] for w in got] == list(range(1, 13))
    assert [w["group"] for w in got] == ["potion"] * 4 + ["buying"] * 4 + ["points"] * 4
    assert got[0]["id"] == "second-flask" and got[11]["id"] == "cheap-rubies"
    assert all(w["text"] and w["phase"] for w in got)


def test_rules_show_herb_witches_json_lists_the_witches():
    d = json.loads(ok("rules", "show", "herb-witches", "--json").stdout)
    assert [w["id"] for w in d["witches"]][:2] == ["second-flask", "six-chips"]
    assert {w["in_play"] for w in d["witches"]} == {"random"}
    assert d["witch_settings"] == {"enabled": True, "fixed": [], "extra": []}
    assert d["game"]["max_players"] == 5 and d["game"]["overflow_bowl"] is True
    r = ok("rules", "show", "herb-witches", "--set", 'witches.fixed=["upgrade"]', "--json")
    got = {w["id"]: w["in_play"] for w in json.loads(r.stdout)["witches"]}
    assert (got["upgrade"] == "fixed" and got["double-coins"] == "never"
            and got["colours"] == "random")
    r = ok("rules", "show", "base", "--json")
    assert {w["in_play"] for w in json.loads(r.stdout)["witches"]} == {"off"}


def test_cards_in_kernel_order_with_their_timings(listing):
    got = listing["cards"]
    assert [c["id"] for c in got] == CARD_ORDER + ["a-quick-exchange", "visit-from-a-witch",
                                                   "a-joyful-reunion"]
    assert [c["number"] for c in got] == list(range(1, 28))
    assert ([c["timing"] for c in got]
            == ["purple"] * 13 + ["blue"] * 11 + ["purple", "blue", "blue"])
    assert [c["needs"] for c in got] == [""] * 24 + ["herb-witches"] * 3
    assert got[3]["name"] == "Rat Infestation" and got[16]["name"] == "It's Shining Extra Bright"
    assert all(c["text"] for c in got)
    assert list(cards.CARD_IDS)[:24] == CARD_ORDER


def test_settled_card_readings_are_in_the_texts():
    text = {c.id: c.text for c in cards.CARDS}
    assert "even if the pot exploded" in text["lucky-devil"]
    assert "never add up" in text["living-in-luxury"]
    assert "never explode" in text["strong-ingredient"]
    assert "book is out" in text["you-only-get-to-choose-one"]
    assert "into the bag at once" in text["rats-are-your-friends"]


def test_card_lookup():
    assert cards.card_number("roll-the-die") == 1
    assert cards.card_number("a-second-chance") == 24
    assert cards.card_by_id("lucky-devil").timing == "blue"
    with pytest.raises(ValueError) as e:
        cards.card_by_id("lucky-dice")
    msg = str(e.value)
    assert "\n" not in msg and "lucky-dice" in msg
    assert all(cid in msg for cid in CARD_ORDER)
    with pytest.raises(ValueError):
        cards.card_number("")


def _book(listing, colour, set_, side=None):
    [b] = [b for b in listing["books"] if b["colour"] == colour and b["set"] == set_
           and b["side"] == side]
    return b


def test_books_sets_1_to_6_with_the_base_prices(listing):
    for colour in ("green", "blue", "red", "yellow", "purple"):
        assert (sorted(b["set"] for b in listing["books"] if b["colour"] == colour)
                == [1, 2, 3, 4, 5, 6])
    # component-data.md section 6, Sets 5 and 6 (Herb Witches)
    assert _book(listing, "blue", 5)["prices"] == {"b1": 8, "b2": 15, "b4": 19}
    assert _book(listing, "purple", 6)["prices"] == {"p1": 16}
    assert _book(listing, "black", 6)["prices"] == {"k1": 9}
    assert _book(listing, "locoweed", 5)["prices"] == {"l1": 8}
    assert _book(listing, "locoweed", 6)["prices"] == {"l1": 10}
    assert _book(listing, "red", 2)["prices"] == {"r1": 4, "r2": 8, "r4": 14}
    assert _book(listing, "blue", 3)["prices"] == {"b1": 4, "b2": 8, "b4": 14}
    assert _book(listing, "green", 3)["prices"] == {"g1": 6, "g2": 11, "g4": 21}
    assert _book(listing, "purple", 2)["prices"] == {"p1": 12}
    assert _book(listing, "orange", None)["prices"] == {"o1": 3}
    assert ({b["side"] for b in listing["books"] if b["colour"] == "black"}
            == {"2 players", "3-4 players", None})
    tables = load_ruleset("base").data["prices"]
    for b in listing["books"]:
        for chip, price in b["prices"].items():
            assert tables[f"set{b['set'] or 1}"][chip] == price


def test_book_timings_and_choices(listing):
    assert _book(listing, "red", 2)["timing"] == "draw, after stop"
    assert _book(listing, "red", 4)["timing"] == "passive"
    assert _book(listing, "green", 1)["timing"] == "B"
    assert _book(listing, "blue", 1)["timing"] == "draw"
    for colour, set_ in [("red", 2), ("purple", 2), ("purple", 4), ("green", 2), ("green", 4),
                         ("purple", 1), ("red", 1), ("yellow", 1), ("blue", 1)]:
        assert _book(listing, colour, set_)["choices"], (colour, set_)
    assert "place" in _book(listing, "red", 2)["choices"][0]
    assert all(_book(listing, c, k)["implemented"]
               for c in ("green", "blue", "red", "yellow", "purple")
               for k in (1, 2, 3, 4, 5, 6))
    assert all(_book(listing, c, k)["implemented"] for c in ("black", "locoweed") for k in (5, 6))
    for colour, set_ in [("green", 5), ("red", 5), ("red", 6), ("yellow", 6), ("purple", 5)]:
        assert _book(listing, colour, set_)["choices"], (colour, set_)
    # Sets 1-6 of five colours; orange: base and Herb Witches; black: two sides, Sets 5, 6;
    # locoweed 5, 6
    assert len(books()) == 5 * 6 + 2 + 2 + 2 + 2
    assert _book(listing, "orange", 5)["prices"] == {"o1": 3, "o6": 22}


def test_variants_say_honestly_what_is_built(listing):
    by_id = {v["id"]: v for v in listing["variants"]}
    assert {"test-tube", "synchronized", "teams", "sequential"} <= set(by_id)
    for vid in ("synchronized", "test-tube", "teams", "sequential", "no-cards", "card-exclude",
                "card-order"):
        assert by_id[vid]["status"] == "available"
    assert by_id["teams"]["setting"] == "game.teams = true"
    assert [g["glass"] for g in by_id["test-tube"]["glasses"]] == list(range(1, 13))
    assert by_id["test-tube"]["glasses"][10]["bonus"] == "yellow 4-chip"
    settings = " ".join(v.setting for v in VARIANTS)
    for key in ("cards.deck = false", "cards.exclude", "cards.order"):
        assert key in settings


def test_listing_tables():
    out = ok("rules").stdout
    for piece in ("base", "rulesets", "a-second-chance", "Living in Luxury", "4/8/14", "test-tube",
                  "available", "draw, after"):
        assert piece in out, piece
    assert max(len(line) for line in out.splitlines()) <= 100


def test_show_applies_set():
    j = json.loads(ok("rules", "show", "base", "--set", "game.rounds=7", "--json").stdout)
    assert j["game"]["rounds"] == 7
    assert j["name"] == "base" and j["overrides"] == ["game.rounds=7"]
    rs = load_ruleset("base", ["game.rounds=7"])
    assert j["hash"] == rs.hash and j["source"] == rs.source
    assert j["prices"]["set2"]["r2"] == 8


def test_show_prints_toml_that_reads_back():
    out = ok("rules", "show", "base", "--set", "game.explosion_limit=8").stdout
    assert tomllib.loads(out) == load_ruleset("base", ["game.explosion_limit=8"]).data


@pytest.mark.parametrize(("args", "fragment"), [
    (("rules", "show", "no-such-ruleset"), "no-such-ruleset"),
    (("rules", "show", "no-such-ruleset", "--json"), "no-such-ruleset"),
    (("rules", "show", "base", "--set", "game.rounds"), "section.key=value"),
    (("rules", "show", "base", "--set", "game.rounds=99"), "game.rounds"),
    (("rules", "show", "base", "--set", "nosection.x=1"), "unknown key"),
    (("rules", "show"), "name"),
])
def test_bad_input_is_one_line(args, fragment):
    assert_user_error(invoke(*args), fragment)
