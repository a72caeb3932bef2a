"""Where a run's games are played: in this process (``local``, the default) or as tasks on a
Dask cluster (``dask``, the optional ``dist`` extra; see ``sim.study.dask_backend``).

A backend is a context manager (entering it connects to or starts a cluster; leaving it stops
what it started) with two services:

- ``chunks(plan)``: a *chunk source* for one tournament run, whose ``rows(k, on_rounds)``
  returns chunk ``k``'s rows. Chunks are asked for strictly in order; a distributed source
  plays several ahead but hands them back in order, so the statistics, the files and the
  ``until_ci`` stop are the local ones to the last digit. ``close()`` drops chunks played
  ahead and not asked for.
- ``deal_shares(ruleset, specs, seed, deals, chunks)``: one lineup's mean win share per deal
  (every rotation of the seats), for ``quacks tune``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.study.chunks import ChunkRows, play_chunk

BACKENDS = ("local", "dask")
INSTALL_HINT = ('--backend dask needs the optional extra "dist" (Dask distributed), which is not '
                'installed: pip install -e ".[dist]" in a source checkout, or '
                'pip install "quacks-sim[dist]"')
MAX_LOCAL_WORKERS = 1024


class BackendError(ValueError):
    """A backend that cannot run (a missing extra, bad options, a cluster that cannot be reached
    or that lost a chunk for good); the message is one line saying what would be right."""


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

    def describe(self) -> str | None:
        """A line for stderr about where the games run (none for local)."""
        return None


def make_backend(name: str = "local", *, scheduler: str | None = None, workers: int | None = None,
                 threads: int | None = None, note: Callable[[str], None] | None = None):
    """The backend ``name`` (not yet entered); raise BackendError with one line for options
    that do not fit it, or for ``dask`` without the ``dist`` extra installed.

    ``scheduler`` (``tcp://HOST:PORT``) names a running Dask scheduler; ``workers`` starts a
    local cluster of that many worker processes for the run instead (default for ``dask``: one
    per core). ``threads`` fixes the Numba threads of each worker (default: its share of its
    machine's cores). ``note`` receives one-line remarks (e.g. that workers compile first).
    """
    if name not in BACKENDS:
        raise BackendError(f"--backend {name}: expected one of {', '.join(BACKENDS)}")
    if name == "local":
        for opt, v in (("--scheduler", scheduler), ("--workers", workers)):
            if v is not None:
                raise BackendError(f"{opt}: only with --backend dask")
        return LocalBackend()
    if scheduler is not None and workers is not None:
        raise BackendError("--scheduler and --workers: give one (--scheduler joins a running "
                           "cluster, --workers starts one here)")
    if workers is not None and not 1 <= workers <= MAX_LOCAL_WORKERS:
        raise BackendError(f"--workers {workers}: expected 1 to {MAX_LOCAL_WORKERS} worker processes")
    if scheduler is not None and not scheduler.strip():
        raise BackendError("--scheduler: give the scheduler's address, e.g. tcp://10.0.0.5:8786")
    try:
        import distributed  # noqa: F401 - is the extra installed?
    except ImportError:
        raise BackendError(INSTALL_HINT) from None
    from sim.study.dask_backend import DaskBackend

    return DaskBackend(scheduler=scheduler, workers=workers, threads=threads, note=note)


LOCAL = LocalBackend()
