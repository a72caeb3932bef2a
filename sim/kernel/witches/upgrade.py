"""The last 2 chips in the pot each go up one level (1 to 2, 2 to 4), or 1 chip anywhere in the pot
does; never orange or white. The bigger chip comes from the supply into the bag, the old one goes
back. Also after an explosion and taking the VP.

Upgrade (buying group) acts at step E, before buying.

Question: b = 0; answer 1 = the last two chips, 2 + k = pot entry k alone, 0 none. Default: the
upgrade of greatest gain by price (``best_upgrade``). A round file answers "last2", an index or
"none".
"""

from __future__ import annotations

from sim.kernel.bag import add_chip, discard_chip, remove_pot_entry
from sim.kernel.decisions.choices import upgrade_target
from sim.kernel.decisions.witch import ask_witch
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_UPGRADE, F_NPOT, G_SUPPLY, POT_T, R_PRICE
from sim.kernel.witches.common import call_witch
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import SCRIPT_POT_ENTRY, event, witch

WITCH = witch(5, "upgrade", "buying", name="Upgrade", doc=__doc__, phase='buying (step E)',
    events=(event("witch", c="chips_upgraded"),), first_round=3, script=SCRIPT_POT_ENTRY)
UPGRADE = WITCH.number


@kernel(inline=True)
def _one_level_up(t):
    """The chip one level above t (1 -> 2, 2 -> 4 of the same colour), or -1: never orange or
    white, and purple, black and locoweed have no bigger chip."""
    if TYPE_COLOUR[t] == WHITE:
        return -1
    return upgrade_target(t, 1 if TYPE_VALUE[t] == 1 else 2)


@kernel(inline=True)
def _upgrade_gain(P, s, k, G, R):
    """Price gained by upgrading pot entry k (0 if it cannot be upgraded or the supply is out)."""
    t = P[s, POT_T + k]
    u = _one_level_up(t)
    if u < 0 or G[G_SUPPLY + u] <= 0:
        return 0
    return max(R[R_PRICE + u] - R[R_PRICE + t], 1)


@kernel
def default(P, s, arg, G, R, SP):
    """The upgrade of greatest gain by price: 1 = the last two chips, 2 + k = pot entry k,
    0 none."""
    n = P[s, F_NPOT]
    best, best_gain = 0, 0
    if n >= 2:
        best_gain = _upgrade_gain(P, s, n - 1, G, R) + _upgrade_gain(P, s, n - 2, G, R)
        best = 1 if best_gain > 0 else 0
    for k in range(n):
        g = _upgrade_gain(P, s, k, G, R)
        if g > best_gain:
            best, best_gain = 2 + k, g
    return best



@kernel
def _upgrade_entry(P, s, k, supply, G, E):
    """Pot entry k becomes the chip one level up, from the supply; the old chip goes back to it."""
    t = P[s, POT_T + k]
    u = _one_level_up(t)
    if u < 0 or supply[u] <= 0:
        return 0
    remove_pot_entry(P, s, k)
    discard_chip(P, s, t)
    supply[t] += 1
    add_chip(P, s, u)
    supply[u] -= 1
    record(E, G, s, EV_UPGRADE, t, u, 0)
    return 1


@kernel(llvm_inline=True)
def before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, before buying: the chips the seat picks go up a level. Returns the coins (the
    same)."""
    a = ask_witch(P, s, UPGRADE, 0, default, G, R, SK, SP, SC, rng, UF)
    n = P[s, F_NPOT]
    done = 0
    if a == 1:
        for k in (n - 1, n - 2):
            if k >= 0:
                done += _upgrade_entry(P, s, k, supply, G, E)
    elif 2 <= a < 2 + n:
        done = _upgrade_entry(P, s, a - 2, supply, G, E)
    if done > 0:
        call_witch(P, s, G, E, UPGRADE, a, done)
    return coins
