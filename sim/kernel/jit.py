"""The one decorator of every compiled kernel function: ``@kernel``.

It sets the options every kernel function shares (cached on disk, NumPy's error model, no
reference counting unless asked) and compiles each function once per argument *type*, never
once per constant value.

Numba's own ``njit`` specialises a call from one compiled function to another on the literal
value of every constant argument: ``brew_until_stop(P, 0, ...)`` in the potion kernel and
``brew_until_stop(P, s, ...)`` in the game kernel were two complete compilations of the whole
brewing path, and a helper called with card 12, 21 and 24 was compiled three times more. A
kernel function here sees the plain type instead (``int64`` for ``0``), so each is compiled once
and shared by every caller.
"""

from __future__ import annotations

from numba import njit, types


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
