"""The plugin surface, declared once: the slot-function signature, its arguments, every slot (what
``a`` and ``b`` are and what the result means) and the helpers a slot function may call.

``strategies.registry.register`` accepts exactly the slot names declared here,
``quacks strategies --slots`` prints this declaration, and README's tables under "Writing a
strategy" are generated from it (``python -m strategies.slot_docs`` prints them; a test compares
them row by row). Texts are Markdown (code in backticks). Pure Python: importing this module
compiles nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

SIGNATURE = "f(P, s, G, R, SP, a, b, M) -> int"


@dataclass(frozen=True)
class Argument:
    """One argument of a slot function."""

    name: str
    what: str


@dataclass(frozen=True)
class SlotDoc:
    """One decision slot: its name (the keyword of ``register``), what ``a`` and ``b`` are, and
    what the function returns."""

    name: str
    ab: str
    result: str


ARGUMENTS = (
    Argument("P", "every player's state row; read it with the helpers below (`white_total(P, s)`, "
                  "`in_bag(P, s, t)`, `pot_chip(P, s, k)`, ...; any seat's, not only yours)"),
    Argument("s", "your seat"),
    Argument("G", "the game row: `round_number(G)` (0 outside a game), `players(G)`, "
                  "`potion_seen(G, o)` (whether seat o's potion of this round may be read while "
                  "brewing: the information model; outside brewing every potion may), the buy "
                  "slot's `supply(G, t)` and `for_sale(G, t)`"),
    Argument("R", "the rules: `space_coins(R, space)`, `space_vp(R, space)`, "
                  "`space_ruby(R, space)`, `price(R, t)`, `rounds_left(G, R)`"),
    Argument("SP", "parameters: yours are `param(SP, s, i)`, i the position in `params` "
                   "(`param_index(PARAMS, name)` gives it by name); a chip list, "
                   "`Param(\"prefer\", \"chips\", [\"r4\", \"b2\"])`, is read with "
                   "`chip_at(SP, s, i, k)` and `chip_rank(SP, s, i, t)` (up to 12 chips, colour "
                   "names allowed: `mine:prefer=k1>blue>o1`)"),
    Argument("a, b", "what the slot asks (below)"),
    Argument("M", "the seat's scratch memory, float64 (empty unless a strategy needs memory)"),
)

SLOTS = (
    SlotDoc("stop", "-", "1 to draw another chip, 0 to stop"),
    SlotDoc("flask", "a = the white chip just placed", "1 to send it back with the flask"),
    SlotDoc("blue", "a = chips looked at, `looked_at(P, s, i)` for i < a",
            "index of the chip to place, -1 none"),
    SlotDoc("yellow", "a = the white chip before it", "1 to return it to the bag"),
    SlotDoc("explode", "a = VP, b = coins", "0 takes the VP, 1 the coins"),
    SlotDoc("buy", "a = coins, b = max chips; `supply(G, t)`, `for_sale(G, t)`, `price(R, t)`, "
                   "`can_buy(G, R, t, coins, used_colours)`",
            "n, after `write_purchase(G, i, t)` for i < n (the kernel checks legality); "
            "`buy_list` buys a chip-list parameter in order"),
    SlotDoc("ruby", "a = spendings so far this round", "0 stop, 1 droplet +1, 2 refill the flask"),
    SlotDoc("purple", "a = purple chips in the pot", "the tier (1-3)"),
    SlotDoc("red", "a = the extra distance offered (a red chip's by its book, red Set 4's white 1, "
                   "yellow Sets 2, 4 and 5), b = the chip's type; called only when an extra is "
                   "offered", "1 to take it, 0 to decline (built-ins: take)"),
    SlotDoc("book", "a = the question (`Q_*`, see Ingredient sets 1-4), b = its argument",
            "the answer; `BUILT_IN` leaves it to the book's built-in answer"),
    SlotDoc("card", "a = the card number (1-27, the order of `sim.rules.cards.CARDS`), "
                    "b = its argument (chips drawn: "
                    "`card_look(P, s, i)` for i < b)",
            "the answer (`strategies/slots.py`); `BUILT_IN` leaves it to the card's built-in "
            "answer"),
    SlotDoc("tube", "a = the glass the move would enter (1-12); test-tube side only",
            "1 the test-tube droplet, 0 the pot droplet"),
    SlotDoc("witch", "a = the witch (1-12, `W_*`) or 13 (`WQ_SIX_NEXT`: which of the six chips "
                     "next, `witch_look(P, s, i)`), b = her argument; Herb Witches only, asked "
                     "only when she is in play and her penny is held",
            "0 keeps the penny; otherwise the answer (`strategies/slots.py`); `BUILT_IN` leaves "
            "it to the fallback's witch thresholds"),
)

SLOT_NAMES = tuple(d.name for d in SLOTS)

# The helpers of strategies.helpers_nb, grouped as README and `quacks strategies --slots` list them.
HELPERS = (
    ("parameters", ("param", "chip_at", "chip_rank")),
    ("bag and pot", ("white_total", "explosion_limit", "explosion_chance", "over_limit",
                     "risk_free_draw", "chips_in_bag", "in_bag", "colour_in_bag", "pot_size",
                     "pot_chip", "pot_space", "reward_space", "colour_of")),
    ("player", ("flask_full", "rubies", "droplet", "score", "best_other_score", "score_gap")),
    ("track", ("space_coins", "space_vp", "space_ruby")),
    ("game", ("round_number", "rounds_left", "players", "potion_seen", "round_card")),
    ("chips looked at", ("looked_at", "card_look", "witch_look")),
    ("buying", ("supply", "for_sale", "price", "can_buy", "write_purchase", "buy_list",
                "purchase")),
)
HELPER_NAMES = tuple(name for _, names in HELPERS for name in names)


def slot_doc(name: str) -> SlotDoc:
    """The declaration of one slot (KeyError if there is no such slot)."""
    for d in SLOTS:
        if d.name == name:
            return d
    raise KeyError(name)


def helper_docs() -> list[tuple[str, str, str]]:
    """(group, ``name(arguments)``, first sentence of its docstring) for every declared helper,
    read from ``strategies.helpers_nb`` (imports Numba; compiles nothing)."""
    import inspect

    from strategies import helpers_nb

    rows = []
    for group, names in HELPERS:
        for name in names:
            fn = getattr(helpers_nb, name).py_func
            doc = " ".join(inspect.getdoc(fn).split())
            first = doc.split(". ")[0].rstrip(".") + "."
            rows.append((group, f"{name}{inspect.signature(fn)}", first))
    return rows


def plain(text: str) -> str:
    """A declared text without its Markdown backticks (for the terminal)."""
    return text.replace("`", "")


def markdown_arguments() -> list[str]:
    """README's table of the slot-function arguments, one string per line."""
    rows = ["| argument | what it is |", "|---|---|"]
    return rows + [f"| `{a.name}` | {a.what} |" for a in ARGUMENTS]


def markdown_slots() -> list[str]:
    """README's table of the slots, one string per line."""
    rows = ["| slot | a, b | return |", "|---|---|---|"]
    return rows + [f"| `{d.name}` | {d.ab} | {d.result} |" for d in SLOTS]


def markdown_helpers() -> list[str]:
    """README's list of the helpers, one line per group (imports ``strategies.helpers_nb``)."""
    calls: dict[str, list[str]] = {}
    for group, call, _ in helper_docs():
        calls.setdefault(group, []).append(f"`{call}`")
    return [f"- {group}: {', '.join(c)}" for group, c in calls.items()]


if __name__ == "__main__":
    for block in (markdown_arguments(), markdown_slots(), markdown_helpers()):
        print("\n".join(block), end="\n\n")
