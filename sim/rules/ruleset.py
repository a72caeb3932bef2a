"""Rules as data: load, merge, override and validate a ruleset, and lay it out for the kernels.

A ruleset is a TOML file (see ``sim/rulesets/base.toml``). A user file may say
``extends = "base"`` (or a path) and override any key; ``--set section.key=value`` overrides
one value from the command line. Everything is validated on load, and every error names the
source, the key and what was expected.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.rules import chips
from sim.rules.book_files import price_set
from sim.rules.card_numbers import RulesFileError, add_card_file, rules_files_used
from sim.rules.input_files import load_toml, not_a_file
from sim.rules.schema import (
    BOOK_COLOURS,
    BUILTIN_DIR,
    CHIP_KEYS,
    DIE_FACES,
    HW_SET_COLOURS,
    IMPLEMENTED_SETS,
    PRICE_SETS,
    SCHEMA,
    SET_COLOURS,
    TOP_KEYS,
    TRACK_LEN,
    is_int,
)

__all__ = ["BUILTIN_DIR", "IMPLEMENTED_SETS", "SET_COLOURS", "Ruleset", "RulesetError",
           "builtin_names", "load_ruleset", "rules_label", "ruleset_from_data"]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

class RulesetError(ValueError):
    """A ruleset that cannot be loaded; the message names the file, the key and the fix."""


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset: the raw merged tables plus numpy arrays the kernels take."""

    name: str
    source: str
    data: dict
    coins: np.ndarray = field(repr=False)
    vp: np.ndarray = field(repr=False)
    ruby: np.ndarray = field(repr=False)
    tails: np.ndarray = field(repr=False)
    die: np.ndarray = field(repr=False)
    supply: np.ndarray = field(repr=False)
    price: np.ndarray = field(repr=False)
    book_round: np.ndarray = field(repr=False)
    book_set: np.ndarray = field(repr=False)
    starting_bag: np.ndarray = field(repr=False)
    overrides: tuple[str, ...] = ()  # the ``--set`` assignments applied, as given

    @property
    def display(self) -> str:
        """What was run, for headers: ``base`` or ``base + game.rounds=7 + ...``."""
        return rules_label(self.name, self.overrides)

    def game(self, key: str):
        """A value from the ``[game]`` section."""
        return self.data["game"][key]

    @property
    def hash(self) -> str:
        """SHA-256 of the resolved ruleset (canonical JSON), for run manifests; with a user's
        card in its deck (``cards.extra``, ``order`` or ``force``), a user's book chosen or a
        user's witch played (``witches.fixed``, ``extra``), of that rules file's code too, so an
        edited rule is another ruleset."""
        blob = json.dumps(self.data, sort_keys=True, separators=(",", ":")).encode()
        cards = self.data.get("cards", {})
        books = [f"{c}-{n}" for c, n in self.data.get("books", {}).items()]
        witches = self.data.get("witches", {})
        used = rules_files_used([*cards.get("extra", ()), *cards.get("order", ()),
                                 *([cards["force"]] if cards.get("force") else []), *books,
                                 *witches.get("fixed", ()), *witches.get("extra", ())])
        if used:
            blob += b"\0" + json.dumps(used).encode()
        return hashlib.sha256(blob).hexdigest()

    def check_implemented(self) -> None:
        """Raise RulesetError if the ruleset asks for a book whose effects are not built yet."""
        for c in BOOK_COLOURS:
            s = self.data["books"][c]
            if s and s not in IMPLEMENTED_SETS[c]:
                raise RulesetError(
                    f"{self.source}: books.{c} = {s}: {c} Set {s} effects are not implemented yet; "
                    f"implemented: {sorted(IMPLEMENTED_SETS[c]) or 'none'}"
                )


def rules_label(name: str, overrides: list[str] | tuple[str, ...] = ()) -> str:
    """A ruleset name with its overrides, as every header shows it: ``base + game.rounds=7``."""
    return " + ".join([name, *(o.strip() for o in overrides)])


def _builtin_path(name: str) -> Path | None:
    p = BUILTIN_DIR / f"{name}.toml"
    return p if p.is_file() else None


