"""Numba's inliner copies an inlined body's blocks with one shared memo (``sim.kernel.inline_copy``,
installed by ``sim.kernel.numba_patches``): the scope is copied once per inlining, not once per
block, and the inlined code computes the same."""

from __future__ import annotations

import copy

from numba import njit
from numba.core import inline_closurecall as icc
from numba.core import ir

from sim.kernel import inline_copy, numba_patches


def test_installed_for_this_numba():
    # False means Numba's inline_ir changed (or the patches are off): the compile is correct but
    # slower again
    assert numba_patches.INLINE_COPY is True
    assert inline_copy.install() is True
    assert icc.InlineWorker.inline_ir.__qualname__ == "InlineWorker.inline_ir"
    assert icc.InlineWorker.inline_ir.__code__.co_filename.endswith("inline_closurecall.py")


@njit(inline="always")
def _branchy(x):
    y = 0
    for i in range(x):
        if i % 3 == 0:
            y += i
        elif i % 3 == 1:
            y -= 1
        else:
            y *= 2
    return y


@njit
def _caller(x):
    return _branchy(x) + _branchy(x + 1)


def test_inlined_code_computes_the_same():
    for x in (0, 1, 5, 17):
        assert _caller(x) == _branchy.py_func(x) + _branchy.py_func(x + 1)


def block_copies(monkeypatch) -> list[list[tuple[ir.Block, dict | None]]]:
    """Compile a function with an inlined callee; return the block copies made, grouped by the
    deepcopy memo they shared (a memo of None starts a group of its own)."""
    copies: list[list[tuple[ir.Block, dict | None]]] = []
    real = copy.deepcopy

    def spy(x, memo=None, *rest):
        out = real(x, memo, *rest)
        if isinstance(x, ir.Block):
            if memo is None or not copies or copies[-1][0][1] is not memo:
                copies.append([])
            copies[-1].append((out, memo))
        return out

    monkeypatch.setattr(icc.copy, "deepcopy", spy)

    @njit(inline="always")
    def callee(x):
        return x + 1 if x > 0 else x - 1

    @njit
    def outer(x):
        return callee(x) * 2

    assert outer(3) == 8 and outer(-3) == -8
    monkeypatch.undo()
    return copies


def test_the_blocks_of_one_copy_share_one_scope(monkeypatch):
    """Spy on the copies inline_ir makes: every block of one copy has the same scope object;
    Numba's own inline_ir copies every block alone (the spy sees the difference)."""
    inline_copy.install()
    monkeypatch.setattr(icc.InlineWorker, "inline_ir", inline_copy.ORIGINAL)
    original = block_copies(monkeypatch)
    assert original and all(len(blocks) == 1 for blocks in original)
    copies = block_copies(monkeypatch)
    assert any(len(blocks) > 1 for blocks in copies), "no copy of several blocks shared a memo"
    for blocks in copies:
        assert all(b.scope is blocks[0][0].scope for b, _ in blocks)
