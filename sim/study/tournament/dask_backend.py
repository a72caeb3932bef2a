"""The ``dask`` backend: chunks of games as tasks on a Dask cluster, the same answer as local.

Client side (:class:`DaskBackend`): connect to a running scheduler (``--scheduler``) or start a
local cluster of worker processes on the loopback interface (``--workers K``). For each run the
*payload* (the resolved plan or ruleset, and the text of every user strategy file and rules
file this process loaded, in load order) goes to every worker once, as a worker plugin named by
its hash (workers that join later get it from the scheduler too); tasks name only the hash and
their deals. A tournament's chunks are submitted a bounded window ahead (two per worker process)
and handed back strictly in chunk order, so statistics, files and the ``until_ci`` stop are the
local ones; chunks beyond the stop are cancelled. Tasks are pure: a chunk whose worker is lost
is played again elsewhere by the scheduler, with the same result.

Worker side: ``dask_worker`` (the payload resolved once per process, the tasks).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import time
from pathlib import Path

import dask
import numpy as np
from distributed import Client

from sim.study.tournament import dask_worker
from sim.study.tournament.chunks import ChunkRows, deal_blocks, layout_columns
from sim.study.tournament.dask_worker import (
    PayloadPlugin,
    batch_task,
    chunk_task,
    kernels_cached,
    shares_task,
    warm_task,
)
from sim.study.tournament.local import BackendError

CONNECT_TIMEOUT = 20  # seconds to reach a scheduler
PROBE_SECONDS = 5  # a scheduler address that does not answer within this is one line
WORKER_WAIT = 60  # seconds to wait for a first worker to join a scheduler
AHEAD_PER_WORKER = 2  # chunks submitted ahead per worker process
INFO_SECONDS = 1.0  # how long the list of workers is trusted
CHUNK_KEY = "quacks-chunk"  # task keys: quacks-chunk-<payload hash>-<run>-<chunk index>
TUNE_PIECE_GAMES = 4_000  # a tune evaluation is split into tasks of at least this many games
# A local cluster's background work, halved (from about 2.3% of a core per worker process to
# 0.9%): no statistical profiler sampling the chunks' stacks, system figures every 2 s.
QUIET_WORKERS = {"distributed.worker.profile.enabled": False,
                 "distributed.admin.system-monitor.interval": "2s"}


def _loaded_rules_files() -> list[tuple[str, str]]:
    """Every rules file this process loaded (``--rules-file``, a ruleset's ``plugins``), in
    load order, as (file name, text): a worker loads them before the run's settings, in the
    same order, so the user's cards and books get the same numbers there."""
    from sim.rules.card_numbers import loaded_rules_files

    out = []
    for f in loaded_rules_files():
        try:
            out.append((Path(f["path"]).name, Path(f["path"]).read_text(encoding="utf-8")))
        except OSError as e:
            raise BackendError(f"--rules-file {f['path']}: cannot be read to send to the Dask "
                               f"workers ({e.strerror or e})") from None
    return out


# --- client side ------------------------------------------------------------------------------


def _loaded_files() -> list[tuple[str, str]]:
    """Every strategy file this process loaded (built-in plugins and --strategy-file), in load
    order, as (file name, text); a file gone since is left out (a strategy the run needs from
    it fails on the workers with one line)."""
    try:
        from strategies.registry import LOADED_FILES
    except ImportError:  # a strategy layer without plugin files
        return []
    out = []
    for p in LOADED_FILES:
        try:
            out.append((Path(p).name, Path(p).read_text(encoding="utf-8")))
        except OSError:
            continue
    return out


def _no_answer(address: str, seconds: float = PROBE_SECONDS) -> str | None:
    """None when a Dask scheduler answers at ``address`` within ``seconds`` (a connection and
    Dask's handshake, with the client's security settings), else why not, in a few words.
    Asked before a Client is made: a Client that never connected may hang the exit for twice
    its timeout and print a traceback."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect
    from distributed.security import Security

    async def probe():
        args = Security().get_connection_args("client")
        comm = await asyncio.wait_for(connect(address, timeout=seconds, **args), seconds)
        await comm.close()

    with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever runs in this thread
        try:
            pool.submit(asyncio.run, probe()).result()
        except (asyncio.TimeoutError, TimeoutError):
            return f"no answer within {seconds:g} s"
        except (OSError, TypeError, ValueError, ImportError) as e:  # refused, no TLS settings
            return " ".join(f"{type(e).__name__}: {e}".split())
        except Exception:  # noqa: BLE001 - e.g. a web server's reply read as a Dask frame
            return "something answers, but not as a Dask scheduler"
    return None


def _failure(e: BaseException, what: str) -> BackendError | None:
    """The one-line error for a failed task, or None for a bug (which keeps its traceback)."""
    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    if isinstance(e, BackendError):
        return BackendError(str(e))
    if isinstance(e, KilledWorker):
        return BackendError(f"{what}: every Dask worker that played it died (out of memory? see "
                            "the workers' logs); the run's finished chunks are kept")
    if isinstance(e, (CommClosedError, OSError, TimeoutError)):
        return BackendError(f"{what}: lost the Dask scheduler ({type(e).__name__}: {e})")
    from concurrent.futures import CancelledError

    if isinstance(e, CancelledError):
        return BackendError(f"{what}: cancelled by the Dask cluster (was it restarted?)")
    return None


def _collect(get, what: str):
    """``get()``, a failed task's error as one-line BackendError (a bug keeps its traceback)."""
    try:
        return get()
    except Exception as e:
        err = _failure(e, what)
        if err is None:
            raise
        raise err from None


class DaskChunks:
    """One tournament run's chunks on the cluster: a window ahead, handed back in order."""

    def __init__(self, backend: DaskBackend, plan):
        self.backend = backend
        self.plan = plan
        self.key = backend.send(plan.ruleset, plan)
        self.futures: dict[int, object] = {}
        self.next = None  # the next chunk to submit
        # in the task keys: a cancelled earlier run's tasks stay apart
        self.run = os.urandom(4).hex()

    def _top_up(self, k: int) -> None:
        """Keep chunks k .. k + window - 1 submitted (the window: two per worker process)."""
        bounds = self.plan.chunk_bounds
        share, fixed = self.backend.threads_args()
        last = min(k + max(2, AHEAD_PER_WORKER * sum(share.values())), len(bounds) - 1) - 1
        while self.next <= last:
            j = self.next
            self.futures[j] = self.backend.client.submit(
                chunk_task, self.key, bounds[j], bounds[j + 1], share, fixed,
                key=f"{CHUNK_KEY}-{self.key[:12]}-{self.run}-{j}")
            self.next += 1

    def rows(self, k: int, on_rounds=None) -> ChunkRows:
        """Chunk ``k``'s rows (rounds rows to ``on_rounds`` first, block by block)."""
        if self.next is None:
            self.next = k
        self._top_up(k)
        fut = self.futures.pop(k)
        games, blocks = _collect(fut.result, f"chunk {k + 1} of {len(self.plan.chunk_bounds) - 1}")
        del fut
        self._top_up(k + 1)  # keep the workers busy while this chunk is written
        plan, (d0, d1) = self.plan, self.plan.chunk_bounds[k:k + 2]
        for (b0, b1), block in zip(deal_blocks(plan, d0, d1), blocks or ()):
            if on_rounds is not None:
                on_rounds({**layout_columns(plan, b0, b1, rounds=True)[1], **block})
        games = {**layout_columns(plan, d0, d1)[0], **games}
        return ChunkRows(games, None, d0 * plan.games_per_deal, (d1 - d0) * plan.games_per_deal)

    def close(self) -> None:
        """Cancel the chunks played ahead and not asked for (beyond an until-ci stop)."""
        futs = list(self.futures.values())
        self.futures.clear()
        if futs:
            self.backend.abandoned = True
            try:
                self.backend.client.cancel(futs)
            except Exception:  # noqa: BLE001 - a lost scheduler: nothing left to cancel
                pass
        self.backend.forget(self.key)


def _stop_local_cluster(cluster, at_once: bool) -> None:
    """Stop a local cluster; ``at_once`` kills its worker processes first (they may be in the
    middle of chunks nobody wants, after Ctrl-C or an until-ci stop, which a graceful close
    would wait for). The connections it cuts are not news: nothing is logged."""
    import signal

    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        if at_once:
            for nanny in list(cluster.workers.values()):
                nanny.close_gracefully(reason="the quacks run is over")  # no restart
                if nanny.pid:
                    try:
                        os.kill(nanny.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
                    except OSError:  # gone already
                        pass
        cluster.close()
    finally:
        log.setLevel(level)


class DaskBackend:
    """Games as Dask tasks: on the cluster at ``scheduler``, or on ``workers`` local worker
    processes started for the run (one per core by default)."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 threads: int | None = None, note=None):
        self.scheduler = scheduler
        self.workers = workers
        self.threads = threads
        self.note = note  # one-line remarks for stderr (e.g. that workers compile first)
        self.abandoned = False  # chunks were cancelled, some perhaps still playing
        self._checked = False
        self.client: Client | None = None
        self.cluster = None
        self._plugins: dict[str, str] = {}  # payload hash -> plugin name
        self._info: tuple[float, dict] | None = None

    # -- the cluster -------------------------------------------------------------------------

    def __enter__(self) -> DaskBackend:
        if self.scheduler is not None:
            why = _no_answer(self.scheduler)
            if why is not None:
                raise BackendError(f"--scheduler {self.scheduler}: no Dask scheduler answers there "
                                   f"({why}); start one with: dask scheduler")
            try:
                self.client = Client(self.scheduler, timeout=CONNECT_TIMEOUT,
                                     set_as_default=False)
            except (OSError, TimeoutError, ValueError) as e:
                raise BackendError(f"--scheduler {self.scheduler}: cannot connect ({e}); start "
                                   "one with: dask scheduler") from None
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                self.close()
                raise BackendError(f"--scheduler {self.scheduler}: no worker joined within "
                                   f"{WORKER_WAIT} s; start some with: dask worker "
                                   f"{self.scheduler}") from None
            return self
        from distributed import LocalCluster

        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        k = self.workers or cores or 1
        share = self.threads or max(1, (cores or 1) // k)
        with dask.config.set(QUIET_WORKERS):  # inherited by the worker processes
            self.cluster = LocalCluster(
                n_workers=k, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=":0", silence_logs=logging.ERROR, preload=[dask_worker.__name__],
                env={"NUMBA_NUM_THREADS": str(share)})
        self.client = Client(self.cluster, set_as_default=False)
        return self

    def __exit__(self, et, ev, tb) -> bool:
        if et is not None:  # an error or Ctrl-C: tasks may still be running
            self.abandoned = True
        self.close()
        return False

    def close(self) -> None:
        """Unregister this backend's payloads, disconnect, and stop a cluster it started."""
        if self.client is not None:
            for key in list(self._plugins):
                self.forget(key)
            self.client.close()
            self.client = None
        if self.cluster is not None:
            _stop_local_cluster(self.cluster, at_once=self.abandoned)
            self.cluster = None

    def _workers(self) -> dict:
        """The scheduler's workers (address -> info), asked at most once a second."""
        now = time.monotonic()
        if self._info is None or now - self._info[0] > INFO_SECONDS:
            self._info = (now, self.client.scheduler_info(n_workers=-1)["workers"])
        return self._info[1]

    def threads_args(self) -> tuple[dict[str, int], int | None]:
        """(worker processes per host, fixed thread count): what a task needs to pick its
        Numba threads."""
        share: dict[str, int] = {}
        for w in self._workers().values():
            share[w["host"]] = share.get(w["host"], 0) + 1
        return share, self.threads

    def describe(self) -> str:
        """Where the games run, for a note on stderr."""
        ws = self._workers()
        hosts = {w["host"] for w in ws.values()}
        where = (f"a local cluster ({self.client.scheduler.address})" if self.cluster is not None
                 else self.scheduler)
        return (f"playing on Dask: {len(ws)} worker process{'es' if len(ws) != 1 else ''} on "
                f"{len(hosts)} machine{'s' if len(hosts) != 1 else ''}, {where}")

    # -- payloads ------------------------------------------------------------------------------

    def send(self, ruleset, plan=None) -> str:
        """Register the payload of a run (a plan, or a ruleset for tune) with every worker
        once; return its hash. Workers present now load it (and the kernels) before the
        clock starts."""
        from sim.numba_cache import kernel_source_hash
        from sim.release import __version__

        # the plan and ruleset travel pickled: a worker unpickles them after loading the rules
        # files, whose cards and books they may name
        payload = {"version": (__version__, kernel_source_hash()), "files": _loaded_files(),
                   "rules_files": _loaded_rules_files(),
                   "settings": pickle.dumps({"ruleset": ruleset, "plan": plan}, protocol=5)}
        key = hashlib.sha256(pickle.dumps(payload, protocol=5)).hexdigest()[:32]
        if key in self._plugins:
            return key
        plugin = PayloadPlugin(key, payload)
        self.client.register_plugin(plugin, name=plugin.name)
        self._plugins[key] = plugin.name
        if not self._checked:  # once per backend: say so when workers must compile first
            self._checked = True
            cold = [a for a, ok in self.client.run(kernels_cached).items() if not ok]
            if cold and self.note is not None:
                self.note(f"{len(cold)} Dask worker(s) compiling the simulation kernels (once per "
                          "machine and NUMBA_CACHE_DIR; several minutes)")
        share, fixed = self.threads_args()
        futs = [self.client.submit(warm_task, key, share, fixed, workers=[a], pure=False,
                                   allow_other_workers=False) for a in self._workers()]
        _collect(lambda: self.client.gather(futs), "setting up the workers")
        return key

    def forget(self, key: str) -> None:
        """Unregister a payload no run needs any more (workers drop what they resolved)."""
        name = self._plugins.pop(key, None)
        if name is not None and self.client is not None:
            try:
                self.client.unregister_worker_plugin(name)
            except Exception:  # noqa: BLE001 - a lost scheduler: nothing to unregister
                pass

    # -- the services ------------------------------------------------------------------------

    def chunks(self, plan) -> DaskChunks:
        """A chunk source for one run of ``plan`` (its payload sent to the workers now)."""
        return DaskChunks(self, plan)

    def map_batches(self, ruleset, specs, seed: int, pieces, reduce, detail: bool = True):
        """See ``LocalBackend.map_batches``: every piece a task, played ahead on the cluster,
        results handed back in order (the same values as local, to the last digit)."""
        key = self.send(ruleset)
        share, fixed = self.threads_args()
        futs = [self.client.submit(batch_task, key, list(specs), seed, np.asarray(g),
                                   np.asarray(r), reduce, detail, share, fixed, pure=False)
                for g, r in pieces]
        for f in futs:
            yield _collect(f.result, "a batch of games")

    def deal_shares(self, ruleset, specs, seed: int, deals: np.ndarray,
                    chunks: int = 64) -> np.ndarray:
        """See :func:`sim.study.tournament.backend.lineup_deal_shares`: the deals (a contiguous
        range) split into tasks of at least TUNE_PIECE_GAMES games, results joined in deal
        order."""
        deals = np.asarray(deals, dtype=np.int64)
        if len(deals) == 0:
            return np.zeros(0)
        d0 = int(deals[0])
        if not np.array_equal(deals, np.arange(d0, d0 + len(deals))):
            raise BackendError("a tune evaluation on Dask takes a contiguous range of deals")
        key = self.send(ruleset)
        per = max(1, TUNE_PIECE_GAMES // len(specs))
        pieces = max(1, min(len(self._workers()), len(deals) // per))
        cuts = np.linspace(d0, d0 + len(deals), pieces + 1).round().astype(int)
        share, fixed = self.threads_args()
        futs = [self.client.submit(shares_task, key, list(specs), seed, int(a), int(b), chunks,
                                   share, fixed, pure=True) for a, b in zip(cuts[:-1], cuts[1:])]
        return np.concatenate(_collect(lambda: self.client.gather(futs), "a tune evaluation"))
