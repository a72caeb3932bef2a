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
is cached whatever the user functions are. The kernels receive it as the functions' addresses
(``sim.kernel.decisions.slot_call`` says why); this module keeps the compiled functions alive.
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.kernel.decisions import slots as S
from sim.kernel.decisions.slot_call import ADDRESS_COLUMNS, SLOT_SIGNATURE
from sim.kernel.decisions.slots import N_BUILTIN_UF, N_UF
from sim.kernel.numba_patches import entry_points

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

__all__ = ["SLOT_SIGNATURE", "asks_builtin_slot_functions", "compile_slot", "function_table",
           "memory_template", "noop", "require_master", "require_optimal", "slot_addresses",
           "table_functions"]


def compile_slot(py_func, *, cache: bool = False):
    """Compile a Python function as a slot function (raises Numba's error if it cannot)."""
    return njit(SLOT_SIGNATURE, cache=cache, error_model="numpy")(py_func)


def _noop(P, s, G, R, SP, a, b, M):
    return 0


_NOOP = None
_OPTIMAL = None
_MASTER: tuple = ()  # master's slot functions (UF_MASTER_*), once a strategy uses them


def noop():
    """The padding entry of the table (and entry 0 until the optimal stopper is needed)."""
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


def require_master() -> bool:
    """Compile (or load from the on-disk cache) master's slot functions (its buyer, explosion
    choice, flask, and card, book and test-tube choices; its stop rule is the optimal stopper);
    True if they were new to this process."""
    global _MASTER
    if _MASTER:
        return False
    from sim.kernel.decisions.master import master_buy, master_explode
    from sim.kernel.decisions.master_choices import master_book, master_card, master_tube
    from sim.kernel.decisions.master_flask import master_flask

    by_index = {S.UF_MASTER_BUY: master_buy, S.UF_MASTER_EXPLODE: master_explode,
                S.UF_MASTER_FLASK: master_flask, S.UF_MASTER_CARD: master_card,
                S.UF_MASTER_BOOK: master_book, S.UF_MASTER_TUBE: master_tube}
    _MASTER = tuple(compile_slot(by_index[i], cache=True) for i in range(1, N_BUILTIN_UF))
    return True


MEMORY_SLOTS = 1 << 18  # memo entries per seat for the optimal stopper
SEAT_ROWS = 5  # a row of the memory template for each seat (the rules allow at most 5 players)
BASE_MEMORY = 2  # the words of a seat's memory every slot function has


def memory_template(wide: bool) -> np.ndarray:
    """The seats' memory template (``SEAT_ROWS`` x width): wide holds the optimal stopper's memo
    (``MEMORY_SLOTS`` entries), otherwise the ``BASE_MEMORY`` words alone. Both have one type,
    so a kernel compiled for one runs the other."""
    width = BASE_MEMORY + 2 * MEMORY_SLOTS if wide else BASE_MEMORY
    return np.zeros((SEAT_ROWS, width), dtype=np.float64)


def asks_builtin_slot_functions(SK: np.ndarray) -> bool:
    """Whether a seat of the lineup's slot kinds ``SK`` calls a built-in slot function (the
    optimal stopper or master's: the ones that keep a memo in the seat's memory)."""
    kinds = np.asarray(SK)
    return bool(np.any((kinds >= S.USER_BASE) & (kinds < S.USER_BASE + N_BUILTIN_UF)))


def slot_addresses(fn) -> tuple[int, int]:
    """A compiled slot function's entry point (Numba's calling convention) and its C wrapper."""
    return entry_points(fn, SLOT_SIGNATURE)


_TABLE_FUNCTIONS: dict[int, tuple] = {}  # id(addresses) -> the functions behind them, kept alive


def function_table(user_functions: list | tuple = ()) -> tuple:
    """The ``UF`` pair the kernels take: the slot functions' addresses (the optimal stopper and
    master's, each a no-op until a strategy needs it, then the user functions, padded to
    ``N_UF``; an int64
    array ``N_UF x 2``) and the seats' memory template (5 x width; kernels running in parallel
    give each chunk its own copy)."""
    master = list(_MASTER) or [noop()] * (N_BUILTIN_UF - 1)
    funcs = [_OPTIMAL if _OPTIMAL is not None else noop()] + master + list(user_functions)
    if len(funcs) > N_UF:
        raise ValueError(f"at most {N_UF - N_BUILTIN_UF} user slot functions are supported; got "
                         f"{len(user_functions)}")
    funcs += [noop()] * (N_UF - len(funcs))
    addresses = np.array([slot_addresses(f) for f in funcs], dtype=np.int64)
    if addresses.shape != (N_UF, ADDRESS_COLUMNS) or np.any(addresses[:, 0] == 0):
        raise RuntimeError("a slot function has no compiled entry point")
    _TABLE_FUNCTIONS[id(addresses)] = (addresses, tuple(funcs))
    return addresses, memory_template(_OPTIMAL is not None)


def table_functions(table: tuple) -> tuple:
    """The compiled slot functions behind a :func:`function_table`, in table order."""
    return _TABLE_FUNCTIONS[id(table[0])][1]
