"""A rules file's witch is counted where the shipped ones are: the play table's witches called per
game (``sim.api.game.PlayStats``) and the report's witch use table
(``sim.study.reports.witch_use``), both reading every declared witch's bit (bit w called, bit
16 + w in play; a rules file's witch is 14), not witches 1-12.

A stand-in for a loaded rules file's witch joins the known witches (``sim.rules.witches.WITCHES``,
the list a loaded witch is appended to) for each test; the games are written by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.game import BatchResult, summarize
from sim.kernel.records import O_NWIN, O_WIDTH, O_WIN, O_WITCHES
from sim.rules.witches import WITCHES, Witch
from sim.study.reports.witch_use import witch_use_table
from strategies.builtin import parse_strategy

USER = Witch(14, "stand-in", "buying", "buying (step E)", "A rules file's witch.",
             lambda b, c: {}, user=True)
COLOURS = 9  # a shipped witch of the points group
GAMES = 4


@pytest.fixture
def loaded():
    """The stand-in is known for the test, as a witch loaded from a rules file is."""
    WITCHES.append(USER)
    try:
        yield
    finally:
        WITCHES.remove(USER)


def _witches_column() -> np.ndarray:
    """(games, 2 seats): both witches in play; seat 0 calls both, seat 1 the shipped one in
    the first two games."""
    play = (1 << (16 + USER.number)) | (1 << (16 + COLOURS))
    col = np.full((GAMES, 2), play, np.int64)
    col[:, 0] |= (1 << USER.number) | (1 << COLOURS)
    col[:2, 1] |= 1 << COLOURS
    return col


def test_the_play_table_counts_a_rules_files_witch(loaded):
    out = np.zeros((GAMES, 2, O_WIDTH), np.int64)
    out[:, 0, O_WIN], out[:, :, O_NWIN] = 1, 1
    out[:, :, O_WITCHES] = _witches_column()
    lineup = [parse_strategy("balanced"), parse_strategy("greedy")]
    res = BatchResult(np.arange(GAMES), np.zeros(GAMES, np.int64), out, None, lineup)
    table = summarize(res, 9)
    assert list(table["witches_called"]) == [2.0, 0.5]  # before: 1.0 (witches 1-12 only)


def test_the_witch_use_table_has_a_row_for_a_rules_files_witch(loaded):
    col = _witches_column()
    df = witch_use_table(np.repeat(np.arange(GAMES), 2), np.tile([0, 1], GAMES), col.ravel(),
                         ["balanced", "greedy"])
    got = {(r.strategy, r.witch): (r.games_in_play, r.called) for r in df.itertuples()}
    assert got == {("balanced", "colours"): (4, 4), ("balanced", "stand-in"): (4, 4),
                   ("greedy", "colours"): (4, 2), ("greedy", "stand-in"): (4, 0)}
    assert set(df.loc[df.witch == "stand-in", "group"]) == {"buying"}
