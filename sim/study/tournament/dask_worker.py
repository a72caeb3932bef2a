"""The worker side of the ``dask`` backend (``dask_backend``): what runs in the worker
processes. The payload is resolved once per process and cached by its hash (strategy files and
rules files written under the temporary directory by content hash and loaded, the rules files
before the run's settings are unpickled; specs parsed again there and checked against the
client's values); a worker whose kernel sources differ from the client's
refuses with one line. Each worker process plays one task at a time with its share of its
machine's cores as Numba threads, and loads the kernels from the on-disk Numba cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
from distributed import get_worker
from distributed.diagnostics.plugin import WorkerPlugin

from sim.study.tournament.errors import BackendError


class WorkerSetupError(BackendError):
    """A worker that cannot play this run (other kernel sources, a strategy it cannot load)."""


_PAYLOADS: dict[str, dict] = {}  # payload hash -> payload, put here by the run's plugin
_READY: dict[str, object] = {}  # payload hash -> the resolved plan (or ruleset) of this process
_PLAY = threading.Lock()  # one chunk at a time per worker process, on all its Numba threads


class PayloadPlugin(WorkerPlugin):
    """Carries one run's payload to every worker (present and future) once."""

    def __init__(self, key: str, payload: dict):
        self.key = key
        self.payload = payload
        self.name = f"quacks-{key}"

    def setup(self, worker) -> None:
        """Keep the payload in this worker process until the run unregisters it."""
        _PAYLOADS[self.key] = self.payload

    def teardown(self, worker) -> None:
        """Forget the payload and what was resolved from it."""
        _PAYLOADS.pop(self.key, None)
        _READY.pop(self.key, None)


def dask_setup(worker) -> None:  # pragma: no cover - runs in worker processes
    """Preload hook of the workers a local cluster starts: Ctrl-C in the terminal (sent to the
    whole process group) is the client's to handle; the workers ignore it."""
    import signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _copies(files: list[tuple[str, str]], folder: str) -> list[Path]:
    """The client's files (name, text) as local copies, each in a folder named by its content's
    hash under the temporary directory (written once, atomically), in the client's order."""
    root = Path(tempfile.gettempdir()) / folder
    paths = []
    for name, text in files:
        d = root / hashlib.sha256(text.encode()).hexdigest()[:16]
        path = d / name
        if not path.is_file():
            d.mkdir(parents=True, exist_ok=True)
            tmp = d / f".{name}.{os.getpid()}.tmp"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        paths.append(path)
    return paths


def _load_files(files: list[tuple[str, str]]) -> None:
    """Load the client's strategy files (name, text), in its order, from copies named by hash."""
    from strategies.registry import load_strategy_file

    for path in _copies(files, "quacks-dask-strategies"):
        load_strategy_file(path)


def _load_rules_files(files: list[tuple[str, str]]) -> None:
    """Load the client's rules files (name, text), in its order, from copies named by hash: the
    user's cards and books get the client's numbers. A worker that played without them before
    (its hook tables built) cannot add them: a WorkerSetupError says to restart it."""
    from sim.rules.card_numbers import add_card_file

    for path in _copies(files, "quacks-dask-rules"):
        add_card_file(path)


def _same_strategy(client_side, spec: str):
    """The spec parsed on this worker; its values and parameters must be the client's."""
    from strategies.builtin import parse_strategy

    try:
        mine = parse_strategy(spec)
    except ValueError as e:  # e.g. a user strategy whose file this machine did not load
        raise WorkerSetupError(f"Dask worker {get_worker().address}: {e}") from None
    if mine.values != client_side.values or not np.array_equal(mine.params, client_side.params):
        raise WorkerSetupError(f"strategy {spec!r} resolves differently on Dask worker "
                               f"{get_worker().address}; install the same quacks-sim there")
    return mine


