"""Kernel compilations run inside one frame with a deep value stack (``sim.kernel.jit``): on
CPython 3.11 and 3.12 this keeps Numba's recursive compiler from mapping and unmapping a
frame-stack chunk millions of times (gh-142183). ``benchmarks/compile_profile.py`` shows the
page faults and system seconds it saves."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from numba.core.dispatcher import Dispatcher

import sim.kernel
from sim.kernel.jit import COMPILE_FRAME_SLOTS, in_roomy_frame


def roomy_frames() -> int:
    """How many frames on the current stack are the roomy one."""
    n, f = 0, sys._getframe()
    while f is not None:
        n += f.f_code.co_stacksize >= COMPILE_FRAME_SLOTS
        f = f.f_back
    return n


def test_the_outermost_call_runs_in_one_roomy_frame():
    assert roomy_frames() == 0
    assert in_roomy_frame(roomy_frames)() == 1
    assert in_roomy_frame(lambda: in_roomy_frame(roomy_frames)())() == 1  # nested: no second
    assert roomy_frames() == 0  # and it is left behind on return


def test_the_roomy_frame_passes_arguments_results_and_errors():
    assert in_roomy_frame(lambda a, b=0: a - b)(5, b=2) == 3
    try:
        in_roomy_frame(lambda: 1 / 0)()
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("the error was lost")
    assert in_roomy_frame(roomy_frames)() == 1  # the flag was reset after the error


def test_every_kernel_function_compiles_in_the_roomy_frame():
    kernels = []
    for m in pkgutil.walk_packages(sim.kernel.__path__, "sim.kernel."):
        mod = importlib.import_module(m.name)
        kernels += [v for v in vars(mod).values()
                    if isinstance(v, Dispatcher) and v.py_func.__module__ == m.name]
    assert len(kernels) > 100
    unwrapped = [d.py_func.__qualname__ for d in kernels
                 if getattr(d.compile, "__wrapped__", None) is None]
    assert unwrapped == []
