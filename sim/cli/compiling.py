"""What the first run of a command says while Numba compiles its kernels: the notice (which
kernels, how long they take) and, on a terminal, a live line naming the function being compiled
and how many are done of how many, with the time so far against the estimate.

The estimates are declared once, in :data:`STEPS`: each cached entry point's compile from an
empty cache, measured alone on the reference machine (``NUMBA_CACHE_DIR`` pointed at an empty
folder, one command at a time). Progress is read from Numba's compile events
(``numba.core.event``, kind ``numba:compile``): one per function compiled, none for a function
loaded from the cache.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass

OPTIMAL_ENTRY = "sim/kernel/decisions/optimal.optimal_stop"  # the optimal stopper's cache entry
PREFIX = "compiling the simulation kernels"  # every line of the notice starts so (or as below)
OPTIMAL_PREFIX = "compiling the optimal stopper"
# where the figures below come from, as the notice says it
MEASURED = "CPU time measured on 2 cores, 2026-12-08; longer while other work shares the cores"


@dataclass(frozen=True)
class Step:
    """One cached entry point: what it is called in the notice, and its compile from an empty
    cache on its own (:data:`MEASURED`): CPU seconds and how many functions Numba compiles."""

    label: str
    seconds: float
    functions: int


STEPS: dict[str, Step] = {
    "sim/kernel/potions.potion_histograms": Step("the potion kernel", 55, 105),
    "sim/kernel/potions.potion_forced": Step("the forced-draws kernel", 44, 104),
    "sim/kernel/game.play_games": Step("the game kernel", 119, 317),
    "sim/kernel/game.play_game": Step("the replay kernel", 93, 224),
    "sim/kernel/round.play_rounds": Step("the scripted-round kernel", 77, 170),
    OPTIMAL_ENTRY: Step("the optimal stopper", 64, 153),
}
# Every entry at once, as ``quacks warmup`` compiles them (its order; with the master strategy's
# decisions and the report statistics): the entries share most of their functions (the game
# kernel compiles the scripted round, the potion kernel the brewing), so far less than the sum.
EVERY_STEP = Step("every kernel", 141, 340)


def step_of(entry: str) -> Step:
    """The declared step of ``entry`` (``path/module.function``); an entry without figures gets
    its function's name and no estimate."""
    return STEPS.get(entry) or Step(entry.rsplit(".", 1)[-1], 0, 0)


def estimate(entries: list[str]) -> tuple[Step, bool]:
    """The figures of compiling ``entries`` together and whether they were measured so
    (:data:`EVERY_STEP`); otherwise the sum of the entries' own figures, an upper bound since
    entries share functions."""
    if len(entries) > 1 and set(entries) >= set(STEPS):
        return EVERY_STEP, True
    steps = [step_of(e) for e in entries]
    return (Step("", sum(s.seconds for s in steps), sum(s.functions for s in steps)),
            len(steps) == 1)


def about(seconds: float) -> str:
    """A rough duration: ``about 40 s``, ``about 1.5 min``."""
    if seconds < 75:
        return f"about {max(10, round(seconds / 10) * 10)} s"
    return f"about {round(seconds / 30) / 2:g} min"


