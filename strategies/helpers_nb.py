"""Compiled helpers for slot functions: read a player's state without raw array offsets.

A slot function (``f(P, s, G, R, SP, a, b, M)``, see ``strategies.slot_docs``) may call these;
each is a Numba function inlined where it is called, so a helper costs what the raw read costs::

    from strategies.helpers_nb import explosion_chance, risk_free_draw, white_total

    def stop(P, s, G, R, SP, a, b, M):
        if risk_free_draw(P, s, G):  # A Second Chance's first five chips cannot explode
            return 1
        return 1 if white_total(P, s) < 6 and explosion_chance(P, s) <= 0.25 else 0

Chip types and colours are numbered as in ``sim.rules.chips`` (``W1``.., ``RED``..). The list of
helpers, grouped for ``quacks strategies --slots`` and README, is ``strategies.slot_docs.HELPERS``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kernel.cards.hooks import free_draws
from sim.kernel.decisions.potion_value import (  # noqa: F401 (plugin helpers of the ev rule)
    best_other_score,
    explosion_risk,
    rounds_left,
    score_gap,
)
from sim.kernel.decisions.slots import SLOT_CUSTOM
from sim.kernel.layout import (
    BAGCNT,
    CARD_LOOK,
    F_DROPLET,
    F_FLASK,
    F_LIMIT,
    F_NBAG,
    F_NPOT,
    F_RUBIES,
    F_SCORE,
    F_START,
    F_WHITE,
    G_AVAIL,
    G_CARD,
    G_NP,
    G_OUT,
    G_ROUND,
    G_SEEN,
    G_SUPPLY,
    LOOK_T,
    POT_P,
    POT_T,
    R_COINS,
    R_PRICE,
    R_RUBY,
    R_VP,
    WITCH_LOOK,
)
from sim.kernel.numba_patches import NO_NRT
from sim.rules.chips import N_TYPES, TYPE_COLOUR
from sim.rules.track import SPOON

_JIT = {"cache": True, "error_model": "numpy", "inline": "always", **NO_NRT}


@njit(**_JIT)
def white_total(P, s):
    """The white total in seat s's pot."""
    return P[s, F_WHITE]


@njit(**_JIT)
def explosion_limit(P, s):
    """The white total seat s may reach without exploding this round (7, or raised)."""
    return P[s, F_LIMIT]


@njit(**_JIT)
def explosion_chance(P, s):
    """The exact chance that the next chip seat s draws explodes the pot (from the bag's chips):
    1 once the white total is over the limit (A Second Chance's risk-free draws can leave it
    so), whatever is drawn. A risk-free draw itself never explodes (``risk_free_draw``)."""
    if P[s, F_WHITE] > P[s, F_LIMIT]:
        return 1.0
    return explosion_risk(P, s)


@njit(**_JIT)
def over_limit(P, s):
    """True when seat s's white total is over the limit with the pot intact (left so by A Second
    Chance's risk-free draws): the next ordinary draw explodes, whatever the chip; stopping now
    keeps the potion."""
    return P[s, F_WHITE] > P[s, F_LIMIT]


@njit(**_JIT)
def risk_free_draw(P, s, G):
    """True when the next chip seat s draws is one of A Second Chance's first five: it cannot
    explode the pot (the built-in stop rules always draw it)."""
    return free_draws(P, s, G)


@njit(**_JIT)
def chips_in_bag(P, s):
    """How many chips are in seat s's bag."""
    return P[s, F_NBAG]


@njit(**_JIT)
def in_bag(P, s, t):
    """How many chips of type t are in seat s's bag."""
    return P[s, BAGCNT + t]


@njit(**_JIT)
def colour_in_bag(P, s, colour):
    """How many chips of a colour are in seat s's bag."""
    n = 0
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] == colour:
            n += P[s, BAGCNT + t]
    return n


@njit(**_JIT)
def reward_space(P, s):
    """The reward space seat s's potion would score if it stopped now."""
    n = P[s, F_NPOT]
    last = P[s, POT_P + n - 1] if n > 0 else P[s, F_START]
    return min(last + 1, SPOON)


@njit(**_JIT)
def space_coins(R, space):
    """Coins of a reward space."""
    return R[R_COINS + space]


@njit(**_JIT)
def space_vp(R, space):
    """VP of a reward space."""
    return R[R_VP + space]


@njit(**_JIT)
def space_ruby(R, space):
    """1 if a reward space shows a ruby."""
    return R[R_RUBY + space]


@njit(**_JIT)
def flask_full(P, s):
    """True if seat s's flask is full."""
    return P[s, F_FLASK] != 0


@njit(**_JIT)
def rubies(P, s):
    """Seat s's rubies."""
    return P[s, F_RUBIES]


@njit(**_JIT)
def droplet(P, s):
    """Seat s's droplet (the space a potion starts after, before rats)."""
    return P[s, F_DROPLET]


@njit(**_JIT)
def score(P, s):
    """Seat s's VP."""
    return P[s, F_SCORE]


@njit(**_JIT)
def round_number(G):
    """The round being played (1-9; 0 outside a game)."""
    return G[G_ROUND]


@njit(**_JIT)
def players(G):
    """Players (cauldrons) in the game."""
    return G[G_NP]


