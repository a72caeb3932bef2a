"""The kernel's result records as named columns, so that no study reads a kernel offset.

``play_batch`` returns ``out[game, seat, O_*]`` and, with rounds detail,
``rounds[game, round, seat, RD_*]`` (``sim.kernel.records``); the functions here turn them into
numpy columns named as in ``games.parquet`` and ``rounds.parquet``, and read single fields (a
seat's win share, final VP and rank) by name.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.records import (
    O_BOUGHT,
    O_DROPLET,
    O_ERR,
    O_EXPLOSIONS,
    O_FINALPOS,
    O_NCHIPS,
    O_NWIN,
    O_RANK,
    O_RUBIES,
    O_SCORE,
    O_WIDTH,
    O_WIN,
    O_WITCHES,
    RD_BAG,
    RD_CARD,
    RD_COINS,
    RD_DROPLET,
    RD_EXPLODED,
    RD_NCHIPS,
    RD_NPOT,
    RD_RAT,
    RD_REWARD,
    RD_RUBIES,
    RD_SCORE,
    RD_VPGAIN,
    RD_WHITE,
    RD_WIDTH,
)
from sim.rules.chips import COLOUR_NAMES

BOUGHT_COLUMNS = tuple(f"bought_{c}" for c in COLOUR_NAMES)

# The per-round record's columns in rounds.parquet, in the order of
# sim.study.tournament.statistics.ROUND_METRICS (the card column comes last, on its own).
ROUND_COLUMNS = (("reward_space", RD_REWARD), ("exploded", RD_EXPLODED), ("vp_gained", RD_VPGAIN),
                 ("coins", RD_COINS), ("white_total", RD_WHITE), ("rat", RD_RAT),
                 ("score", RD_SCORE), ("rubies", RD_RUBIES), ("droplet", RD_DROPLET),
                 ("chips", RD_NCHIPS), ("pot_chips", RD_NPOT)) \
    + tuple((f"bag_{c}", RD_BAG + k) for k, c in enumerate(COLOUR_NAMES))


def empty_results(games: int, players: int, rounds: int, detail: bool):
    """Uninitialised ``(out, rounds or None)`` arrays shaped as ``play_batch``'s for ``games``
    games, to gather the results of several batches in."""
    out = np.empty((games, players, O_WIDTH), dtype=np.int64)
    rd = np.empty((games, rounds, players, RD_WIDTH), dtype=np.int64) if detail else None
    return out, rd


def game_columns(out: np.ndarray, witches: bool) -> dict[str, np.ndarray]:
    """The per-game result ``out[game, seat, :]`` as the games.parquet columns (one row per game
    and seat, in that order); with ``witches`` also the herb witches' bits."""
    m, n = out.shape[:2]
    cols = {}
    if witches:  # bits: witches called and in play
        cols["witches"] = out[:, :, O_WITCHES].reshape(-1).astype(np.int32)
    o = out.reshape(m * n, -1).astype(np.int16).T.copy()  # one row per field: fast copies
    cols.update({
        "vp": o[O_SCORE],
        "rank": o[O_RANK].astype(np.int8),
        "win_share": o[O_WIN] / o[O_NWIN].astype(np.float64),
        "explosions": o[O_EXPLOSIONS].astype(np.int8),
        "rubies": o[O_RUBIES],
        "droplet": o[O_DROPLET],
        "final_position": o[O_FINALPOS],
        "chips": o[O_NCHIPS],
        "illegal": o[O_ERR].astype(np.int8),
    })
    for c, name in enumerate(BOUGHT_COLUMNS):
        cols[name] = o[O_BOUGHT + c].astype(np.int8)
    return cols


def round_columns(rd: np.ndarray) -> dict[str, np.ndarray]:
    """The per-round record ``rd[game, round, seat, :]`` as the rounds.parquet columns (one row
    per game, round and seat, in that order): ``ROUND_COLUMNS`` and the round's ``card``."""
    r = rd.reshape(-1, rd.shape[-1]).astype(np.int16).T.copy()
    cols = {name: r[col] for name, col in ROUND_COLUMNS}
    cols["card"] = r[RD_CARD].astype(np.int8)
    return cols


def win_shares(out: np.ndarray) -> np.ndarray:
    """Each seat's share of its game's win (1, 1/k for a k-way tie, 0) from ``out[..., :]``."""
    return out[..., O_WIN] / out[..., O_NWIN]


def final_vp(out: np.ndarray) -> np.ndarray:
    """Each seat's final VP from ``out[..., :]``."""
    return out[..., O_SCORE]


def final_rank(out: np.ndarray) -> np.ndarray:
    """Each seat's final rank (1 = first) from ``out[..., :]``."""
    return out[..., O_RANK]