def builtin_names() -> list[str]:
    """Names of the rulesets shipped with the package."""
    return sorted(p.stem for p in BUILTIN_DIR.glob("*.toml"))


def _read(name_or_path: str, seen: tuple[str, ...] = ()) -> tuple[dict, str]:
    path = _builtin_path(name_or_path)
    if path is None:
        path = Path(name_or_path)
        why = not_a_file(name_or_path)
        if why is not None:
            if why == "no such file":
                why += " and no built-in of that name"
            raise RulesetError(f"ruleset '{name_or_path}': {why} (built-ins: "
                               f"{', '.join(builtin_names())})")
    label = str(path) if _builtin_path(name_or_path) is None else name_or_path
    key = str(path.resolve())
    if key in seen:
        raise RulesetError(f"{label}: key 'extends': cycle through '{label}'")
    seen = (*seen, key)
    try:
        raw = load_toml(path)
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{label}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise RulesetError(f"{label}: not a text file (not UTF-8)") from None
    except OSError as e:
        raise RulesetError(f"{label}: cannot read: {e.strerror}") from None
    plugins = raw.pop("plugins", None)
    if plugins is not None:  # a user's rules files, relative to this file, loaded before the check
        if not isinstance(plugins, list) or not all(isinstance(p, str) for p in plugins):
            raise RulesetError(f"{label}: key 'plugins': expected a list of Python files")
        for p in plugins:
            try:
                add_card_file(p if Path(p).is_absolute() else path.parent / p)
            except RulesFileError as e:
                raise RulesetError(f"{label}: plugins: {e}") from None
    parent = raw.pop("extends", None)
    if parent is not None:
        if not isinstance(parent, str):
            raise RulesetError(f"{label}: key 'extends': expected a ruleset name or path")
        parent_path = parent
        if _builtin_path(parent) is None and not Path(parent).is_absolute():
            parent_path = str(path.parent / parent)
        try:
            base, _ = _read(parent_path, seen)
        except RulesetError as e:
            raise RulesetError(f"{label}: extends '{parent}': {e}") from None
        _check_unknown(raw, label)
        raw = _merge(base, raw)
    return raw, label


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _check_unknown(raw: dict, label: str) -> None:
    for k, v in raw.items():
        if k in TOP_KEYS:
            continue
        if k == "prices":
            if not isinstance(v, dict):
                raise RulesetError(f"{label}: key 'prices': expected tables "
                                   "[prices.set1] .. [prices.set6]")
            for s, table in v.items():
                if s not in PRICE_SETS:
                    raise RulesetError(
                        f"{label}: unknown key 'prices.{s}'; "
                        f"expected one of {', '.join(PRICE_SETS)}"
                    )
                if not isinstance(table, dict):
                    raise RulesetError(
                        f"{label}: key 'prices.{s}': expected a table of chip prices")
                for chip, price in table.items():
                    if chip not in CHIP_KEYS or chip.startswith("w"):
                        raise RulesetError(
                            f"{label}: unknown key 'prices.{s}.{chip}'; expected a buyable chip "
                            f"({', '.join(c for c in CHIP_KEYS if not c.startswith('w'))})"
                        )
                    if not (is_int(price) and 0 <= price <= 200):
                        raise RulesetError(
                            f"{label}: key 'prices.{s}.{chip}': expected an integer from 0 to 200, "
                            f"got {price!r}"
                        )
            continue
        if k not in SCHEMA:
            raise RulesetError(
                f"{label}: unknown key '{k}'; expected one of "
                f"{', '.join([*TOP_KEYS, *SCHEMA, 'prices'])}"
            )
        if not isinstance(v, dict):
            raise RulesetError(f"{label}: key '{k}': expected a table [{k}]")
        for kk in v:
            if kk not in SCHEMA[k]:
                raise RulesetError(
                    f"{label}: unknown key '{k}.{kk}'; expected one of {', '.join(SCHEMA[k])}"
                )


# Keys added after rulesets were first saved in reports: a resolved ruleset without them takes
# the built-in base ruleset's values (the ordinary game), so older run.json files and stand-alone
# ruleset files still load.
OPTIONAL_KEYS = (("game", "teams"), ("pot", "side"), ("pot", "test_tube"),
                 ("game", "overflow_bowl"), ("game", "penny_vp"), ("witches", "enabled"),
                 ("witches", "fixed"), ("cards", "force"), ("cards", "force_round"),
                 ("cards", "extra"), ("witches", "extra"))


