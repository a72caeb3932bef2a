"""The table of the user's ingredient books (rules files, ``sim.rules.book_files``), generated.

A user's book is a colour's effect for a new set number (Set 7 or later), chosen by
``books.<colour> = <set>``; its module's functions are named after the book hook points
(``sim.rules.declare.BOOK_HOOK_POINTS``). The shipped books' table (``sim.kernel.books.hooks``)
calls these hook points where a user's book can act: ``user_has_action`` / ``user_placed`` (a
chip of the book's colour placed: its action) and ``user_at_b`` (evaluation step B, seat s).
Each compares ``R[R_BOOK + colour]`` with the user's set, the way the shipped table does; with no
rules file loaded they are empty (``False`` / nothing), so the games and the compiled code are
the shipped ones'.

``SOURCE`` is the generated text (``python -m sim.kernel.books.user_hooks`` prints it). With a
rules file loaded, every kernel that depends on this module is cached apart
(``sim.numba_cache.RULES_TABLES``).
"""

from __future__ import annotations

from sim.kernel.jit import kernel  # noqa: F401 (the generated source's names)
from sim.kernel.layout import R_BOOK  # noqa: F401
from sim.kernel.rules_modules import compile_hooks, hook_params, import_rules_module
from sim.rules.book_files import BOOKS_BUILT, USER_BOOKS, BookSource
from sim.rules.chips import COLOUR_NAMES, TYPE_COLOUR  # noqa: F401
from sim.rules.declare import BOOK_HOOK_POINTS


def _variable(src: BookSource) -> str:
    return f"user_book_{src.decl.colour}_{src.decl.set}"


def _import(src: BookSource):
    """The book's module (imported under a private name); RulesFileError (one line) if it
    fails."""
    module = import_rules_module(f"quacks_rules_{_variable(src)}", src.path,
                                 f"book '{src.decl.id}'")
    compile_hooks(module, {p.name: p.per_chip for p in BOOK_HOOK_POINTS if p.name in src.hooks})
    return module


def _test(src: BookSource) -> str:
    colour = COLOUR_NAMES.index(src.decl.colour)
    return f"R[R_BOOK + {colour}] == {src.decl.set}"


def generate(sources: list[BookSource]) -> str:
    """The table's source for these books."""
    placed = [s for s in sources if "placed" in s.hooks]
    at_b = [s for s in sources if "at_b" in s.hooks]
    out = ["@kernel(inline=True)", "def user_has_action(c, R):"]
    tests = [f"(c == {COLOUR_NAMES.index(s.decl.colour)} and {_test(s)})" for s in placed]
    out.append(f"    return {' or '.join(tests) if tests else 'False'}")
    out += ["", "", "@kernel(inline=True)",
            "def user_placed(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF):"]
    if placed:
        out.append("    c = TYPE_COLOUR[t]")
    for i, src in enumerate(placed):
        colour = COLOUR_NAMES.index(src.decl.colour)
        out.append(f"    {'if' if i == 0 else 'elif'} c == {colour} and {_test(src)}:")
        out.append(f"        {_variable(src)}.placed({', '.join(_args(src, 'placed'))})")
    if not placed:
        out.append("    return")
    out += ["", "", "@kernel(inline=True)",
            "def user_at_b(P, s, G, R, supply, die, DS, SK, SP, SC, rng, E, UF):"]
    for src in at_b:
        out.append(f"    if {_test(src)}:")
        out.append(f"        {_variable(src)}.at_b({', '.join(_args(src, 'at_b'))})")
    if not at_b:
        out.append("    return")
    return "\n".join(out) + "\n"


def _args(src: BookSource, point: str) -> list[str]:
    return hook_params(getattr(_MODULES[_variable(src)], point))


_MODULES = {_variable(src): _import(src) for src in USER_BOOKS}
SOURCE = generate(USER_BOOKS)
globals().update(_MODULES)
exec(compile(SOURCE, __file__, "exec"), globals())  # noqa: S102 - the generated table
BOOKS_BUILT[0] = True

if __name__ == "__main__":
    print(SOURCE, end="")
