"""The one decorator of every compiled kernel function: ``@kernel``.

It sets the options every kernel function shares (cached on disk, NumPy's error model, no
reference counting unless asked) and compiles each function once per argument *type*, never
once per constant value.

Every compilation runs in a frame with room for the whole compiler below it
(:func:`in_roomy_frame`): on CPython 3.11 and 3.12 a call that crosses the end of the
interpreter's 16 KiB frame-stack chunk maps a new chunk and unmaps it on return, and Numba's
deeply recursive compiler crossed one such boundary about two million times per kernel (8
million page faults: a quarter of the compile time spent in the system; CPython issue
gh-142183, fixed in later 3.13 and 3.14 releases by caching one chunk).

Numba's own ``njit`` specialises a call from one compiled function to another on the literal
value of every constant argument: ``brew_until_stop(P, 0, ...)`` in the potion kernel and
``brew_until_stop(P, s, ...)`` in the game kernel were two complete compilations of the whole
brewing path, and a helper called with card 12, 21 and 24 was compiled three times more. A
kernel function here sees the plain type instead (``int64`` for ``0``), so each is compiled once
and shared by every caller.
"""

from __future__ import annotations

import functools
import threading
import types as pytypes

from numba import njit, types

from sim.kernel.inline_copy import install as install_inline_copy

# Numba's inliner copied an inlined body's scope once per block (36% of a cold game-kernel compile)
INLINE_COPY_SHARED = install_inline_copy()

# Value-stack slots of the frame a compilation runs in: CPython gives it a chunk of its own (2 MiB)
# and leaves about 1 MiB free after it, deeper than any compile goes.
COMPILE_FRAME_SLOTS = 131_000
_INSIDE = threading.local()


def _call(fn, args, kwargs):
    return fn(*args, **kwargs)


_call_roomy = pytypes.FunctionType(_call.__code__.replace(co_stacksize=COMPILE_FRAME_SLOTS),
                                   _call.__globals__, "_call_roomy")


def in_roomy_frame(fn):
    """``fn`` wrapped to run inside one frame with :data:`COMPILE_FRAME_SLOTS` slots of stack (the
    outermost call only; a nested one runs as it is), so the frames below it never cross a
    chunk boundary of the interpreter's frame stack back and forth."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if getattr(_INSIDE, "on", False):
            return fn(*args, **kwargs)
        _INSIDE.on = True
        try:
            return _call_roomy(fn, args, kwargs)
        finally:
            _INSIDE.on = False

    return wrapper


def kernel(fn=None, *, inline: bool = False, nrt: bool = False, parallel: bool = False):
    """Compile ``fn`` as a kernel function.

    ``inline``: inline it into every caller. An inlined body is compiled again in each caller, so
    only for small functions on the hot path, or a function with one caller that runs per chip or
    per round: a call passes every array as its flattened fields (as calls, the round phases and
    the blue and yellow chip actions cost 20-30% of one thread's games/s). ``nrt``: the function
    allocates arrays; ``parallel``: a ``prange`` entry point. Use as ``@kernel`` or
    ``@kernel(inline=True)``.
    """
    opts: dict = {"cache": True, "error_model": "numpy"}
    if not nrt:
        opts["_nrt"] = False
    if inline:
        opts["inline"] = "always"
    if parallel:
        opts["parallel"] = True

    def wrap(f):
        dispatcher = njit(**opts)(f)
        dispatcher.compile = in_roomy_frame(dispatcher.compile)
        if not inline:
            compile_per_type(dispatcher)
        return dispatcher

    return wrap(fn) if fn is not None else wrap


def compile_per_type(dispatcher) -> None:
    """Make calls from other compiled functions to ``dispatcher`` resolve on the arguments'
    types without their literal values (one compilation serves every constant)."""
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve(tuple(types.unliteral(a) for a in args),
                       {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
