"""The head-to-head table of a round-robin: for every ordered pair of strategies (A, B), A's win
share in the games where B sat at the same table, as integer sums over deals (so chunking,
threads and resume never change it) and a table with intervals (deals as the unit). The same sums
per cluster of deals (``deal % RATING_BUCKETS``) feed the bootstrap of the cycle table (Nash
averaging and AlphaRank, ``sim.study.tournament.cycles``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats.clusters import ClusterSums, group_sums
from sim.study.tournament.cycles import cycle_columns
from sim.study.tournament.rating import RATING_BUCKETS


class HeadToHead:
    """Sums for the head-to-head table of ``S`` strategies; cell a * S + b holds a's share units
    and seat-games in the games where b sat at the same table, over deals."""

    def __init__(self, S: int):
        self.S = S
        self.cells = ClusterSums(S * S)
        self.games = np.zeros((S, S), np.int64)  # games where both sat at the table
        self.deals = np.zeros((S, S), np.int64)  # deals where they met
        # share units and seat-games of every cell per cluster of deals (deal % RATING_BUCKETS)
        self.bucket_x = np.zeros((RATING_BUCKETS, S * S), np.int64)
        self.bucket_n = np.zeros((RATING_BUCKETS, S * S), np.int64)

    def add(self, st: np.ndarray, sh: np.ndarray, gdeal: np.ndarray, nd: int,
            first_deal: int = 0) -> None:
        """Per game (rows of ``st``, strategies by seat, and ``sh``, share units by seat; ``gdeal``
        the game's deal 0..nd-1 in the chunk, whose deal 0 is the run's deal ``first_deal``):
        every seat of A is one observation of the cell (A, B) for each other strategy B at the
        table (counted once however many seats B has)."""
        S, n = self.S, st.shape[1]
        first = np.ones(st.shape, bool)  # seat j holds the first copy of its strategy in the game
        for j in range(1, n):
            first[:, j] = (st[:, :j] != st[:, j:j + 1]).all(axis=1)
        dl, cell, x = [], [], []
        for i in range(n):
            for j in range(n):
                m = first[:, j] & (st[:, j] != st[:, i])
                dl.append(gdeal[m])
                cell.append(st[m, i] * S + st[m, j])
                x.append(sh[m, i])
        C = S * S
        idx = np.concatenate(dl) * C + np.concatenate(cell)
        N = np.bincount(idx, minlength=nd * C).astype(np.int64).reshape(nd, C)
        X = group_sums(idx, nd * C, np.concatenate(x)).reshape(nd, C)
        self.cells.add_totals(X, N)
        bucket = (first_deal + np.arange(nd, dtype=np.int64)) % RATING_BUCKETS
        bidx = (bucket[:, None] * C + np.arange(C)).ravel()
        size = RATING_BUCKETS * C
        self.bucket_x += group_sums(bidx, size, X.ravel()).reshape(RATING_BUCKETS, C)
        self.bucket_n += group_sums(bidx, size, N.ravel()).reshape(RATING_BUCKETS, C)
        self.deals += (N > 0).sum(axis=0).reshape(S, S)
        at = np.zeros((len(st), S), np.int64)  # at[g, a]: strategy a sits at game g's table
        at[np.arange(len(st))[:, None], st] = 1
        self.games += at.T @ at

    def state(self) -> list:
        """Every sum, as arrays (for tests that compare two runs exactly)."""
        c = self.cells
        return [c.sx, c.sn, c.sxx, c.sxn, c.snn, self.games, self.deals, self.bucket_x,
                self.bucket_n]

    def table(self, cat, deals: int, unit: float) -> pd.DataFrame:
        """One row per ordered pair (a, b) that met: a's win share in those games. Like the
        per-strategy win share, a ratio over all deals (a deal where the two did not meet adds
        nothing to either sum) with the Wilson interval at the cluster effective sample size."""
        S = self.S
        ws, (lo, hi) = self.cells.share_ci(deals, unit)
        a, b = np.divmod(np.arange(S * S), S)
        keep = (a != b) & (self.cells.sn > 0)
        return pd.DataFrame({
            "a": pd.Categorical.from_codes(a[keep], dtype=cat),
            "b": pd.Categorical.from_codes(b[keep], dtype=cat),
            "games": self.games.ravel()[keep], "deals": self.deals.ravel()[keep],
            "seat_games_a": self.cells.sn[keep],
            "win_share_a": ws[keep], "win_share_a_ci_lo": lo[keep], "win_share_a_ci_hi": hi[keep],
        })

    def cycle_table(self, cat, unit: float) -> pd.DataFrame | None:
        """One row per strategy: its weight in the maximum-entropy Nash equilibrium of the
        head-to-head game, its Nash-averaged rating and its AlphaRank mass, each with a 95%
        cluster-bootstrap interval over deals (``sim.study.tournament.cycles``). None when some
        pair of strategies never met."""
        S = self.S
        cols = cycle_columns(self.bucket_x.reshape(-1, S, S), self.bucket_n.reshape(-1, S, S),
                             unit)
        if cols is None:
            return None
        return pd.DataFrame({"strategy": pd.Categorical.from_codes(np.arange(S), dtype=cat),
                             **cols})
