"""Slot functions: user strategies (and built-ins that need their own memory) compiled with Numba
and called from inside the compiled game loop through a fixed-size function table.

Every slot function has the same signature::

    f(P, s, G, R, SP, a, b, M) -> int

``P`` (int64[:, ::1]) is every player's row (see ``sim.kernel.layout``: read your own ``P[s]`` and the
scores), ``s`` the seat, ``G`` (int64[::1]) the game row (``G[G_ROUND]`` is the round, 0 outside
a game), ``R`` (int64[::1]) the rules (``R[R_COINS + space]``, ``R[R_VP + space]``, ...), ``SP``
(float64[:, :, ::1]) every seat's parameters (yours: ``SP[s, slot, :]``; custom parameters in
``SP[s, SLOT_CUSTOM, :]``), ``M`` (float64[::1]) the seat's scratch memory, kept through a chunk
of games (empty unless a strategy asks for memory). What ``a``, ``b`` and the result mean depends
on the slot:

=========  ==========================  =====================================================
slot       a, b                        result
=========  ==========================  =====================================================
stop       -                           1 to draw another chip, 0 to stop
flask      a = white chip just placed  1 to send it back with the flask
blue       a = chips looked at (at     index 0..a-1 of the chip to place, -1 for none
           ``P[s, LOOK_T + i]``)
yellow     a = white chip before it    1 to return that white chip to the bag
explode    a = VP, b = coins           0 takes the VP, 1 the coins
buy        a = coins, b = max chips    n, with the chip types written to ``G[G_OUT + i]``
           (supply ``G[G_SUPPLY+t]``,
           for sale ``G[G_AVAIL+t]``,
           price ``R[R_PRICE+t]``)
ruby       a = spendings so far        0 stop, 1 droplet +1, 2 refill the flask
purple     a = purple chips            the tier taken (1..3)
red        a = extra distance offered  1 to take it, 0 to decline (called only when a
           (a red chip's by its book,  chip is offered an extra distance)
           red Set 4's white 1, yellow
           Sets 2, 4, 5), b = the
           chip's type
book       a = question (``Q_*``),     the answer (see ``strategies.slots``, book questions)
           b = its argument
card       a = card number (1-24),     the answer (see ``strategies.slots``, card questions)
           b = its argument
tube       a = the glass a test-tube   1 to move the test-tube droplet, 0 the pot droplet
           move would enter (1-12)     (asked only on the test-tube side, per droplet move)
=========  ==========================  =====================================================

What a player may see of the others while brewing is ``G[G_SEEN]``: bit o set means seat o's
potion of this round may be read (independent brewing: none; sequential: the seats that brewed
before; synchronized: all). Outside brewing every potion is on the table.

The table always has ``N_UF`` entries, padded with a no-op, so the game kernel compiles once and
is cached whatever the user functions are.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from strategies.slots import N_UF

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

SLOT_SIGNATURE = types.int64(
    types.int64[:, ::1],
    types.int64,
    types.int64[::1],
    types.int64[::1],
    types.float64[:, :, ::1],
    types.int64,
    types.int64,
    types.float64[::1],
)


def compile_slot(py_func, *, cache: bool = False):
    """Compile a Python function as a slot function (raises Numba's error if it cannot)."""
    return njit(SLOT_SIGNATURE, cache=cache, error_model="numpy")(py_func)


def _noop(P, s, G, R, SP, a, b, M):
    return 0


_NOOP = None
_OPTIMAL = None


def noop():
    """The padding entry of the table (and UF[0] until the optimal stopper is needed)."""
    global _NOOP
    if _NOOP is None:
        _NOOP = compile_slot(_noop, cache=True)
    return _NOOP


def require_optimal() -> bool:
    """Compile (or load from the on-disk cache) the optimal stopper; True if it was new to this
    process."""
    global _OPTIMAL
    if _OPTIMAL is not None:
        return False
    from strategies.optimal_nb import _optimal_stop

    _OPTIMAL = compile_slot(_optimal_stop, cache=True)
    return True


MEMORY_SLOTS = 1 << 18  # memo entries per seat for the optimal stopper


def function_table(user_functions: list | tuple = ()) -> tuple:
    """The ``UF`` pair the kernels take: the slot functions (the optimal stopper, or a no-op
    until a strategy needs it, then the user functions, padded to ``N_UF``) and the seats'
    memory template (5 x width; kernels running in parallel give each chunk its own copy)."""
    funcs = [_OPTIMAL if _OPTIMAL is not None else noop()] + list(user_functions)
    if len(funcs) > N_UF:
        raise ValueError(f"at most {N_UF - 1} user slot functions are supported; got {len(user_functions)}")
    width = 2 + 2 * MEMORY_SLOTS if _OPTIMAL is not None else 2
    return tuple(funcs + [noop()] * (N_UF - len(funcs))), np.zeros((5, width), dtype=np.float64)
