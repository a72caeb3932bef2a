"""The arrays a game works in (``sim.kernel.game.game_scratch``) are made once per chunk and reused
by every game of it: a game must not depend on what they held before. And the random streams a
game starts from are those of ``stream_seed``, however ``game_streams`` computes them."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.game import lineup_arrays
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.brewing import seat_after
from sim.kernel.game import game_pointer, scratch_for
from sim.kernel.records import O_WIDTH, RD_WIDTH
from sim.kernel.rng import N_STREAMS, game_streams, stream_seed
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.registry import slot_table

LINEUP = ["expert", "balanced", "greedy", "random"]


def _play(rs, scratch, seed, game):
    """One game through the batch's compiled game, with events; (out, rd, events)."""
    lineup = [parse_strategy(s) for s in LINEUP]
    SK, SP = lineup_arrays(lineup, rs)
    n = len(lineup)
    tables = (rules_scalars(rs), rs.coins, rs.vp, rs.ruby, rs.tails, rs.die, rs.supply, rs.price,
              rs.book_round, rs.book_set, rs.starting_bag)  # play_game's order
    uf = slot_table()
    out = np.zeros((n, O_WIDTH), dtype=np.int64)
    rd = np.zeros((int(rs.game("rounds")), n, RD_WIDTH), dtype=np.int64)
    E = np.zeros((4000, L.EV_WIDTH), dtype=np.int64)
    deal = np.full(N_STREAMS, game, dtype=np.int64)
    S = scratch if scratch is not None else scratch_for(tables, SK, SP)
    game_pointer(tables, SK, SP, uf)[0](np.uint64(seed), deal, n, *tables, SK, SP, out, rd, E, uf,
                                        S)
    return out, rd, E, S


@pytest.mark.parametrize("rules", ["base", "herb-witches"])
def test_a_game_does_not_read_what_its_scratch_held(rules):
    """Fails if play_game reads a scratch array (SC, FD, DS, W, the supply, ...) before setting
    it: the same game in fresh arrays, after another game in them, and in arrays full of junk."""
    rs = load_ruleset(rules)
    fresh = _play(rs, None, seed=5, game=3)
    _, _, _, used = _play(rs, None, seed=9, game=11)  # arrays another game has written
    again = _play(rs, used, seed=5, game=3)
    junk = tuple(a.copy() for a in used)
    for a in junk:
        a[...] = 7
    dirty = _play(rs, junk, seed=5, game=3)
    for got in (again, dirty):
        for want, have in zip(fresh[:3], got[:3], strict=True):
            np.testing.assert_array_equal(want, have)


def test_game_streams_are_stream_seed():
    """Every stream starts where ``stream_seed`` says, for a game's own deal and for a deal that
    mixes games (pick-freeze designs)."""
    seed = np.uint64(12345)
    rng = np.empty(N_STREAMS, dtype=np.uint64)
    for deal in (np.full(N_STREAMS, 77, dtype=np.int64),
                 np.arange(N_STREAMS, dtype=np.int64) // 3,
                 np.array([5, 6] * (N_STREAMS // 2) + [5] * (N_STREAMS % 2), dtype=np.int64)):
        game_streams(seed, deal, rng)
        assert [int(x) for x in rng] == [int(stream_seed(seed, deal[i], i))
                                          for i in range(N_STREAMS)]


def test_seat_after_is_turn_order():
    for n in range(1, 6):
        for sp in range(n):
            assert [seat_after(sp, k, n) for k in range(n)] == [(sp + k) % n for k in range(n)]
