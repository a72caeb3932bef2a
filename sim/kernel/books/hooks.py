"""The hook table of the ingredient books, generated from the books' declarations.

Every point where a book can change the round (``sim.rules.declare.BOOK_HOOK_POINTS``) is a
kernel function here that tests the book the ruleset chose (``R[R_BOOK + colour] == set``) and
calls the function of that name in the book's module, handing it the arguments it names. The
functions are generated as Python source from ``sim.rules.book_files.book_sources()``: every
shipped book's module in ``sim/kernel/books/`` (``<colour>_<set>.py``, declaring itself with
``BOOK = book(...)``), then the books of any rules file loaded before this module is imported.
A user's book gets the same hook points as a shipped one. The brewing, round, evaluation and
single-potion code call these functions and never name a book; ``SOURCE`` is the generated text
(``python -m sim.kernel.books.hooks`` prints it).

Hook points, in the order of a round: ``bag_refilled``; per chip, inlined, one compare of the
chip's colour when no book acts: ``not_placed``, ``acting_type``, ``chip_move`` (``NO_BOOK_MOVE``
for a colour with no move of its own: a card's applies), ``doubled_move``, ``has_action`` /
``chip_action`` (a book's ``placed`` or ``chip_action``); ``before_draw_chip``, ``potion_ended``;
step B, each seat in start-player order: ``grants_at_b`` (a flag), ``green_at_b``, ``purple_at_b``,
``coins_at_b``, ``black_at_b``, ``user_books_at_b`` (the ``at_b`` hook point); buying:
``chip_bought``, ``buying_moves_droplet`` (a flag). A per-chip hook point calls a book for the
chips of the colours it acts on (its own, or ``book(..., chips=...)``: red Set 4's white chips).

What a colour's chip does with no book acting (``COLOUR_DEFAULTS``: a red chip is counted, a
locoweed moves 1) and that every yellow chip is counted once placed (``ALWAYS_ACTS``) are rules
of the chips, written here; they name no book. Chips held beside the pot (red Set 6) and chips
picked to go first (green Set 5) are placed by ``sim.kernel.brew`` (``place_held``,
``place_first``), driven by their state (``F_NHOLD``, ``F_NFIRST``).

The Numba cache stamps this module with every module of the folder (the marker line below, read
by ``sim.numba_cache``); with a rules file loaded, every kernel that depends on this table is
cached apart (``sim.numba_cache.RULES_TABLES``).
"""

# numba-cache-depends: sim/kernel/books/*.py

from __future__ import annotations

import importlib

# the generated source's names (it runs in this module's namespace)
from sim.kernel.books.common import ACTION_ABORT, ACTION_NONE, offer_red  # noqa: F401
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import F_YELLOW_PTR, R_BOOK  # noqa: F401
from sim.kernel.rules_modules import call_text, compile_hooks, import_rules_module, install
from sim.rules.book_files import BOOKS_BUILT, book_sources, is_shipped
from sim.rules.card_files import BookSource
from sim.rules.chips import COLOUR_NAMES, TYPE_COLOUR, TYPE_VALUE  # noqa: F401
from sim.rules.declare import BOOK_FLAG_POINTS, BOOK_HOOK_POINTS, BOOK_HOOKS

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
    compile_hooks(module, {**{p: BOOK_HOOKS[p].per_chip for p in src.hooks}, "default": False})
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


def generate(sources: list[BookSource], modules: dict[str, object]) -> str:
    """The book table's source for these books (``modules``: each book's module by name)."""
    out: list[str] = []
    for point in BOOK_HOOK_POINTS:
        if point.name == "chip_action":
            out += _actions(sources, modules)
        elif point.name in ACTION_POINTS:
            continue
        elif point.per_chip:
            out += _per_chip(point, sources, modules)
        else:
            out += _per_seat(point, sources, modules)
    for point in BOOK_FLAG_POINTS:
        out += _flag(point, sources)
    return "\n".join(out[2:]) + "\n"


def _order(src: BookSource) -> tuple[int, int]:
    return _colour(src.decl.colour), src.decl.set


SOURCES = sorted(book_sources(), key=_order)
_modules = {_variable(src): _import(src) for src in SOURCES}
SOURCE = generate(SOURCES, _modules)
install(globals(), _modules, SOURCE, BOOKS_BUILT)
