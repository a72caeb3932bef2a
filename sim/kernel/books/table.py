"""The generator of the ingredient books' hook tables: Python source for every hook point
(``sim.rules.declare.BOOK_HOOK_POINTS``) that tests the book the ruleset chose (``R[R_BOOK +
colour] == set``) and calls the function of that name in the book's module, handing it the
arguments it names. ``sim.kernel.books.hooks`` (the table the brewing, round and evaluation code
call) and ``sim.kernel.books.gain_hooks`` (the hook points the cards call too: a chip given to a
seat, a bag refilled) execute what it generates; it names no book.

What a colour's chip does with no book acting (``COLOUR_DEFAULTS``: a red chip is counted, a
locoweed moves 1) and that every yellow chip is counted once placed (``ALWAYS_ACTS``) are rules
of the chips, written here; they name no book.
"""

from __future__ import annotations

import importlib

from sim.kernel.rules_modules import call_text, compile_hooks, import_rules_module
from sim.rules.book_files import book_sources, is_shipped
from sim.rules.card_files import BookSource
from sim.rules.chips import COLOUR_NAMES
from sim.rules.declare import BOOK_FLAG_POINTS, BOOK_HOOK_POINTS, BOOK_HOOKS

# the hook points the cards call too (``sim.kernel.books.gain_hooks``): a chip a seat gains, its
# bag refilled before a potion (a card's restart, its own draws)
GAIN_POINTS = ("bag_refilled", "chip_bought", "potion_restarted")
# the functions of a user's book compiled besides its hook points
SPECIAL_INLINE = {"default": False, "scripted": False}

NO_BOOK_MOVE = -1  # chip_move: no book and no rule of its colour moves it (a card's may apply)

# per-chip hook point -> colour -> what a chip of that colour returns when no book acts on it
COLOUR_DEFAULTS = {
    "chip_move": {
        "white": "TYPE_VALUE[t]",
        "red": "TYPE_VALUE[t] + offer_red(P, s, t, 0, G, R, SK, SP, SC, rng, E, UF)",  # counted
        "yellow": "TYPE_VALUE[t]",
        "locoweed": "1",  # no printed value
    },
}
# the chips that act once placed whatever their book (``chip_action``): what they do after the
# book's action, unless a scripted draw failed
ALWAYS_ACTS = {"yellow": "P[s, F_YELLOW_PTR] += 1"}  # counted: the yellow books read it
# the action hook points, generated into ``has_action`` / ``chip_action``
ACTION_POINTS = ("placed", "chip_action")
# the name the round's code calls a hook point by, where it is not the hook point's
CALLED_AS = {"at_b": "user_books_at_b"}


def _variable(src: BookSource) -> str:
    """The name a book's module has in the generated source."""
    if is_shipped(src):
        return src.path.stem
    return f"user_book_{src.decl.colour}_{src.decl.set}"


def _import(src: BookSource):
    """The book's module (a user's rules file is imported under a private name and its plain
    hook functions compiled; RulesFileError, one line, if it fails)."""
    if is_shipped(src):
        return importlib.import_module(f"{__package__}.{src.path.stem}")
    module = import_rules_module(f"quacks_rules_{_variable(src)}", src.path,
                                 f"book '{src.decl.id}'")
    compile_hooks(module, {**{p: BOOK_HOOKS[p].per_chip for p in src.hooks}, **SPECIAL_INLINE})
    return module


def _colour(name: str) -> int:
    return COLOUR_NAMES.index(name)


def _chosen(src: BookSource, book: str = "") -> str:
    """The test that the ruleset chose this book (against the variable ``book`` if named)."""
    return (f"{book} == {src.decl.set}" if book
            else f"R[R_BOOK + {_colour(src.decl.colour)}] == {src.decl.set}")


def _sets_test(users: list[BookSource]) -> str:
    """One test that the ruleset chose any of these books: runs of sets of one colour as
    ``lo <= R[R_BOOK + c] <= hi``."""
    terms = []
    for colour in dict.fromkeys(b.decl.colour for b in users):
        sets = sorted({b.decl.set for b in users if b.decl.colour == colour})
        book = f"R[R_BOOK + {_colour(colour)}]"
        runs: list[list[int]] = []
        for n in sets:
            if runs and n == runs[-1][1] + 1:
                runs[-1][1] = n
            else:
                runs.append([n, n])
        terms += [f"{book} == {lo}" if lo == hi else f"{lo} <= {book} <= {hi}" for lo, hi in runs]
    return terms[0] if len(terms) == 1 else "(" + " or ".join(terms) + ")"


def _chain(users: list[BookSource], modules: dict, ind: str, body) -> list[str]:
    """An if/elif chain over the books chosen, each branch the lines ``body(src, call)`` gives
    (``call(point)``: the call of the book's function); a local ``book`` when they share a
    colour."""
    if not users:
        return []
    shared = len({b.decl.colour for b in users}) == 1 and len(users) > 1
    out = [f"{ind}book = R[R_BOOK + {_colour(users[0].decl.colour)}]"] if shared else []
    for i, src in enumerate(users):
        var = _variable(src)
        out.append(f"{ind}{'if' if i == 0 else 'elif'} {_chosen(src, 'book' if shared else '')}:")
        out += [f"{ind}    {line}" for line in body(
            src, lambda point, var=var: call_text(var, modules[var], point))]
    return out


def _books_of(sources: list[BookSource], points: tuple[str, ...]) -> list[BookSource]:
    return [s for s in sources if any(p in s.hooks for p in points)]