def _resolve(key: str):
    """This process's plan (or ruleset) for the payload ``key``, resolved on first use."""
    from sim.numba_cache import kernel_source_hash
    from sim.release import __version__

    if key in _READY:
        return _READY[key]
    p = _PAYLOADS.get(key)
    where = get_worker().address
    if p is None:
        raise WorkerSetupError(f"Dask worker {where} did not receive the run's settings")
    mine = (__version__, kernel_source_hash())
    if tuple(p["version"]) != mine:
        raise WorkerSetupError(
            f"Dask worker {where} runs quacks-sim {mine[0]} with kernel sources {mine[1]}, this "
            f"machine {p['version'][0]} with {p['version'][1]}; install the same version there")
    try:
        _load_rules_files(p["rules_files"])
    except ValueError as e:  # a rules file that does not load there
        raise WorkerSetupError(f"Dask worker {where}: {e} (a worker that played without the "
                               "run's rules files must be restarted)") from None
    try:
        _load_files(p["files"])
    except ValueError as e:  # a strategy file that does not load there
        raise WorkerSetupError(f"Dask worker {where}: {e}") from None
    settings = pickle.loads(p["settings"])
    plan = settings["plan"]
    if plan is not None:
        strategies = [_same_strategy(s, s.spec) for s in plan.strategies]
        ready = replace(plan, strategies=strategies)
    else:
        ready = settings["ruleset"]
    _READY[key] = ready
    return ready


def kernels_cached() -> bool:
    """True when this worker's on-disk Numba cache holds the game kernel (run by client.run)."""
    from sim.numba_cache import is_cached

    return is_cached("sim/kernel/game.play_games")


def _threads(share: dict[str, int], fixed: int | None) -> int:
    """Numba threads for this worker: ``fixed``, or the cores of its machine over the worker
    processes there (never more than Numba's pool)."""
    import numba
    from distributed.comm import get_address_host

    limit = numba.config.NUMBA_NUM_THREADS
    if fixed is not None:
        return max(1, min(fixed, limit))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    procs = share.get(get_address_host(get_worker().address), 1)
    return max(1, min(limit, (cores or 1) // max(1, procs)))


def _run(key: str, share: dict[str, int], fixed: int | None, play):
    """Resolve the payload and call ``play(resolved)`` alone in this process, on its threads.
    Each task's ``play`` imports what plays games itself: the kernel is imported only after
    ``_resolve`` loaded the run's rules files."""
    import numba

    with _PLAY:
        ready = _resolve(key)
        numba.set_num_threads(_threads(share, fixed))
        return play(ready)


def chunk_task(key: str, d0: int, d1: int, share: dict[str, int], fixed: int | None):
    """Play deals d0..d1-1 of the run ``key``: the games columns and the rounds blocks (None
    with games detail), without the layout columns (the client adds them back)."""
    def play(plan):
        from sim.study.tournament.chunks import GAME_LAYOUT, ROUND_LAYOUT, play_chunk

        blocks: list[dict] = []
        rows = play_chunk(plan, d0, d1, on_rounds=blocks.append)
        games = {k: v for k, v in rows.games.items() if k not in GAME_LAYOUT}
        if plan.config.detail != "rounds":
            return games, None
        return games, [{k: v for k, v in b.items() if k not in ROUND_LAYOUT} for b in blocks]

    return _run(key, share, fixed, play)


def warm_task(key: str, share: dict[str, int], fixed: int | None) -> str:
    """Resolve the payload and load the kernels (one game) before the clock starts."""
    def play(ready):
        from sim.api.game import play_batch

        if hasattr(ready, "lineup"):
            idx = np.zeros(1, dtype=np.int64)
            play_batch(ready.ruleset, ready.lineup(0), games=idx, rotations=idx, seed=0)
        return get_worker().address

    return _run(key, share, fixed, play)


def shares_task(key: str, specs: list[str], seed: int, d0: int, d1: int, chunks: int,
                share: dict[str, int], fixed: int | None) -> np.ndarray:
    """Per-deal win shares of the lineup ``specs`` over deals d0..d1-1 (``quacks tune``)."""
    def play(ruleset):
        from sim.study.tournament.local import lineup_deal_shares

        return lineup_deal_shares(ruleset, specs, seed, np.arange(d0, d1, dtype=np.int64), chunks)

    return _run(key, share, fixed, play)


def batch_task(key: str, specs: list[str], seed: int, games: np.ndarray, rotations: np.ndarray,
               reduce, detail: bool, share: dict[str, int], fixed: int | None):
    """``reduce`` of one batch of games (``map_batches``; e.g. ``quacks train``'s positions)."""
    def play(ruleset):
        from sim.study.tournament.local import play_piece

        return play_piece(ruleset, specs, seed, games, rotations, reduce, detail)

    return _run(key, share, fixed, play)
