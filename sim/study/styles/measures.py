"""What a style map measures of the candidate in each game: its win share and the behaviour
descriptors, from the per-game results and the per-round records the games produce
(the fields of ``sim.api.game.result_fields`` and ``round_fields``: ``exploded``, ``white``,
``droplet``, ``bought``).

The descriptors are declared in ``sim.study.styles.descriptors``; each is a column here.
"""

from __future__ import annotations

import numpy as np

from sim.study.styles.descriptors import DESCRIPTORS

MEASURES = ("win_share", *(d.name for d in DESCRIPTORS))  # the columns of game_measures


def game_measures(res) -> np.ndarray:
    """Per game of a ``BatchResult`` played with the round records (``detail``), the measures
    of the lineup's first strategy (the candidate): a (games, len(MEASURES)) array in game
    order. A module-level function, so a Dask backend can send it (``map_batches``)."""
    from sim.api.columns import win_shares
    from sim.api.game import result_fields, round_fields
    from sim.rules.chips import COLOUR_NAMES

    result = {name: offset for name, offset, _ in result_fields()}
    record = {name: offset for name, offset, _ in round_fields()}

    who = res.seat_strategy() == 0  # (games, seats): the candidate's seat
    seat = np.argmax(who, axis=1)
    k = np.arange(len(seat))
    out = res.out[k, seat]  # (games, O_WIDTH)
    rd = res.rounds[k, :, seat]  # (games, rounds, RD_WIDTH)
    exploded = rd[:, :, record["exploded"]] > 0
    stopped = ~exploded
    white = np.where(stopped, rd[:, :, record["white"]], 0).sum(axis=1)
    n_stopped = stopped.sum(axis=1)
    bought = out[:, result["bought"]:result["bought"] + len(COLOUR_NAMES)]
    n_bought = bought.sum(axis=1)
    cheap = bought[:, COLOUR_NAMES.index("orange")] + bought[:, COLOUR_NAMES.index("green")]
    cols = {
        "win_share": win_shares(res.out)[who],
        "explosion_rate": exploded.mean(axis=1),
        "white_at_stop": np.divide(white, n_stopped, out=np.full(len(k), np.nan),
                                   where=n_stopped > 0),
        "droplet": out[:, result["droplet"]].astype(np.float64),
        "chips_bought": n_bought.astype(np.float64),
        "cheap_share": np.divide(cheap, n_bought, out=np.full(len(k), np.nan),
                                 where=n_bought > 0),
    }
    return np.stack([cols[m] for m in MEASURES], axis=1).astype(np.float64)
