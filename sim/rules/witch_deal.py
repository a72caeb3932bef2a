"""How the herb witches are dealt, as exact odds read from the witches' declarations and a
ruleset's ``[witches]`` settings (the kernel's deal is ``sim.kernel.witches.common``).

The rules (Herb Witches, set-up): "Turn over 1 of each of the 3 witch types at random". A group's
witch is the one ``witches.fixed`` names, else one drawn uniformly from the group's shipped
witches and, with ``witches.extra``, the rules file's witch of that group (her tile shuffled in
with theirs: 1 in 5 with four shipped ones). Visit from a Witch draws "a random herb witch not in
play": uniformly among the shipped witches and the extra ones that are not in play this game.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

from sim.rules.witches import GROUPS, WITCHES, Witch


def deal_pools(settings: dict, witches: Sequence[Witch] = WITCHES) -> dict[str, tuple[str, ...]]:
    """Per group, the witch ids the deal draws among (each equally likely), in the kernel's
    draw order: the fixed witch alone, else the group's shipped witches in number order, then
    her extra witch; empty without the witches (``witches.enabled``). ``witches``: every known
    witch in number order (``WITCHES``: the shipped ones and a rules file's once loaded)."""
    if not settings["enabled"]:
        return {}
    pools = {}
    for g in GROUPS:
        fixed = [w.id for w in witches if w.group == g and w.id in settings["fixed"]]
        extra = [w.id for w in witches if w.group == g and w.id in settings.get("extra", ())]
        shipped = [w.id for w in witches if w.group == g and not w.user]
        pools[g] = tuple(fixed or [*shipped, *extra])
    return pools


def deals(settings: dict, witches: Sequence[Witch] = WITCHES):
    """Every deal, one witch id per group in ``GROUPS`` order, with its exact probability."""
    pools = deal_pools(settings, witches)
    if not pools:
        return
    p = Fraction(1)
    for ids in pools.values():
        p /= len(ids)
    for dealt in product(*pools.values()):
        yield dealt, p


def deal_odds(settings: dict, witches: Sequence[Witch] = WITCHES) -> dict[str, Fraction]:
    """Every known witch's exact chance of being in play in a game (0: never)."""
    odds = {w.id: Fraction(0) for w in witches}
    for dealt, p in deals(settings, witches):
        for wid in dealt:
            odds[wid] += p
    return odds


def visit_odds(settings: dict, witches: Sequence[Witch] = WITCHES) -> dict[str, Fraction]:
    """Every known witch's exact chance of being Visit from a Witch's visitor in a game
    (enumerating every deal): uniform among the shipped and extra witches not in play."""
    box = [w.id for w in witches if not w.user or w.id in settings.get("extra", ())]
    odds = {w.id: Fraction(0) for w in witches}
    for dealt, p in deals(settings, witches):
        out = [wid for wid in box if wid not in dealt]
        for wid in out:
            odds[wid] += p / len(out)
    return odds