def clock(seconds: float) -> str:
    """``m:ss``."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def notice_lines(entries: list[str]) -> list[str]:
    """The notice for the uncached ``entries`` (in the order they compile): one line naming
    each step, with the estimate of them all (:func:`estimate`)."""
    steps = [step_of(e) for e in entries]
    head = PREFIX if any(e != OPTIMAL_ENTRY for e in entries) else OPTIMAL_PREFIX
    total, measured = estimate(entries)
    when = f"{'' if measured else 'at most '}{about(total.seconds)}"
    if len(steps) == 1:
        what = f": {steps[0].label}," if head == PREFIX else ","
        return [f"{head} once (cached after that){what} {when} from an empty cache ({MEASURED})"]
    parts = ", ".join(f"{k}/{len(steps)} {s.label}" for k, s in enumerate(steps, 1))
    return [f"{head} once (cached after that), {len(steps)} steps, {when} in all from an empty "
            f"cache ({MEASURED}): {parts}"]


def _dotted(entry: str) -> str:
    """``sim.kernel.game.play_games`` for the entry ``sim/kernel/game.play_games``."""
    return entry.replace("/", ".")


class CompileProgress:
    """Follows Numba's compile events for the uncached ``entries``: while a compilation runs, a
    live line on stderr (a terminal only) names the function being compiled, the functions done
    of the declared number and the time so far against the estimate; when the last entry is
    compiled, one line says how long it took. ``stop()`` takes the live line down."""

    def __init__(self, entries: list[str], *, live: bool, say=None):
        self.waiting = {_dotted(e) for e in entries}
        total = estimate(entries)[0]
        self.expected, self.estimate = total.functions, total.seconds
        self.head = PREFIX if any(e != OPTIMAL_ENTRY for e in entries) else OPTIMAL_PREFIX
        self.live_wanted = live and sys.stderr.isatty()
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.stack: list[str] = []
        self.done = 0
        self.t0: float | None = None
        self.lock = threading.RLock()
        self.live = None
        self.spinner = None
        self.unregister = lambda: None  # set by follow()
        self.finished = False

    # --- the numba:compile events (numba.core.event.Listener's two methods) ---
    def on_start(self, ev) -> None:
        f = ev.data["dispatcher"].py_func
        with self.lock:
            if self.finished:
                return
            if self.t0 is None:
                self.t0 = time.perf_counter()
            self.stack.append(f"{f.__module__}.{f.__qualname__}")
            if len(self.stack) == 1:
                self._show()

    def on_end(self, ev) -> None:
        with self.lock:
            if self.finished or not self.stack:
                return
            self.waiting.discard(self.stack.pop())
            self.done += 1
            if not self.stack:
                self.stop()
                if not self.waiting:  # later compilations (a user's strategy file) pass quietly
                    self.finished = True
                    took = time.perf_counter() - self.t0
                    self.say(f"{self.head}: done, {self.done} functions in {clock(took)}")

    # --- the live line ---
    def status(self) -> str:
        """The live line's text."""
        elapsed = time.perf_counter() - (self.t0 or time.perf_counter())
        of = f" of ~{self.expected}" if self.expected > self.done else ""
        est = f" of {about(self.estimate)}" if self.estimate > elapsed else ""
        now = self.stack[-1] if self.stack else ""
        return f"compiling: {self.done}{of} functions, {clock(elapsed)}{est}; now {now}"

    def _show(self) -> None:
        if not self.live_wanted or self.live is not None:
            return
        from rich.console import Console
        from rich.live import Live
        from rich.spinner import Spinner

        self.spinner = Spinner("dots", text=self.status())

        def render():
            self.spinner.update(text=self.status())
            return self.spinner

        self.live = Live(console=Console(stderr=True), transient=True, refresh_per_second=4,
                         get_renderable=render)
        self.live.start()

    def stop(self) -> None:
        """Take the live line down (it comes back with the next compilation)."""
        with self.lock:
            if self.live is not None:
                live, self.live = self.live, None
                live.stop()

    def close(self) -> None:
        """Stop following Numba's compile events (see :func:`follow`)."""
        self.stop()
        self.unregister()


def follow(entries: list[str], *, live: bool, say=None) -> CompileProgress:
    """A :class:`CompileProgress` for ``entries``, registered with Numba's compile events."""
    from numba.core import event

    progress = CompileProgress(entries, live=live, say=say)

    class Listener(event.Listener):  # Numba's base class, so Numba is imported only here
        on_start = staticmethod(progress.on_start)
        on_end = staticmethod(progress.on_end)

    listener = Listener()
    event.register("numba:compile", listener)
    progress.unregister = lambda: event.unregister("numba:compile", listener)
    return progress
