"""Slot functions: user strategies (and built-ins that need their own memory) compiled with Numba
and called from inside the compiled game loop through a fixed-size function table.

Every slot function has the same signature::

    f(P, s, G, R, SP, a, b, M) -> int

``P`` (int64[:, ::1]) is every player's row, ``s`` the seat, ``G`` (int64[::1]) the game row,
``R`` (int64[::1]) the rules, ``SP`` (float64[:, :, ::1]) every seat's parameters, ``a`` and ``b``
what the slot asks, ``M`` (float64[::1]) the seat's scratch memory, kept through a chunk of games
(empty unless a strategy asks for memory). The slots, what ``a``, ``b`` and the result mean, and
the helpers that read the arrays (``strategies.helpers_nb``) are declared once in
``strategies.slot_docs``; ``quacks strategies --slots`` prints them and README's "Writing a
strategy" shows them as tables.

The table always has ``N_UF`` entries, padded with a no-op, so the game kernel compiles once and
is cached whatever the user functions are.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.kernel.decisions.slots import N_UF

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
    from sim.kernel.decisions.optimal import optimal_stop

    _OPTIMAL = compile_slot(optimal_stop, cache=True)
    return True


MEMORY_SLOTS = 1 << 18  # memo entries per seat for the optimal stopper


def function_table(user_functions: list | tuple = ()) -> tuple:
    """The ``UF`` pair the kernels take: the slot functions (the optimal stopper, or a no-op
    until a strategy needs it, then the user functions, padded to ``N_UF``) and the seats'
    memory template (5 x width; kernels running in parallel give each chunk its own copy)."""
    funcs = [_OPTIMAL if _OPTIMAL is not None else noop()] + list(user_functions)
    if len(funcs) > N_UF:
        raise ValueError(f"at most {N_UF - 1} user slot functions are supported; got "
                         f"{len(user_functions)}")
    width = 2 + 2 * MEMORY_SLOTS if _OPTIMAL is not None else 2
    return tuple(funcs + [noop()] * (N_UF - len(funcs))), np.zeros((5, width), dtype=np.float64)
