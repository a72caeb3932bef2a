"""``quacks-rules TABLE``: the rules reference, generated from the rule declarations.

TABLE is one of ``rulesets``, ``books``, ``cards``, ``witches``, ``variants`` (the data of
``quacks rules --json``: ``sim.cli.rules_cmd.listing``, which reads ``sim.rules.books``,
``cards``, ``witches`` and ``variants``) or ``keys`` (every ruleset key, from
``sim.rules.schema.SCHEMA``, with its value in each built-in ruleset).

Each rule is shown with its number and where the rules sources give it: the sections of
``component-data.md`` (the project's table of every number and effect, section by section) and
the rules guide, as mapped in ``BOOK_SOURCE``, ``CARD_SOURCE``, ``WITCH_SOURCE`` and
``VARIANT_SOURCE`` below (a rule the map does not place fails the build).
"""

from __future__ import annotations

import json

from docnodes import para, table
from docutils.parsers.rst import Directive

CD = "component-data.md"
PRICES = f"{CD} §6 (prices)"
# component-data.md section 7 has a subsection per colour for Sets 1-4 (orange and black: one book)
SET14_SECTION = {"orange": "7.1", "green": "7.2", "blue": "7.3", "red": "7.4", "yellow": "7.5",
                 "purple": "7.6", "black": "7.7"}
HERB_WITCHES_BOOKS = {"orange": "10.3", "locoweed": "10.4"}  # the rest of Sets 5-6: 10.6
CARD_SOURCE = {"": f"{CD} §8.1 (the base game's 24 cards)",
               "herb-witches": f"{CD} §8.2 (the witch-hat cards of The Alchemists)"}
WITCH_SOURCE = f"{CD} §10.2; the Herb Witches rules"
VARIANT_SOURCE = {
    "test-tube": f"{CD} §2.1 and §9; the rules guide's publisher options",
    "synchronized": "the rules guide's publisher timing option; decisions.md (information model)",
    "teams": "the rules guide's house format for four (teaching teams)",
    "sequential": "decisions.md (information model: an analysis option)",
    "no-cards": f"{CD} §8.1 (the deck), left out",
    "card-exclude": f"{CD} §8.1; decisions.md (a card's measured effect)",
    "card-order": f"{CD} §8.1 (the deck, one card a round)",
    "card-force": "decisions.md (a card's measured effect)",
}


def book_source(b: dict) -> str:
    """Where the rules sources give book ``b`` (an entry of ``quacks rules --json``)."""
    if b["set"] in (None, 1, 2, 3, 4) and b["colour"] in SET14_SECTION:
        sec = SET14_SECTION[b["colour"]]
    elif b["colour"] in HERB_WITCHES_BOOKS:
        sec = HERB_WITCHES_BOOKS[b["colour"]]
    elif b["set"] in (5, 6):
        sec = "10.6"
    else:
        raise ValueError(f"no source for the {b['colour']} book, set {b['set']}")
    return f"{CD} §{sec}; {PRICES}"


def _listing() -> dict:
    from sim.cli.rules_cmd import listing

    return listing()


def _rulesets(data):
    rows = [[f"`{r['name']}`", r["status"], r["description"]] for r in data["rulesets"]]
    return [table(["name", "status", "description"], rows, [2, 2, 8], ("quacks-ref",))]


def _books(data):
    rows = []
    for b in data["books"]:
        text = (f"({b['side']}) " if b["side"] else "") + b["text"]
        effect = [para(text)] + ([para("choice: " + "; ".join(b["choices"]))]
                                 if b["choices"] else [])
        prices = ", ".join(f"`{c}` {p}" for c, p in b["prices"].items())
        rows.append([b["colour"], str(b["set"] or "all"), b["ingredient"], prices, b["timing"],
                     effect, "yes" if b["implemented"] else "no", book_source(b)])
    return [table(["colour", "set", "ingredient", "prices (coins)", "timing", "effect",
                   "played", "source"], rows, [2, 1, 2, 3, 2, 9, 1, 3], ("quacks-ref",))]


def _cards(data):
    rows = [[str(c["number"]), f"`{c['id']}`", c["name"], c["timing"], c["text"],
             CARD_SOURCE[c.get("needs", "")]] for c in data["cards"]]
    return [table(["#", "id", "name", "timing", "effect", "source"], rows,
                  [1, 3, 3, 1, 9, 3], ("quacks-ref",))]


def _witches(data):
    rows = [[str(w["number"]), f"`{w['id']}`", w["group"], w["phase"], w["text"], WITCH_SOURCE]
            for w in data["witches"]]
    return [table(["#", "id", "group", "phase", "effect", "source"], rows,
                  [1, 3, 2, 3, 9, 3], ("quacks-ref",))]


def _variants(data):
    rows = []
    for k, v in enumerate(data["variants"], 1):
        text = [para(v["text"])]
        if v.get("glasses"):
            text.append(para("glasses: " + ", ".join(f"{g['glass']}: {g['bonus']}"
                                                     for g in v["glasses"])))
        if v["id"] not in VARIANT_SOURCE:
            raise ValueError(f"no source for the variant {v['id']}")
        rows.append([str(k), f"`{v['id']}`", f"`{v['setting']}`", v["status"], text,
                     VARIANT_SOURCE[v["id"]]])
    return [table(["#", "id", "setting", "status", "what it changes", "source"], rows,
                  [1, 2, 3, 2, 9, 3], ("quacks-ref",))]


def _value(v) -> str:
    return f"`{json.dumps(v)}`"


def _keys(_data):
    from sim.rules.ruleset import builtin_names, load_ruleset
    from sim.rules.schema import SCHEMA

    rulesets = {name: load_ruleset(name).data for name in builtin_names()}
    base = rulesets.get("base")
    rows = []
    for section, keys in SCHEMA.items():
        for key, (what, _check) in keys.items():
            cells = [f"`{section}.{key}`", what]
            for name, data in rulesets.items():
                v = data.get(section, {}).get(key)
                same = name != "base" and base is not None \
                    and base.get(section, {}).get(key) == v
                cells.append("as base" if same else _value(v))
            rows.append(cells)
    header = ["key", "expected", *(f"in {name}" for name in rulesets)]
    return [table(header, rows, [3, 4, *([4] * len(rulesets))], ("quacks-ref",))]


TABLES = {"rulesets": _rulesets, "books": _books, "cards": _cards, "witches": _witches,
          "variants": _variants, "keys": _keys}


class QuacksRules(Directive):
    """One table of the rules reference (see the module docstring)."""

    required_arguments = 1

    def run(self):
        which = self.arguments[0]
        if which not in TABLES:
            raise self.error(f"quacks-rules: unknown table {which!r}; one of {', '.join(TABLES)}")
        return TABLES[which](_listing())


def setup(app):
    app.add_directive("quacks-rules", QuacksRules)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
