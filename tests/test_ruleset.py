"""Rulesets: every validation error of load_ruleset, extends / --set, and the base ruleset's numbers
against shared/rules/component-data.md (parsed from the markdown, not copied)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel.layout import R_FLASK_REUSE, R_LIMIT
from sim.rules import chips
from sim.rules.ruleset import BUILTIN_DIR, RulesetError, load_ruleset
from sim.rules.track import SPOON, TRACK_LEN

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

RULES_DIR = Path(__file__).resolve().parents[2] / "shared/rules"
COMPONENT_DATA = RULES_DIR / "component-data.md"
DECISIONS = RULES_DIR / "decisions.md"
BASE_TEXT = (BUILTIN_DIR / "base.toml").read_text(encoding="utf-8")
EXTENDS = 'extends = "base"\n'


def write(tmp_path: Path, text: str, name: str = "rules.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def expect_error(path_or_name, *fragments, overrides=()):
    with pytest.raises(RulesetError) as ei:
        load_ruleset(str(path_or_name), list(overrides))
    msg = str(ei.value)
    for f in fragments:
        assert f in msg, f"{f!r} not in {msg!r}"
    return msg


# ---------------------------------------------------------------------------------------------
# validation errors: each names the file and the key


# a file that names an unknown or ill-formed key: the error names the file and the key
@pytest.mark.parametrize("text,key", [
    pytest.param(EXTENDS + 'name = "x"\ncolour = "red"\n', "colour", id="unknown_top_key"),
    pytest.param(BASE_TEXT + "\nbogus = 1\n", "bogus", id="unknown_top_key_without_extends"),
    pytest.param(EXTENDS + "[game]\nexplode_at = 8\n", "game.explode_at",
                 id="unknown_section_key"),
    pytest.param(EXTENDS + "[track]\nlength = 54\n", "track.length",
                 id="unknown_section_key_in_track"),
    pytest.param(EXTENDS + "game = 3\n", "game", id="section_not_a_table"),
    pytest.param(EXTENDS + "[track]\nruby_spaces = [5, 9, 9]\n", "track.ruby_spaces",
                 id="ruby_spaces_repeat"),
    pytest.param(EXTENDS + "[prices.set7]\nr1 = 3\n", "prices.set7", id="unknown_price_set"),
    pytest.param(EXTENDS + "[prices.set1]\nr1 = -1\n", "prices.set1.r1", id="bad_price_value"),
    pytest.param(EXTENDS + "[game]\nmin_players = 4\nmax_players = 3\n", "game.min_players",
                 id="min_players_above_max"),
    pytest.param('extends = 3\nname = "x"\n', "extends", id="extends_not_a_string"),
    pytest.param('name = "x"\n[game\nrounds = 9\n', "TOML", id="malformed_toml"),
])
def test_a_bad_file_names_the_file_and_the_key(tmp_path, text, key):
    p = write(tmp_path, text)
    expect_error(p, str(p), key)


@pytest.mark.parametrize(
    "line,key",
    [
        ('rounds = "nine"', "game.rounds"),
        ("rounds = true", "game.rounds"),  # a boolean is not an integer
        ("rounds = 9.0", "game.rounds"),
        ('flask_space = "borrow"', "game.flask_space"),
        ("flask_space = 1", "game.flask_space"),
        ('starting_bag = 5', "game.starting_bag"),
    ],
)
def test_wrong_type(tmp_path, line, key):
    p = write(tmp_path, f'extends = "base"\n[game]\n{line}\n')
    expect_error(p, str(p), key)


@pytest.mark.parametrize(
    "section,line,key",
    [
        ("game", "explosion_limit = 0", "game.explosion_limit"),
        ("game", "explosion_limit = 41", "game.explosion_limit"),
        ("game", "rounds = 21", "game.rounds"),
        ("game", "starting_rubies = -1", "game.starting_rubies"),
        ("track", "last_chip_space = 51", "track.last_chip_space"),
        ("track", "ruby_spaces = [5, 54]", "track.ruby_spaces"),
        ("rats", "lap = 0", "rats.lap"),
        ("books", "red = 7", "books.red"),
        ("supply", "r1 = 201", "supply.r1"),
    ],
)
def test_out_of_range(tmp_path, section, line, key):
    p = write(tmp_path, f'extends = "base"\n[{section}]\n{line}\n')
    expect_error(p, str(p), key)


def test_coins_wrong_length(tmp_path):
    coins = ", ".join(str(i) for i in range(53))  # 53 entries, 54 needed
    p = write(tmp_path, f'extends = "base"\n[track]\ncoins = [{coins}]\n')
    expect_error(p, str(p), "track.coins", "54")


def test_vp_wrong_length(tmp_path):
    vp = ", ".join("0" for _ in range(55))
    p = write(tmp_path, f'extends = "base"\n[track]\nvp = [{vp}]\n')
    expect_error(p, str(p), "track.vp")


def test_coins_not_non_decreasing(tmp_path):
    coins = list(range(54))
    coins[20], coins[21] = 21, 20
    p = write(tmp_path, f'extends = "base"\n[track]\ncoins = {coins}\n')
    expect_error(p, str(p), "track.coins", "non-decreasing")


def test_vp_not_non_decreasing(tmp_path):
    vp = [0] * 53 + [0]
    vp[10] = 5
    p = write(tmp_path, f'extends = "base"\n[track]\nvp = {vp}\n')
    expect_error(p, str(p), "track.vp", "non-decreasing")


def test_rat_tails_not_increasing(tmp_path):
    p = write(tmp_path, 'extends = "base"\n[rats]\ntails = [1, 4, 4, 7]\n')
    expect_error(p, str(p), "rats.tails")
    p = write(tmp_path, 'extends = "base"\n[rats]\ntails = [1, 60]\n', "r2.toml")  # past the lap
    expect_error(p, str(p), "rats.tails")


@pytest.mark.parametrize("faces", [
    '["vp1", "gold"]', "[]",
    '["vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1","vp1"]', '"vp1"'])
def test_bad_die_faces(tmp_path, faces):
    p = write(tmp_path, f'extends = "base"\n[die]\nfaces = {faces}\n')
    expect_error(p, str(p), "die.faces")


@pytest.mark.parametrize("bag", ["w1x4,w9", "z1", "w1x0", "w1,,o1"])
def test_bad_starting_bag(tmp_path, bag):
    p = write(tmp_path, f'extends = "base"\n[game]\nstarting_bag = "{bag}"\n')
    expect_error(p, str(p), "game.starting_bag")


@pytest.mark.parametrize("chip", ["z9", "w1", "r3", "start"])
def test_unknown_price_chip(tmp_path, chip):
    # white chips are never for sale; z9 and r3 are not chips
    p = write(tmp_path, f'extends = "base"\n[prices.set1]\n{chip} = 3\n')
    expect_error(p, str(p), f"prices.set1.{chip}")


def test_book_set_without_prices_standalone(tmp_path):
    # a full ruleset without any [prices.*] table: books.orange = 1 has no prices
    text = BASE_TEXT.split("# Section 6")[0]
    assert "[prices" not in text
    p = write(tmp_path, text)
    expect_error(p, str(p), "books.", "prices")


def test_book_set_without_prices_for_colour(tmp_path):
    # locoweed Set 1 has no price in [prices.set1] (l1 appears only in sets 5 and 6)
    p = write(tmp_path, 'extends = "base"\n[books]\nlocoweed = 1\n')
    expect_error(p, str(p), "books.locoweed", "prices.set1")


def test_missing_key_in_standalone_file(tmp_path):
    text = BASE_TEXT.replace("rounds = 9 ", "# no rounds ", 1)
    assert "rounds = 9" not in text
    p = write(tmp_path, text)
    expect_error(p, str(p), "game.rounds")


def test_missing_name_in_standalone_file(tmp_path):
    text = BASE_TEXT.replace('name = "base"', "", 1)
    p = write(tmp_path, text)
    expect_error(p, str(p), "name")


def test_extends_missing_ruleset(tmp_path):
    p = write(tmp_path, 'extends = "no_such_ruleset"\nname = "x"\n')
    expect_error(p, "no_such_ruleset", "no such file")


def test_extends_cycle_absolute_paths(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    write(tmp_path, f'extends = "{b}"\nname = "a"\n', "a.toml")
    write(tmp_path, f'extends = "{a}"\nname = "b"\n', "b.toml")
    expect_error(a, "cycle")


def test_extends_cycle_relative_names(tmp_path):
    a = write(tmp_path, 'extends = "b.toml"\nname = "a"\n', "a.toml")
    write(tmp_path, 'extends = "a.toml"\nname = "b"\n', "b.toml")
    expect_error(a, "cycle")


def test_extends_self(tmp_path):
    a = write(tmp_path, 'extends = "self.toml"\nname = "s"\n', "self.toml")
    expect_error(a, "cycle")


def test_extends_chain_relative_to_file(tmp_path):
    # child.toml extends "parent.toml" (next to it), which extends base
    write(tmp_path, 'extends = "base"\nname = "parent"\n[game]\nrounds = 7\n', "parent.toml")
    c = write(tmp_path, 'extends = "parent.toml"\nname = "child"\n[game]\nexplosion_limit = 9\n',
              "child.toml")
    rs = load_ruleset(str(c))
    assert rs.name == "child"
    assert rs.game("rounds") == 7 and rs.game("explosion_limit") == 9


def test_missing_file(tmp_path):
    p = tmp_path / "nope.toml"
    expect_error(p, str(p), "no such file")


@pytest.mark.parametrize(
    "assignment,fragment",
    [
        ("game.rounds", "game.rounds"),  # no '='
        ("=5", "=5"),  # no key
        ("game..rounds=3", "game..rounds"),  # empty part
        ("rounds=3", "rounds"),  # no section
        ("nosection.rounds=3", "nosection.rounds"),  # unknown section
        ("game.foo=1", "game.foo"),  # unknown key in a known section
        ("game.rounds=nine", "game.rounds"),  # wrong type
        ("game.explosion_limit=0", "game.explosion_limit"),  # out of range
        ("game.flask_space=borrow", "game.flask_space"),
    ],
)
def test_bad_set(assignment, fragment):
    expect_error("base", fragment, overrides=[assignment])


# ---------------------------------------------------------------------------------------------
# what works


def test_extends_base_override(tmp_path):
    p = write(tmp_path, 'extends = "base"\nname = "mine"\n[game]\nexplosion_limit = 9\n'
                        '[prices.set1]\nr1 = 7\n')
    rs = load_ruleset(str(p))
    base = load_ruleset("base")
    assert rs.name == "mine"
    assert rs.game("explosion_limit") == 9 and rules_scalars(rs)[R_LIMIT] == 9
    # everything else comes from base; the price table is merged key by key
    assert rs.game("rounds") == base.game("rounds") == 9
    assert np.array_equal(rs.coins, base.coins) and np.array_equal(rs.vp, base.vp)
    assert rs.data["prices"]["set1"]["r1"] == 7
    assert rs.data["prices"]["set1"]["r2"] == base.data["prices"]["set1"]["r2"]
    assert rs.price[chips.chip_type(chips.RED, 1)] == 7
    assert rs.hash != base.hash


def test_set_explosion_limit():
    rs = load_ruleset("base", ["game.explosion_limit=8"])
    assert rs.game("explosion_limit") == 8
    assert rules_scalars(rs)[R_LIMIT] == 8
    assert load_ruleset("base").game("explosion_limit") == 7  # the built-in is not changed


def test_set_flask_space_string_forms():
    for v in ("reuse", '"reuse"'):
        rs = load_ruleset("base", [f"game.flask_space={v}"])
        assert rs.game("flask_space") == "reuse" and rules_scalars(rs)[R_FLASK_REUSE] == 1
    assert rules_scalars(load_ruleset("base"))[R_FLASK_REUSE] == 0


def test_check_implemented_rejects_a_black_set_2():
    # black has one base book for Sets 1-4 (books.black = 1) and the Herb Witches' Sets 5 and 6
    rs = load_ruleset("base", ["books.black=2"])  # valid data: Set 2 black prices exist
    with pytest.raises(RulesetError) as ei:
        rs.check_implemented()
    assert "books.black" in str(ei.value)
    load_ruleset("base").check_implemented()  # the base ruleset passes
    for n in (2, 3, 4, 5, 6):
        load_ruleset("base", [f"books.all={n}"]).check_implemented()


# ---------------------------------------------------------------------------------------------
# the base ruleset against component-data.md


@pytest.fixture(scope="module")
def doc():
    if not COMPONENT_DATA.is_file():
        pytest.skip(f"{COMPONENT_DATA} not present")
    return COMPONENT_DATA.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def base():
    return load_ruleset("base")


def section(text: str, heading: str) -> str:
    """The text of a markdown section from its heading line to the next heading of any level."""
    start = text.index(heading)
    rest = text[start + len(heading):]
    m = re.search(r"^#{2,3} ", rest, flags=re.M)
    return rest[: m.start()] if m else rest


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and not re.match(r"^\|[\s\-|]+\|$", line):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


COLOUR_LETTERS = {"White": "w", "Orange": "o", "Green": "g", "Blue": "b", "Red": "r",
                  "Yellow": "y", "Purple": "p", "Black": "k"}


def colour_rows(text: str, white: bool = True) -> list[tuple[str, list[str]]]:
    """``(chip letter, row)`` of each table row of ``text`` that starts with a colour's name (the
    white one only if ``white``)."""
    return [(COLOUR_LETTERS[first], row) for row in table_rows(text)
            for first in [row[0].split()[0]]
            if first in COLOUR_LETTERS and (white or first != "White")]


def compact_list(text: str, name: str) -> list[int]:
    m = re.search(rf"`{name}\s*=\s*\[([0-9,\s]*)\]`", text)
    assert m, f"no compact {name} line"
    return [int(x) for x in m.group(1).split(",")]


def test_track_compact_form(doc, base):
    s2 = section(doc, "## 2. Pot (cauldron) board")
    coins, vp, ruby = (compact_list(s2, "COINS"), compact_list(s2, "VP"),
                       compact_list(s2, "RUBY_IDX"))
    assert len(coins) == len(vp) == TRACK_LEN
    assert base.coins.tolist() == coins
    assert base.vp.tolist() == vp
    assert sorted(base.data["track"]["ruby_spaces"]) == sorted(ruby)
    assert np.flatnonzero(base.ruby).tolist() == sorted(ruby)


def test_track_table_rows(doc, base):
    # the per-index table of §2 (idx | coins | VP | ruby | note) agrees too
    s2 = section(doc, "## 2. Pot (cauldron) board")
    seen = set()
    for row in table_rows(s2):
        if not row[0].isdigit():
            continue
        i, c, v, r = int(row[0]), int(row[1]), int(row[2]), row[3] == "R"
        seen.add(i)
        assert (base.coins[i], base.vp[i], bool(base.ruby[i])) == (c, v, r), i
    assert seen == set(range(TRACK_LEN))


def test_the_track_declaration_is_the_rulesets_track_table():
    """The kernels' track size (``sim.rules.track``, compiled in) is that of every built-in
    ruleset's ``[track]`` table, read from the file (not through the schema, which checks against
    the same declaration): a space more or less in the table fails here."""
    tables = {p.stem: t for p in BUILTIN_DIR.glob("*.toml")
              if (t := tomllib.loads(p.read_text(encoding="utf-8")).get("track"))}
    assert "base" in tables
    for name, track in tables.items():
        assert len(track["coins"]) == len(track["vp"]) == TRACK_LEN, name
        assert track["last_chip_space"] + 1 == SPOON == TRACK_LEN - 1, name
        assert max(track["ruby_spaces"]) < SPOON, name


def test_rat_tails(doc, base):
    s3 = section(doc, "## 3. Scoring track")
    m = re.search(r"\*\*t = ([0-9,\s]+)\*\*", s3)
    assert m
    tails = [int(x) for x in m.group(1).split(",")]
    assert len(tails) == 23  # the section says "(23 tails)"
    assert base.tails.tolist() == tails
    # "tails after t + 50k": a lap of 50
    assert "t + 50k" in s3 and base.data["rats"]["lap"] == 50


def test_die_faces(doc, base):
    s4 = section(doc, "## 4. Bonus die")
    names = {"1 VP": "vp1", "2 VP": "vp2", "Ruby": "ruby", "Droplet": "droplet",
             "Pumpkin": "pumpkin"}
    want = Counter()
    for row in table_rows(s4):
        if row[0] in names:
            want[names[row[0]]] += int(row[1])
    assert sum(want.values()) == 6
    assert Counter(base.data["die"]["faces"]) == want


def test_supply(doc, base):
    checked = 0
    for letter, row in colour_rows(section(doc, "### 5.1 Base game")):
        for value, cell in zip((1, 2, 3, 4), row[1:5]):
            name = f"{letter}{value}"
            if cell in ("–", "-"):
                assert base.data["supply"].get(name, 0) == 0, name
                continue
            assert base.data["supply"][name] == int(cell), name
            t = chips.parse_chips(name)[0]
            assert base.supply[t] == int(cell)
            checked += 1
    assert checked == 18  # 3 white, 1 orange, 3 green, 3 blue, 3 red, 3 yellow, 1 purple, 1 black
    # nothing outside the base box (orange 6, locoweed)
    assert base.supply[chips.parse_chips("o6")[0]] == 0
    assert base.supply[chips.parse_chips("l1")[0]] == 0


def _decided_price(name: str) -> int:
    """A price cell that component-data.md leaves open, as fixed by decisions.md."""
    text = DECISIONS.read_text(encoding="utf-8")
    m = re.search(rf"\|\s*{re.escape(name)}\s*\|\s*(\d+)\s*\|", text)
    assert m, name
    return int(m.group(1))


def test_prices_sets_1_to_4(doc, base):
    checked = 0
    for letter, row in colour_rows(section(doc, "## 6. Ingredient book prices"), white=False):
        set1_cell = row[1]
        for set_no, cell in zip((1, 2, 3, 4), row[1:5]):
            if cell.strip() == "=":
                cell = set1_cell
            cell = cell.replace("*", "")
            table = base.data["prices"][f"set{set_no}"]
            if letter == "o":
                assert table["o1"] == int(re.search(r"1-chip (\d+)", cell).group(1))
                checked += 1
            elif letter in "pk":
                assert table[f"{letter}1"] == int(re.match(r"\d+", cell).group(0)), (letter, set_no)
                checked += 1
            else:
                parts = cell.split("/")
                assert len(parts) == 3, cell
                for value, part in zip((1, 2, 4), parts):
                    part = part.strip()
                    if " or " in part:  # a cell the sources disagree on: decisions.md decides
                        colour = {"g": "green", "b": "blue"}[letter]
                        want = _decided_price(f"{colour} Set {set_no} 4-chip price")
                        assert str(want) in part.split(" or ")
                    else:
                        want = int(part)
                    assert table[f"{letter}{value}"] == want, (letter, value, set_no)
                    checked += 1
    assert checked == 4 * (1 + 4 * 3 + 2)
    # the Set 1 prices are the ones in use by the base ruleset
    assert base.price[chips.parse_chips("r4")[0]] == base.data["prices"]["set1"]["r4"]