def _fill_optional(d: dict) -> None:
    base = None
    for section, key in OPTIONAL_KEYS:
        node = d.setdefault(section, {})
        if isinstance(node, dict) and key not in node:
            if base is None:
                base = load_toml(BUILTIN_DIR / "base.toml")
            node[key] = copy.deepcopy(base[section][key])


def _validate(d: dict, label: str) -> None:
    _fill_optional(d)
    _check_unknown(d, label)
    for k in ("name",):
        if not isinstance(d.get(k), str):
            raise RulesetError(f"{label}: key '{k}': expected a string")
    for section, keys in SCHEMA.items():
        if section not in d:
            raise RulesetError(f"{label}: missing table [{section}]")
        for key, (what, check) in keys.items():
            if key not in d[section] and section == "supply":
                continue  # a chip type not in the box
            if key not in d[section]:
                raise RulesetError(f"{label}: missing key '{section}.{key}'; expected {what}")
            v = d[section][key]
            if not check(v):
                raise RulesetError(f"{label}: key '{section}.{key}': expected {what}, got {v!r}")
    g = d["game"]
    if g["min_players"] > g["max_players"]:
        raise RulesetError(f"{label}: key 'game.min_players': must not exceed game.max_players")
    t = d["track"]
    for key in ("coins", "vp"):
        if any(b < a for a, b in zip(t[key], t[key][1:])):
            raise RulesetError(f"{label}: key 'track.{key}': expected a non-decreasing list")
    if len(set(t["ruby_spaces"])) != len(t["ruby_spaces"]):
        raise RulesetError(f"{label}: key 'track.ruby_spaces': spaces must not repeat")
    tails = d["rats"]["tails"]
    if any(b <= a for a, b in zip(tails, tails[1:])) or any(x >= d["rats"]["lap"] for x in tails):
        raise RulesetError(
            f"{label}: key 'rats.tails': expected strictly increasing scores below rats.lap"
        )
    from sim.rules.cards import card_by_id, in_deck

    if not d["witches"]["enabled"]:
        hats = [c for c in d["cards"]["order"] if not in_deck(card_by_id(c), False)]
        if hats:
            raise RulesetError(f"{label}: key 'cards.order': {', '.join(hats)} need the herb "
                               "witches (witches.enabled = true)")
    _check_force(d, label)
    prices = d.get("prices", {})
    for c in BOOK_COLOURS:
        s = d["books"][c]
        if s == 0:
            continue
        ps = price_set(c, s)  # a user's book names the set whose prices it takes
        table = prices.get(f"set{ps}")
        letter = chips.COLOUR_LETTERS[chips.COLOUR_NAMES.index(c)]
        if table is None or not any(k.startswith(letter) for k in table):
            raise RulesetError(
                f"{label}: key 'books.{c}' = {s}: no prices for {c} in [prices.set{ps}]"
            )


def _check_force(d: dict, label: str) -> None:
    """``cards.force_round`` within the game's rounds, and a forced witch-hat card only with the
    witches (the forced card itself is checked by the schema)."""
    from sim.rules.cards import card_by_id, in_deck

    cards, rounds = d["cards"], d["game"]["rounds"]
    if cards["force_round"] > rounds:
        raise RulesetError(f"{label}: key 'cards.force_round': expected 0 (a round per deal) to "
                           f"{rounds} (game.rounds), got {cards['force_round']}")
    force = cards["force"]
    if force and not in_deck(card_by_id(force), d["witches"]["enabled"]):
        raise RulesetError(f"{label}: key 'cards.force': {force} needs the herb witches "
                           "(witches.enabled = true)")


