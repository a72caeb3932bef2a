"""The kernel's result records as named columns, so that no study reads a kernel offset.

``play_batch`` returns ``out[game, seat, O_*]`` and, with rounds detail,
``rounds[game, round, seat, RD_*]`` (``sim.kernel.records``); the functions here turn them into
numpy columns named as in ``games.parquet`` and ``rounds.parquet``, and read single fields (a
seat's win share, final VP and rank) by name.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.fields import Table
from sim.kernel.records import O_NWIN, O_RANK, O_SCORE, O_WIDTH, O_WIN, RD_WIDTH, RESULT, ROUND

WITCHES_COLUMN = "witches"  # games.parquet's herb-witch bits: a column only with the witches
CARD_COLUMN = "card"  # rounds.parquet's card number: a column, not a metric


def _columns(table: Table) -> dict[str, tuple[int, ...]]:
    """Each report column of a record (``Field.columns``, fields marked internal left out) with
    the offsets it is read from: one, or two for a share (``win_share`` = win / nwin)."""
    cols: dict[str, tuple[int, ...]] = {}
    for f in table.named():
        if not f.internal:
            for k, name in enumerate(f.columns):
                cols[name] = (*cols.get(name, ()), table.offsets[f.name] + k)
    return cols


GAME_COLUMNS = _columns(RESULT)  # games.parquet's record columns, in declaration order
ROUND_COLUMNS = _columns(ROUND)  # rounds.parquet's, likewise
GAME_TYPES = RESULT.column_types()  # their arrow type names (numpy's dtype names too)
ROUND_TYPES = ROUND.column_types()
BOUGHT_COLUMNS = tuple(c for c in GAME_COLUMNS if c.startswith("bought_"))
# the per-round metrics a tournament keeps: every round column but the card
ROUND_METRIC_NAMES = tuple(c for c in ROUND_COLUMNS if c != CARD_COLUMN)


def empty_results(games: int, players: int, rounds: int, detail: bool):
    """Uninitialised ``(out, rounds or None)`` arrays shaped as ``play_batch``'s for ``games``
    games, to gather the results of several batches in."""
    out = np.empty((games, players, O_WIDTH), dtype=np.int64)
    rd = np.empty((games, rounds, players, RD_WIDTH), dtype=np.int64) if detail else None
    return out, rd


def _record_columns(a: np.ndarray, columns: dict, types: dict) -> dict[str, np.ndarray]:
    """The named columns of records ``a[..., field]`` (one row per record, in order), each of
    its declared type."""
    rows = a.reshape(-1, a.shape[-1]).T.copy()  # one row per field: fast copies
    cols = {}
    for name, offsets in columns.items():
        if len(offsets) == 2:  # a share: numerator / denominator
            cols[name] = rows[offsets[0]] / rows[offsets[1]].astype(np.float64)
        else:
            cols[name] = rows[offsets[0]].astype(types[name])
    return cols


def game_columns(out: np.ndarray, witches: bool) -> dict[str, np.ndarray]:
    """The per-game result ``out[game, seat, :]`` as the games.parquet columns (one row per game
    and seat, in that order); with ``witches`` also the herb witches' bits."""
    columns = GAME_COLUMNS if witches else {
        k: v for k, v in GAME_COLUMNS.items() if k != WITCHES_COLUMN}
    return _record_columns(out, columns, GAME_TYPES)


def round_columns(rd: np.ndarray) -> dict[str, np.ndarray]:
    """The per-round record ``rd[game, round, seat, :]`` as the rounds.parquet columns (one row
    per game, round and seat, in that order): ``ROUND_METRIC_NAMES`` and the round's card."""
    return _record_columns(rd, ROUND_COLUMNS, ROUND_TYPES)


def win_shares(out: np.ndarray) -> np.ndarray:
    """Each seat's share of its game's win (1, 1/k for a k-way tie, 0) from ``out[..., :]``."""
    return out[..., O_WIN] / out[..., O_NWIN]


def final_vp(out: np.ndarray) -> np.ndarray:
    """Each seat's final VP from ``out[..., :]``."""
    return out[..., O_SCORE]


def final_rank(out: np.ndarray) -> np.ndarray:
    """Each seat's final rank (1 = first) from ``out[..., :]``."""
    return out[..., O_RANK]
