"""Issue 45: the witches' per-seat, per-round code passes fewer calls (a call passes about a hundred
words of arrays): the buying witches' entry and the small helpers of the witches that act every
round are inlined, and a shipped witch's group is found from her number. The games are unchanged
(``benchmarks/game_checksums.py --check``); ``benchmarks/witch_ablation.py`` times the parts."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np

from sim.kernel import layout as L
from sim.kernel.numba_patches import llvm_inline_options
from sim.kernel.witches import bag_points, colours, double_coins, free_twin, hooks, upgrade
from sim.kernel.witches.common import in_group

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


def test_the_per_round_witch_code_is_inlined():
    for fn in (hooks.buying_witches, upgrade._upgrade_gain, upgrade._one_level_up,
               colours._colour_points, bag_points._bag_points, double_coins._double,
               free_twin._ask, free_twin._twin_default):
        assert fn.targetoptions.get("inline") == "always", fn.py_func.__name__


def test_the_hook_entries_are_inlined_by_llvm():
    """The entries the hook tables call once per seat and round are compiled once and inlined
    by LLVM, not called with every array word by word."""
    want = llvm_inline_options(True)
    for name in ("bag_points.at_points", "colours.at_points", "cheap_rubies.at_spending",
                 "ruby_space.at_rubies", "ruby_coins.before_buying", "double_coins.before_buying",
                 "double_coins.final_coins", "free_twin.after_buying", "upgrade.before_buying",
                 "both_rewards.at_die", "second_flask.exploded"):
        module, fn = name.split(".")
        fn = getattr(importlib.import_module(f"sim.kernel.witches.{module}"), fn)
        assert {k: fn.targetoptions.get(k) for k in want} == want, name


def test_in_group_finds_shipped_and_user_witches():
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_WITCH:L.G_WITCH + 3] = (2, 6, 14)  # six chips, double coins, a user's witch fixed
    assert [in_group(G, w) for w in (2, 6, 14)] == [0, 1, 2]
    assert [in_group(G, w) for w in (1, 5, 9, 12, 15)] == [-1] * 5


def test_the_ablation_changes_only_the_threshold_seats():
    from witch_ablation import lineup

    seats = lineup("witches=never")
    plain = lineup("")
    assert len(seats) == len(plain) == 4
    changed = [not np.array_equal(a.kinds, b.kinds) for a, b in zip(seats, plain, strict=True)]
    assert changed == [True, True, True, False]  # the random seat keeps its answers


def test_the_ablation_can_keep_every_seat_from_calling():
    from witch_ablation import lineup

    from sim.kernel.decisions.slots import SLOT_WITCH, WITCH_NEVER

    plain = lineup("")
    seats = lineup("witches=never!")  # the random seat too
    assert [int(s.kinds[SLOT_WITCH]) for s in seats] == [WITCH_NEVER] * 4
    for a, b in zip(seats, plain, strict=True):  # nothing else changes
        other = np.arange(a.kinds.shape[0]) != SLOT_WITCH
        assert np.array_equal(a.kinds[other], b.kinds[other])
        assert np.array_equal(a.params, b.params)


def test_six_chips_ranks_by_a_table():
    """Six chips' built-in placing order is a frozen table (no call per chip held), and her
    next-chip question is asked inside her placing loop (no call per placement)."""
    from sim.kernel.witches import six_chips
    from sim.rules.chips import BLUE, GREEN, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE

    want = {ORANGE: 0, GREEN: 10, BLUE: 10, RED: 50}  # the rest 20, whites after every colour
    for t, r in enumerate(six_chips.SIX_RANK):
        c = int(TYPE_COLOUR[t])
        expected = 100 - int(TYPE_VALUE[t]) if c == WHITE else want.get(c, 20)
        assert r == expected, t
    assert not hasattr(six_chips, "_ask_next")