def _header(name: str, params: tuple[str, ...]) -> list[str]:
    return ["", "", "@kernel(inline=True)", f"def {name}({', '.join(params)}):"]


def _per_chip(point, sources: list[BookSource], modules: dict) -> list[str]:
    """A per-chip hook point: one compare of the chip's colour per colour a book (or a rule of
    the colour) acts on, then the chosen books of that colour."""
    out = _header(point.name, point.params)
    if point.colour != "c":
        out.append(f"    c = {point.colour}")
    defaults = COLOUR_DEFAULTS.get(point.name, {})
    for colour in COLOUR_NAMES:
        users = [s for s in _books_of(sources, (point.name,)) if colour in s.decl.chip_colours]
        if not users and colour not in defaults:
            continue
        out.append(f"    if c == {_colour(colour)}:  # {colour}")
        out += _chain(users, modules, "        ", lambda src, call: [f"return {call(point.name)}"])
        if colour in defaults:
            out.append(f"        return {defaults[colour]}")
    out.append(f"    return {point.default}")
    return out


def _per_seat(point, sources: list[BookSource], modules: dict) -> list[str]:
    """A hook point of a seat or a step: the chosen book of each colour, in colour order."""
    out = _header(CALLED_AS.get(point.name, point.name), point.params)
    users = _books_of(sources, (point.name,))
    ret = "" if point.default is None else "return "
    for colour in dict.fromkeys(s.decl.colour for s in users):
        out += _chain([s for s in users if s.decl.colour == colour], modules, "    ",
                      lambda src, call: [f"{ret}{call(point.name)}"])
    if point.default is not None:
        out.append(f"    return {point.default}")
    elif not users:
        out.append("    return")
    return out


def _action_body(src: BookSource, call, keep: bool) -> list[str]:
    """A book's branch of ``chip_action``: its ``placed`` (nothing placed next), then its
    ``chip_action`` (returned, or kept in ``nxt, no`` when the colour acts after it)."""
    out = [call("placed")] if "placed" in src.hooks else []
    if "chip_action" in src.hooks:
        out.append(f"{'nxt, no = ' if keep else 'return '}{call('chip_action')}")
    return out


def _actions(sources: list[BookSource], modules: dict) -> list[str]:
    """``has_action`` (whether a chip acting as t does something once placed) and
    ``chip_action`` (its action: the chip placed next and its draw number)."""
    point = BOOK_HOOKS["chip_action"]
    books = _books_of(sources, ACTION_POINTS)
    by_colour = {c: [s for s in books if c in s.decl.chip_colours] for c in COLOUR_NAMES}
    terms = [f"c == {_colour(c)}" for c in ALWAYS_ACTS]
    terms += [f"(c == {_colour(c)} and {_sets_test(users)})" for c, users in by_colour.items()
              if users and c not in ALWAYS_ACTS]
    out = _header("has_action", ("t", "R"))
    out += ["    c = TYPE_COLOUR[t]", f"    return {' or '.join(terms) or 'False'}"]
    out += _header("chip_action", point.params)
    out.append(f"    c = {point.colour}")
    for colour, users in by_colour.items():
        after = ALWAYS_ACTS.get(colour)
        if not users and after is None:
            continue
        out.append(f"    if c == {_colour(colour)}:  # {colour}")
        if after is not None:
            out.append("        nxt, no = ACTION_NONE, 0")
        out += _chain(users, modules, "        ",
                      lambda src, call, keep=after is not None: _action_body(src, call, keep))
        if after is not None:
            out += ["        if nxt != ACTION_ABORT:", f"            {after}",
                    "        return nxt, no"]
    out.append(f"    return {point.default}")
    return out


def _flag(point, sources: list[BookSource]) -> list[str]:
    """A flag hook point: whether the ruleset chose a book that raises it."""
    tests = [_chosen(s) for s in sources if point.name in s.decl.flags]
    return [*_header(point.name, point.params), f"    return {' or '.join(tests) or 'False'}"]


def generate(sources: list[BookSource], modules: dict[str, object],
             points: tuple[str, ...] | None = None) -> str:
    """The book table's source for these books (``modules``: each book's module by name), of
    every hook point and flag or only of ``points``."""
    out: list[str] = []
    for point in BOOK_HOOK_POINTS:
        if points is not None and point.name not in points:
            continue
        if point.name == "chip_action":
            out += _actions(sources, modules)
        elif point.name in ACTION_POINTS:
            continue
        elif point.per_chip:
            out += _per_chip(point, sources, modules)
        else:
            out += _per_seat(point, sources, modules)
    for point in BOOK_FLAG_POINTS:
        if points is None or point.name in points:
            out += _flag(point, sources)
    return "\n".join(out[2:]) + "\n"


def _order(src: BookSource) -> tuple[int, int]:
    return _colour(src.decl.colour), src.decl.set




def ordered_sources() -> list[BookSource]:
    """Every book (shipped, then the user's loaded), by colour and set."""
    return sorted(book_sources(), key=_order)


def shipped(sources: list[BookSource]) -> list[BookSource]:
    """The shipped books of ``sources``, in their order (a table generated from them alone is
    the shipped text)."""
    return [src for src in sources if is_shipped(src)]


def book_modules(sources: list[BookSource], points: tuple[str, ...] | None = None) -> dict:
    """Each book's module under its name in the generated source (of the books with a function
    of one of ``points``, if given), imported."""
    return {_variable(src): _import(src) for src in sources
            if points is None or set(points) & set(src.hooks)}
