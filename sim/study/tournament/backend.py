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

import re
from collections.abc import Callable

from sim.api.limits import MAX_WORKERS
from sim.study.tournament.local import BackendError, LocalBackend

BACKENDS = ("local", "dask")
INSTALL_HINT = ('--backend dask needs the optional extra "dist" (Dask distributed), which is not '
                'installed: pip install -e ".[dist]" in a source checkout, or '
                'pip install "quacks-sim[dist]"')
SCHEDULER_EXAMPLE = "tcp://10.0.0.5:8786"
# a host name or IPv4 address (IPv6 goes in brackets, which parse_host_port takes off)
_HOST = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")


def check_scheduler_address(address: str) -> str:
    """The Dask scheduler address ``address`` (stripped) if it has the form Dask connects to,
    ``[SCHEME://]HOST:PORT`` with a network scheme Dask knows (tcp, tls, ws, wss, ucx; tcp when
    none is given); BackendError with one line otherwise. Asks nothing of the network. Without
    the ``dist`` extra the address is returned unchecked (``make_backend`` then says to install
    it)."""
    text = address.strip()
    if not text:
        raise BackendError(f"--scheduler: give the scheduler's address, e.g. {SCHEDULER_EXAMPLE}")
    try:
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        return text
    schemes = sorted(s for s in registry.backends if s != "inproc")  # inproc: this process only
    bad = f"--scheduler {address!r}: not a Dask scheduler address"
    try:
        scheme, location = parse_address(text)
    except ValueError:
        scheme, location = "", ""
    if scheme not in schemes:
        raise BackendError(f"{bad}; expected [SCHEME://]HOST:PORT with SCHEME one of "
                           f"{', '.join(schemes)}, e.g. {SCHEDULER_EXAMPLE}")
    try:
        host, port = parse_host_port(location)
    except ValueError:
        host, port = "", -1
    if not _HOST.fullmatch(host) or not 1 <= port <= 65535:
        raise BackendError(f"{bad}; expected {scheme}://HOST:PORT (PORT 1 to 65535), e.g. "
                           f"{SCHEDULER_EXAMPLE}")
    return text


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
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise BackendError(f"--workers {workers}: expected 1 to {MAX_WORKERS} worker "
                           "processes")
    try:
        import distributed  # noqa: F401 - is the extra installed?
    except ImportError:
        raise BackendError(INSTALL_HINT) from None
    if scheduler is not None:
        scheduler = check_scheduler_address(scheduler)
    from sim.study.tournament.dask_backend import DaskBackend

    return DaskBackend(scheduler=scheduler, workers=workers, threads=threads, note=note)
