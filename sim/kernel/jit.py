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

That frame, the per-type calls below, compiling without reference counting and the inliner's
shared copy are Numba's and CPython's internals, so they live in
:mod:`sim.kernel.numba_patches`, which turns them all off outside the Numba versions they were
proven on or when ``QUACKS_NUMBA_PATCHES=off``.

Numba's own ``njit`` specialises a call from one compiled function to another on the literal
value of every constant argument: ``brew_until_stop(P, 0, ...)`` in the potion kernel and
``brew_until_stop(P, s, ...)`` in the game kernel were two complete compilations of the whole
brewing path, and a helper called with card 12, 21 and 24 was compiled three times more. A
kernel function here sees the plain type instead (``int64`` for ``0``), so each is compiled once
and shared by every caller.
"""

from __future__ import annotations

from numba import njit

from sim.kernel import numba_patches as patches

# where game.py and tests/test_compile_frame.py find the roomy frame
from sim.kernel.numba_patches import COMPILE_FRAME_SLOTS, in_roomy_frame  # noqa: F401


def kernel(fn=None, *, inline: bool = False, llvm_inline: bool = False, nrt: bool = False,
           parallel: bool = False):
    """Compile ``fn`` as a kernel function.

    ``inline``: inline it into every caller (Numba inlines its typed IR). An inlined body is
    compiled again in each caller, so only for small functions on the hot path, or a function
    with one caller that runs per chip or per round: a call passes every array as its flattened
    fields (as calls, the round phases and the blue and yellow chip actions cost 20-30% of one
    thread's games/s). ``llvm_inline``: compile it once as a function of its own and have LLVM
    inline that into every caller (Numba's ``forceinline``: LLVM's ``alwaysinline``), so a call
    costs nothing at run time and Numba compiles the body once (LLVM still optimises it again
    in each caller); with the patches off it is ``inline``. ``nrt``: the function allocates
    arrays; ``parallel``: a ``prange`` entry point. Use as ``@kernel``, ``@kernel(inline=True)``
    or ``@kernel(llvm_inline=True)`` (a big function on the hot path: a round's phase).
    """
    opts: dict = {"cache": True, "error_model": "numpy"}
    if not nrt:
        opts.update(patches.NO_NRT)
    opts.update(patches.llvm_inline_options(llvm_inline))
    if inline:
        opts["inline"] = "always"
    if parallel:
        opts["parallel"] = True

    def wrap(f):
        dispatcher = njit(**opts)(f)
        patches.compile_in_roomy_frame(dispatcher)
        if opts.get("inline") != "always":
            patches.compile_per_type(dispatcher)
        return dispatcher

    return wrap(fn) if fn is not None else wrap

