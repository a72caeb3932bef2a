"""Where a run's games are played: in this process (``local``, the default) or as tasks on a
Dask cluster (``dask``, the optional ``dist`` extra; see ``sim.study.tournament.dask_backend``).

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

from collections.abc import Callable

from sim.study.tournament.local import BackendError, LocalBackend

BACKENDS = ("local", "dask")
INSTALL_HINT = ('--backend dask needs the optional extra "dist" (Dask distributed), which is not '
                'installed: pip install -e ".[dist]" in a source checkout, or '
                'pip install "quacks-sim[dist]"')
MAX_LOCAL_WORKERS = 1024


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
        raise BackendError(f"--workers {workers}: expected 1 to {MAX_LOCAL_WORKERS} worker "
                           "processes")
    if scheduler is not None and not scheduler.strip():
        raise BackendError("--scheduler: give the scheduler's address, e.g. tcp://10.0.0.5:8786")
    try:
        import distributed  # noqa: F401 - is the extra installed?
    except ImportError:
        raise BackendError(INSTALL_HINT) from None
    from sim.study.tournament.dask_backend import DaskBackend

    return DaskBackend(scheduler=scheduler, workers=workers, threads=threads, note=note)
