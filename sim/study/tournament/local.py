"""The local backend: a run's chunks played in this process, one at a time; and the error
every backend raises (:class:`BackendError`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.study.tournament.chunks import ChunkRows, play_chunk
from sim.study.tournament.errors import BackendError  # noqa: F401 (importers name it here)


def lineup_deal_shares(ruleset, specs: Sequence[str], seed: int, deals: np.ndarray,
                       chunks: int = 64) -> np.ndarray:
    """The first spec's mean win share in each deal, every rotation of the seats played, with
    the other specs in the other seats (one per seat)."""
    from sim.api.columns import win_shares
    from sim.api.game import play_batch
    from strategies.builtin import parse_strategy

    lineup = [parse_strategy(s) for s in specs]
    n = len(lineup)
    games = np.repeat(np.asarray(deals, dtype=np.int64), n)
    rot = np.tile(np.arange(n, dtype=np.int64), len(deals))
    res = play_batch(ruleset, lineup, games=games, rotations=rot, seed=seed, chunks=chunks)
    who = res.seat_strategy() == 0
    share = win_shares(res.out)[who]  # one per game, in game order
    return share.reshape(len(deals), n).mean(axis=1)


def play_piece(ruleset, specs: Sequence[str], seed: int, games: np.ndarray,
               rotations: np.ndarray, reduce: Callable, detail: bool = True):
    """``reduce(result)`` of one batch: the lineup ``specs`` playing ``games`` (seated by
    ``rotations``) with the round records when ``detail``."""
    from sim.api.game import play_batch
    from strategies.builtin import parse_strategy

    lineup = [parse_strategy(s) for s in specs]
    res = play_batch(ruleset, lineup, games=np.asarray(games, dtype=np.int64),
                     rotations=np.asarray(rotations, dtype=np.int64), seed=seed, detail=detail)
    return reduce(res)


class LocalChunks:
    """Chunks played here, one at a time, when asked for."""

    def __init__(self, plan):
        self.plan = plan

    def rows(self, k: int, on_rounds: Callable[[dict], None] | None = None) -> ChunkRows:
        """Play chunk ``k`` (its rounds rows go to ``on_rounds`` block by block)."""
        b = self.plan.chunk_bounds
        return play_chunk(self.plan, b[k], b[k + 1], on_rounds=on_rounds)

    def close(self) -> None:
        """Nothing is played ahead here."""


class LocalBackend:
    """The default backend: every game in this process, on this machine's Numba threads."""

    name = "local"

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def chunks(self, plan) -> LocalChunks:
        """A chunk source for one run of ``plan``."""
        return LocalChunks(plan)

    def deal_shares(self, ruleset, specs: Sequence[str], seed: int, deals: np.ndarray,
                    chunks: int = 64) -> np.ndarray:
        """See :func:`lineup_deal_shares`."""
        return lineup_deal_shares(ruleset, specs, seed, deals, chunks)

    def map_batches(self, ruleset, specs: Sequence[str], seed: int, pieces, reduce: Callable,
                    detail: bool = True):
        """``reduce`` of every batch ``(games, rotations)`` of ``pieces``, in order, as an
        iterator (``play_piece``; ``reduce`` takes a ``BatchResult`` and must be a module-level
        function so that Dask can send it)."""
        for games, rotations in pieces:
            yield play_piece(ruleset, specs, seed, games, rotations, reduce, detail)

    def describe(self) -> str | None:
        """A line for stderr about where the games run (none for local)."""
        return None


LOCAL = LocalBackend()
