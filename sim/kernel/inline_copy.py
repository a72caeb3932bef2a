"""Numba's inliner copies a callee's IR block by block, each block with a fresh ``deepcopy``
memo; every variable copies the function's whole scope with it, so one inlining costs (blocks x
variables) and a big inlined body far more than its size. Here the blocks of one copy share one
memo, so the scope is copied once (as in Numba's own IR, where every block of a function has the
same scope object). The games are the same (``tests/test_golden_checksums.py``, and
``tests/test_numba_patches.py`` with the patches off); the compile is shorter.

Measured with py-spy on a cold compile of the game kernel: 36% of all samples were in
``InlineWorker.inline_ir``'s ``copy_ir``, 23% in ``ir.Var.__deepcopy__`` alone.

:func:`install` rewrites ``InlineWorker.inline_ir`` from its own source with that one change;
when the source is not the one this was written against (another Numba version), it leaves
Numba as it is and returns False. :mod:`sim.kernel.numba_patches` installs it, with the other
patches, only on the Numba versions they were proven on.

Known upstream: numba/numba issue 8989 ("Spurious deep copies in inlining", open) and the same
copy in numba-cuda (issue 688, pull request 689); this is the smallest change that keeps Numba's
own safety copies.
"""

from __future__ import annotations

import inspect
import textwrap

# the lines as they stand in numba/core/inline_closurecall.py (indented as there)
_PER_BLOCK = """            for block_label, block in the_ir.blocks.items():
                new_block = copy.deepcopy(the_ir.blocks[block_label])
"""
_SHARED = """            memo = {}  # one memo for every block: the scope is copied once
            for block_label, block in the_ir.blocks.items():
                new_block = copy.deepcopy(the_ir.blocks[block_label], memo)
"""
ORIGINAL = None  # Numba's own inline_ir, once install() replaced it


def install() -> bool:
    """Make Numba's inliner copy a callee's blocks with one shared memo; True if it is in place."""
    global ORIGINAL
    if ORIGINAL is not None:
        return True
    from numba.core import inline_closurecall as icc

    original = icc.InlineWorker.inline_ir
    try:
        lines, first = inspect.getsourcelines(original)
    except (OSError, TypeError):
        return False
    source = "".join(lines)
    if source.count(_PER_BLOCK) != 1:
        return False
    namespace: dict = {}
    # blank lines in front, so a traceback through it names the lines of Numba's file (the
    # replacement adds one line, after which it is one off)
    padded = "\n" * (first - 1) + textwrap.dedent(source.replace(_PER_BLOCK, _SHARED))
    code = compile(padded, inspect.getsourcefile(original), "exec")
    exec(code, icc.__dict__, namespace)  # noqa: S102 - Numba's own function, one line changed
    patched = namespace["inline_ir"]
    patched.__qualname__ = original.__qualname__
    patched.__doc__ = original.__doc__
    ORIGINAL = original
    icc.InlineWorker.inline_ir = patched
    return True
