"""The hook table of the fortune-teller deck, generated from the cards' declarations.

Every point where a card can change the round (``sim.rules.declare.CARD_HOOK_POINTS``) is a
kernel function here that switches on the round's card (``G[G_CARD]``) and calls the function of
that name in the card's module, handing it the arguments it names. The functions are generated
as Python source from ``sim.rules.card_numbers.CARD_SOURCES`` (every shipped card's module in
``sim/kernel/cards/``, then the cards of any rules file loaded before this module is imported)
and compiled here, so the round, brewing, evaluation and single-potion code call hook points and
never name a card, and a new card is its own module only. ``SOURCE`` is the generated text
(``python -m sim.kernel.cards.hooks`` prints it).

Hook points, in the order of a round: ``before_round`` (the card just turned up; then a purple
card is resolved for every player: ``purple_first`` before the seats, ``purple_seat`` for each
seat in start-player order, ``purple_last`` after them, then the droplets settle), ``rat_tails``,
``potion_setup``, per chip (inlined, one compare when no card acts: ``free_draws``,
``placed_move``, ``after_placed``, ``after_chip``), ``exploded``, ``after_brewing``,
``die_rolls``, ``ruby_space_rubies`` / ``after_ruby_space`` (step C) and ``end_of_round``.

Each hook point is ``@kernel(inline=True)`` and compares ``G[G_CARD]`` with each card that uses
it, in number order, the same chain of compares a hand-written table makes. Purple (resolved
before the round) is the card's declared timing.

The Numba cache stamps this module with every card module of the folder (the marker line below,
read by ``sim.numba_cache``); with a rules file loaded, every kernel that depends on this table
is cached in another folder, keyed by the rules files' code (``sim.numba_cache.cache_folder``).
"""

# numba-cache-depends: sim/kernel/cards/*.py

from __future__ import annotations

import importlib

# the generated source's names (it runs in this module's namespace)
from sim.kernel.droplet import settle_all  # noqa: F401
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import F_CARD_ARG, G_CARD, G_NP, G_START_PLAYER  # noqa: F401
from sim.kernel.rules_modules import compile_hooks, hook_params, import_rules_module, install
from sim.rules.card_files import CardSource
from sim.rules.card_numbers import CARD_SOURCES, HOOKS_BUILT, PURPLE
from sim.rules.declare import CARD_HOOK_POINTS

# The generated functions (importers name them: ``from sim.kernel.cards.hooks import
# after_chip``): is_purple, purple_phase and one per hook point of CARD_HOOK_POINTS.

# what a hook point does after its cards' branches (the purple card is resolved once the card
# turned up, then the droplets settle: before the rats, the start moves)
AFTER = {
    "before_round": (
        "    if is_purple(card):\n"
        "        purple_phase(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)\n"
        "        settle_all(P, G, R, supply, SK, SP, SC, rng, E, UF)\n"),
}

# the parts that name no card
CORE = '''
@kernel(inline=True)
def is_purple(card):
    return card > 0 and (PURPLE_CARDS >> card) & 1 != 0


@kernel
def purple_phase(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF):
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    first = purple_first(P, G)
    for k in range(n):
        s = (sp + k) % n
        P[s, F_CARD_ARG] = 0
        purple_seat(P, s, first, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
    purple_last(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF)
'''


def _variable(src: CardSource) -> str:
    """The name a card's module has in the generated source."""
    stem = src.decl.id.replace("-", "_")
    return stem if src.module else f"user_{stem}"


def _import(src: CardSource):
    """The card's module (a user's rules file is imported under a private name)."""
    if src.module:
        return importlib.import_module(f"{__package__}.{src.module}")
    return import_rules_module(f"quacks_rules_{src.decl.id.replace('-', '_')}", src.path,
                               f"card '{src.decl.id}'")


def card_modules() -> dict[str, object]:
    """Every card's module by its name in the generated source, in number order."""
    return {_variable(src): _import(src) for src in CARD_SOURCES}


def generate(sources: list[CardSource], modules: dict[str, object]) -> str:
    """The hook table's source for these cards (``modules``: each card's module by name)."""
    out = [CORE]
    for point in CARD_HOOK_POINTS:
        params = ", ".join(point.params)
        lines = ["", "", "@kernel(inline=True)", f"def {point.name}({params}):"]
        users = [src for src in sources if point.name in src.hooks]
        if users or point.name in AFTER:
            lines.append("    card = G[G_CARD]")
        for i, src in enumerate(users):
            var = _variable(src)
            args = ", ".join(hook_params(getattr(modules[var], point.name)))
            call = f"{var}.{point.name}({args})"
            if point.default is None:
                lines.append(f"    {'if' if i == 0 else 'elif'} card == {src.decl.number}:")
                lines.append(f"        {call}")
            else:
                lines.append(f"    if card == {src.decl.number}:")
                lines.append(f"        return {call}")
        if point.name in AFTER:
            lines.append(AFTER[point.name].rstrip("\n"))
        if point.default is not None:
            lines.append(f"    return {point.default}")
        elif not users and point.name not in AFTER:
            lines.append("    return")
        out.append("\n".join(lines))
    return "\n".join(out) + "\n"


def _compile_hooks(modules: dict[str, object]) -> None:
    """A user's hook that is a plain function becomes a kernel function (inlined on the
    per-chip path), as the shipped cards declare theirs."""
    per_chip = {p.name: p.per_chip for p in CARD_HOOK_POINTS}
    for src in CARD_SOURCES:
        if not src.module:
            compile_hooks(modules[_variable(src)],
                          {**{name: per_chip[name] for name in src.hooks}, "default": False})


def purple_cards(sources: list[CardSource]) -> int:
    """Bit n: card n is purple (resolved before the round)."""
    return sum(1 << src.decl.number for src in sources if src.decl.timing == PURPLE)


_modules = card_modules()
_compile_hooks(_modules)
PURPLE_CARDS = purple_cards(CARD_SOURCES)
SOURCE = generate(CARD_SOURCES, _modules)
_SHIPPED = [src for src in CARD_SOURCES if src.module]
install(globals(), _modules, SOURCE, HOOKS_BUILT, as_shipped=(SOURCE, PURPLE_CARDS) == (
    generate(_SHIPPED, _modules), purple_cards(_SHIPPED)))