@njit(**_JIT)
def potion_seen(G, o):
    """True if seat o's potion of this round may be read now (the information model)."""
    return (G[G_SEEN] >> o) & 1 != 0


@njit(**_JIT)
def can_buy(G, R, t, coins, used_colours):
    """True if chip type t may be bought now for ``coins`` by a player who already bought the
    colours in the bitmask ``used_colours`` (bit c: colour c): for sale this round (its book is
    out), in the supply, affordable, and of a colour not bought yet. For the ``buy`` slot."""
    if t < 0 or t >= N_TYPES or G[G_AVAIL + t] == 0 or G[G_SUPPLY + t] <= 0:
        return False
    if (used_colours >> TYPE_COLOUR[t]) & 1:
        return False
    return 0 <= R[R_PRICE + t] <= coins


@njit(**_JIT)
def chip_at(SP, s, i, k):
    """The k-th chip type (0-based) of the chip-list parameter at custom index i (a user
    strategy's ``Param(name, "chips", [...])``), or -1 past its end."""
    code = np.int64(SP[s, SLOT_CUSTOM, i])
    for _ in range(k):
        code //= 21
    d = code % 21
    return d - 1 if d > 0 else -1


@njit(**_JIT)
def chip_rank(SP, s, i, t):
    """The position (0 = first) of chip type t in the chip-list parameter at custom index i, or
    -1 if it is not listed."""
    code = np.int64(SP[s, SLOT_CUSTOM, i])
    k = 0
    while code > 0:
        if code % 21 == t + 1:
            return k
        code //= 21
        k += 1
    return -1


@njit(**_JIT)
def param(SP, s, i):
    """Custom parameter i of seat s: the i-th ``Param`` of the strategy's ``params`` (get i by
    name with ``strategies.registry.param_index(PARAMS, name)`` at the top of the file)."""
    return SP[s, SLOT_CUSTOM, i]


@njit(**_JIT)
def pot_size(P, s):
    """How many chips are in seat s's pot."""
    return P[s, F_NPOT]


@njit(**_JIT)
def pot_chip(P, s, k):
    """The type of the k-th chip (0 = first placed) in seat s's pot."""
    return P[s, POT_T + k]


@njit(**_JIT)
def pot_space(P, s, k):
    """The track space of the k-th chip (0 = first placed) in seat s's pot."""
    return P[s, POT_P + k]


@njit(**_JIT)
def looked_at(P, s, i):
    """The type of the i-th chip (0..a-1) a blue chip is looking at; for the ``blue`` slot."""
    return P[s, LOOK_T + i]


@njit(**_JIT)
def card_look(P, s, i):
    """The type of the i-th chip (0..b-1) a card drew to choose from (An Opportunistic Moment,
    Strong Ingredient); for the ``card`` slot."""
    return P[s, CARD_LOOK + i]


@njit(**_JIT)
def witch_look(P, s, i):
    """The type of the i-th chip the six-chips witch drew (question ``WQ_SIX_NEXT``); for the
    ``witch`` slot."""
    return P[s, WITCH_LOOK + i]


@njit(**_JIT)
def round_card(G):
    """The fortune-teller card of this round: its number (1-24 the base deck, 25-27 the witch-hat
    cards, in the order of ``sim.rules.cards.CARDS``), 0 when there is none."""
    return G[G_CARD]


@njit(**_JIT)
def colour_of(t):
    """The colour of chip type t (``sim.rules.chips``: ``WHITE``, ``ORANGE``, ...)."""
    return TYPE_COLOUR[t]


@njit(**_JIT)
def supply(G, t):
    """How many chips of type t are left in the supply (refreshed before each purchase)."""
    return G[G_SUPPLY + t]


@njit(**_JIT)
def for_sale(G, t):
    """True if chip type t is for sale this round (its book is out)."""
    return G[G_AVAIL + t] != 0


@njit(**_JIT)
def price(R, t):
    """The price of chip type t with this ruleset's books (-1: not sold)."""
    return R[R_PRICE + t]


@njit(**_JIT)
def write_purchase(G, i, t):
    """Record chip type t as the i-th chip bought (i = 0, 1, ...); the ``buy`` slot returns how
    many it wrote. The kernel checks each one (a chip it refuses is not bought)."""
    G[G_OUT + i] = t


@njit(**_JIT)
def purchase(G, i):
    """The i-th chip type bought this round (after buying: the free-twin witch's ``b`` chips)."""
    return G[G_OUT + i]


@njit(**_JIT)
def buy_list(SP, s, G, R, i, coins, max_chips):
    """Buy from the chip-list parameter at custom index i, in its order: each listed chip that
    ``can_buy`` allows with the coins left and a colour not bought yet, up to ``max_chips``.
    Writes the purchases (``write_purchase``) and returns how many; a whole ``buy`` slot is
    ``return buy_list(SP, s, G, R, i, a, b)``."""
    n, used, k = 0, 0, 0
    while n < max_chips:  # chip_at is -1 past the end of the list
        t = chip_at(SP, s, i, k)
        if t < 0:
            break
        if can_buy(G, R, t, coins, used):
            G[G_OUT + n] = t
            n += 1
            coins -= R[R_PRICE + t]
            used |= 1 << TYPE_COLOUR[t]
        k += 1
    return n