def apply_override(d: dict, assignment: str, label: str = "--set") -> None:
    """Apply one ``section.key=value`` override in place (value is read as TOML, else a string)."""
    if "=" not in assignment:
        raise RulesetError(f"{label} '{assignment}': expected section.key=value, "
                           "e.g. game.explosion_limit=8")
    key, _, text = assignment.partition("=")
    key = key.strip()
    parts = key.split(".")
    if not all(parts):
        raise RulesetError(f"{label} '{assignment}': malformed key '{key}'")
    try:
        value = tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = text.strip()
    node = d
    for p in parts[:-1]:
        if not isinstance(node.get(p), dict):
            if p == "prices" or (node is d.get("prices")):
                node = node.setdefault(p, {})
                continue
            raise RulesetError(
                f"{label} '{assignment}': unknown key '{key}'; sections are "
                f"{', '.join([*SCHEMA, 'prices'])}"
            )
        node = node[p]
    if len(parts) == 1 and parts[0] not in TOP_KEYS:
        raise RulesetError(f"{label} '{assignment}': unknown key '{key}'; write section.key=value")
    if parts == ["books", "all"]:  # a whole ingredient set; orange and black keep their one book
        # Sets 5, 6: black, locoweed too
        for c in HW_SET_COLOURS if value in (5, 6) else SET_COLOURS:
            node[c] = value
        return
    node[parts[-1]] = value


def load_ruleset(name_or_path: str = "base",
                 overrides: list[str] | tuple[str, ...] = ()) -> Ruleset:
    """Load a built-in ruleset by name or a TOML file by path, apply overrides and validate."""
    d, label = _read(name_or_path)
    for o in overrides:
        apply_override(d, o)
    if overrides:
        label = f"{label} (with --set {', '.join(overrides)})"
    _validate(d, label)
    return _build(d, label, tuple(o.strip() for o in overrides))


def ruleset_from_data(d: dict, label: str, overrides: list[str] | tuple[str, ...] = ()) -> Ruleset:
    """A ruleset from already-resolved tables (e.g. those a report's run.json saved), validated;
    ``overrides`` are only recorded (they are already applied in ``d``)."""
    d = copy.deepcopy(d)
    _validate(d, label)
    return _build(d, label, tuple(o.strip() for o in overrides))


def _build(d: dict, label: str, overrides: tuple[str, ...] = ()) -> Ruleset:
    t = d["track"]
    ruby = np.zeros(TRACK_LEN, dtype=np.int64)
    ruby[t["ruby_spaces"]] = 1
    supply = np.zeros(chips.N_TYPES, dtype=np.int64)
    for k, n in d["supply"].items():
        supply[CHIP_KEYS.index(k)] = n
    book_set = np.zeros(chips.N_COLOURS, dtype=np.int64)
    book_round = np.zeros(chips.N_COLOURS, dtype=np.int64)
    for c in BOOK_COLOURS:
        ci = chips.COLOUR_NAMES.index(c)
        book_set[ci] = d["books"][c]
        book_round[ci] = d["book_round"][c] if d["books"][c] else 0
    price = np.full(chips.N_TYPES, -1, dtype=np.int64)
    for ti in range(chips.N_TYPES):
        col = int(chips.TYPE_COLOUR[ti])
        s = book_set[col]
        if col == chips.WHITE or s == 0:
            continue
        p = d.get("prices", {}).get(f"set{price_set(chips.COLOUR_NAMES[col], s)}", {}).get(
            CHIP_KEYS[ti])
        if p is not None:
            price[ti] = p
    die = np.array([DIE_FACES.index(f) for f in d["die"]["faces"]], dtype=np.int64)
    bag = chips.counts_of(chips.parse_chips(d["game"]["starting_bag"]))
    return Ruleset(
        name=d["name"],
        source=label,
        data=d,
        coins=np.array(t["coins"], dtype=np.int64),
        vp=np.array(t["vp"], dtype=np.int64),
        ruby=ruby,
        tails=np.array(d["rats"]["tails"], dtype=np.int64),
        die=die,
        supply=supply,
        price=price,
        book_round=book_round,
        book_set=book_set,
        starting_bag=bag,
        overrides=overrides,
    )


def tails_between(tails: np.ndarray, lap: int, a: int, b: int) -> int:
    """Rat tails strictly between scores a and b (a <= b): tails t + lap*k with a <= t+lap*k < b."""
    n = 0
    for base in range(0, b + 1, lap):
        for t in tails:
            s = base + int(t)
            if a <= s < b:
                n += 1
    return n
