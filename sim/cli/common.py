"""Helpers every CLI command shares: the one-line error exit and the thread count, the command
group that keeps every usage error and Ctrl-C to one line, the integer-option ranges, progress
bars and the compile notice."""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import typer
from typer.core import TyperGroup

from sim.api.limits import int_range
from sim.cli.compiling import OPTIMAL_ENTRY
from sim.cli.help_text import tidy_command
from sim.cli.options import (  # noqa: F401 - re-exported: declared in sim.cli.options,
    # named here too for the commands that import them from this module
    Backend,
    BackendOpt,
    FieldOpt,
    JsonOpt,
    QuietOpt,
    RulesFileOpt,
    RulesOpt,
    SchedulerOpt,
    SetOpt,
    StrategyFileOpt,
    StudyForceOpt,
    StudyOutOpt,
    ThreadsOpt,
    WorkersOpt,
    scheduler_address,
    usage_error,
    writable_out,
)

try:  # Typer >= 0.26 carries its own copy of click
    from typer._click import exceptions as _click_exc
except ImportError:  # pragma: no cover - older Typer on the real click
    from click import exceptions as _click_exc


def fail(msg: str) -> None:
    """One clear line on stderr and exit status 2."""
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def set_threads(n: int | None) -> None:
    """Set Numba's thread count (results never depend on it), or fail with exit 2."""
    if n is not None:
        import numba

        if not 1 <= n <= numba.config.NUMBA_NUM_THREADS:
            fail(f"--threads {n}: expected 1 to {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(n)


# ---------------------------------------------------------------------------------------------
# One rule for every integer option (the ranges: sim.api.limits), one line for every usage error,
# one line for Ctrl-C


def _is_int_option(p) -> bool:
    desc = getattr(p, "type_descriptor", None)
    if desc is not None:
        return desc.annotation is int
    return getattr(getattr(p, "type", None), "name", "") == "integer"  # pragma: no cover


def guard_int_option(p) -> None:
    """Check the integer parameter ``p`` against :func:`int_range` (or its own ``min``/``max``)
    as it is parsed: a value outside, or not a whole number, is one usage error
    ``--seed 99999999999999999999: expected 0 to 9223372036854775807``."""
    if getattr(p, "_quacks_guarded", False) or not _is_int_option(p) or p.multiple or p.nargs != 1:
        return
    name = max(p.opts, key=len) if p.opts else p.name
    process = p.process_value
    found: list[tuple[int, int, str]] = []

    def bounds() -> tuple[int, int, str]:
        # looked up when a value comes, not when --help lists the option (--threads asks Numba)
        if not found:
            lo, hi, why = int_range((p.name or "").rstrip("_"))
            lo = p.min if getattr(p, "min", None) is not None else lo
            hi = p.max if getattr(p, "max", None) is not None else hi
            found.append((lo, hi, why))
        return found[0]

    def out_of_range(value, v) -> _click_exc.UsageError:
        lo, hi, why = bounds()
        note = f" ({why})" if why and v > hi else ""
        return _click_exc.UsageError(f"{name} {value}: expected {lo} to {hi}{note}")

    def within(v: int) -> bool:
        lo, hi, _ = bounds()
        return lo <= v <= hi

    def process_value(ctx, value):
        if isinstance(value, str):
            try:
                v = int(value.strip(), 10)
            except ValueError:
                v = None
            if v is not None and not within(v):
                raise out_of_range(value, v)
        try:
            v = process(ctx, value)
        except _click_exc.BadParameter:
            lo, hi, _ = bounds()
            raise _click_exc.UsageError(
                f"{name} {value}: expected a whole number from {lo} to {hi}") from None
        if isinstance(v, int) and not within(v):
            raise out_of_range(value, v)
        return v

    p.process_value = process_value
    p._quacks_guarded = True


# The parameters that name a file or folder besides those typed Path: text ones (a --rules also
# takes a built-in name, a --strategy-file repeats), with what to give instead of nothing.
PATH_PARAMS = {"out": "a path", "out_dir": "a folder", "csv": "a file name", "png": "a file name",
               "rules": "a built-in ruleset name or a TOML file", "targets": "a TOML file",
               "strategy_file": "a Python file", "rules_file": "a Python file", "file": "a file",
               "report": "a report folder", "directory": "a folder"}


def _param_label(p) -> str:
    """``--out`` for an option, ``FILE`` for an argument."""
    if getattr(p, "param_type_name", "") == "option" and p.opts:
        return max(p.opts, key=len)
    return (p.name or "?").upper()


def guard_path_param(p) -> None:
    """Refuse an empty value for a parameter naming a file or folder (typed Path, or named in
    :data:`PATH_PARAMS`) as it is parsed: ``--out ''`` would otherwise be the current folder.
    One usage error: ``--out '': empty; give a path``."""
    desc = getattr(p, "type_descriptor", None)
    is_path = getattr(desc, "annotation", None) is Path or p.name in PATH_PARAMS
    if getattr(p, "_quacks_path_guarded", False) or not is_path:
        return
    process = p.process_value

    def process_value(ctx, value):
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            what = PATH_PARAMS.get(p.name, "a path")
            raise _click_exc.UsageError(f"{_param_label(p)} '': empty; give {what}")
        return process(ctx, value)

    p.process_value = process_value
    p._quacks_path_guarded = True


def interrupted() -> None:
    """The one line of an interrupted command and exit status 130."""
    typer.echo("interrupted", err=True)
    raise typer.Exit(130)


def _one_line(msg: str) -> str:
    return " ".join(str(msg).split())


class QuacksGroup(TyperGroup):
    """The ``quacks`` command group. Every usage error (a bad or unknown option, a bad type, a
    value outside its range) is one line ``error: ...`` on stderr with exit status 2, Ctrl-C is
    one line ``interrupted`` with 130, and every integer option of every command is guarded by
    :func:`guard_int_option` and every path parameter by :func:`guard_path_param`. Typer's
    ``CliRunner`` goes through this too."""

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)
        for p in getattr(cmd, "params", ()):
            guard_int_option(p)
            guard_path_param(p)
        tidy_command(cmd)
        return cmd

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted()

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        tidy_command(self)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except _click_exc.NoArgsIsHelpError:
            rv = 2  # the help is printed already
        except _click_exc.UsageError as e:
            typer.echo(f"error: {_one_line(e.format_message())}", err=True)
            rv = 2
        except typer.Abort:  # end of input at a prompt
            typer.echo("error: aborted", err=True)
            rv = 1
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            rv = 130
        sys.exit(rv if isinstance(rv, int) else 0)


# ---------------------------------------------------------------------------------------------
# Long work: a progress bar that appears after a couple of seconds, an immediate Ctrl-C exit

_CLEANUPS: list = []  # undo what is on the terminal (a live progress bar) before a hard exit


@contextmanager
def exit_on_interrupt():
    """While the block runs, Ctrl-C stops the process at once: the progress bar is taken down,
    ``interrupted`` printed and the exit status is 130 (``os._exit``: nothing else is unwound,
    so a deep pure-Python enumeration or a big cache does not delay the exit). For work that
    keeps nothing on disk: the potion commands. Compiled code holds the interpreter, so the
    line comes when the running compiled call returns (``potion.sample`` keeps those short)."""
    def handler(signum, frame):
        for undo in list(_CLEANUPS):
            try:
                undo()
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass
        sys.stdout.flush()
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
        os._exit(130)

    with signal_handler(signal.SIGINT, handler):
        yield


@contextmanager
def signal_handler(signum: int, handler):
    """While the block runs, ``handler(signum, frame)`` answers the signal, then the one before
    is back; outside the main thread (where Python cannot set one) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, old)


@contextmanager
def work_progress(label: str, *, quiet: bool = False, after: float = 2.0):
    """``update(done, total)`` for long work: a rich progress bar on stderr (done of total, rate,
    time left; a spinner with the time so far while no total is known) that appears only once
    the work has taken ``after`` seconds, and only on a terminal, so stdout stays clean and
    short work shows nothing. The bar is gone when the block ends."""
    if quiet or not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn
    from rich.text import Text

    def short(x: float) -> str:
        for size, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e4, "k")):
            if x >= size:
                return f"{x / size:.1f}{suffix}"
        return f"{x:,.0f}"

    def clock(sec: float | None) -> str:
        if sec is None:
            return "-:--:--"
        sec = int(sec)
        if sec >= 3600:
            return f"{sec // 3600}:{sec // 60 % 60:02d}:{sec % 60:02d}"
        return f"{sec // 60}:{sec % 60:02d}"

    class Figures(ProgressColumn):  # done of total, rate, elapsed and left on one short line
        def render(self, task):
            if task.total is None:
                return Text(f"{clock(task.elapsed)} so far")
            rate = f", {short(task.speed)}/s" if task.speed else ""
            return Text(f"{task.percentage:4.1f}% of {short(task.total)}{rate}, "
                        f"{clock(task.elapsed)} so far, {clock(task.time_remaining)} left")

    prog = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=12),
                    Figures(), console=Console(stderr=True), transient=True)
    task = prog.add_task(label, total=None)
    lock = threading.RLock()  # stop() may run again from the Ctrl-C handler
    state = {"on": False, "done": False}

    def start():
        with lock:
            if not state["done"]:
                prog.start()
                state["on"] = True

    def stop():
        with lock:
            state["done"] = True
            if state["on"]:
                prog.stop()
                state["on"] = False

    def update(done: int, total: int | None) -> None:
        prog.update(task, completed=done, total=total)

    timer = threading.Timer(after, start)
    timer.daemon = True
    _CLEANUPS.append(stop)
    timer.start()
    try:
        yield update
    finally:
        timer.cancel()
        stop()
        _CLEANUPS.remove(stop)


_NOTICE_SHOWN = False


def compile_notice(*entries: str, quiet: bool = False, progress: bool = True) -> None:
    """When a kernel this command needs (``path/module.function``) is not in the on-disk cache
    yet (or the optimal stopper, when a strategy uses it, is not), say so on stderr before the
    compile, so the minutes it takes are not mistaken for a hang: one line naming each step with
    its estimate (``sim.cli.compiling``); with ``progress`` (not under --json) also a live line
    on a terminal naming the function being compiled, and a line when it is done."""
    global _NOTICE_SHOWN
    from sim.cli import compiling
    from sim.numba_cache import is_cached
    from strategies import builtin, plugin

    if quiet or _NOTICE_SHOWN:
        return
    todo = [e for e in dict.fromkeys(entries) if not is_cached(e)]
    if (builtin.OPTIMAL_REQUESTED and getattr(plugin, "_OPTIMAL", None) is None
            and OPTIMAL_ENTRY not in todo and not is_cached(OPTIMAL_ENTRY)):
        todo.append(OPTIMAL_ENTRY)
    if not todo:
        return
    _NOTICE_SHOWN = True
    for line in compiling.notice_lines(todo):
        typer.echo(line, err=True)
    if progress:
        _CLEANUPS.append(compiling.follow(todo, live=True).stop)  # down before a hard exit


def warm_game_kernel(ruleset, lineup, *, quiet: bool = False, progress: bool = True) -> None:
    """Compile (or load) the game kernel, and anything this lineup needs (the optimal stopper),
    on one game, so no games/s figure counts the compile (``quiet``, ``progress``: see
    :func:`compile_notice`)."""
    import numpy as np

    from sim.api.game import play_batch

    compile_notice("sim/kernel/game.play_games", quiet=quiet, progress=progress)
    idx = np.zeros(1, dtype=np.int64)
    play_batch(ruleset, list(lineup), games=idx, rotations=idx, seed=0)


@contextmanager
def open_backend(backend: Backend, scheduler: str | None, workers: int | None,
                 threads: int | None, *, quiet: bool = False):
    """The chosen backend, entered for the block (a cluster it starts is stopped after it); bad
    options, the missing ``dist`` extra or an unreachable scheduler fail with one line (exit 2).
    With Dask, ``threads`` fixes each worker's Numba threads and a note says where games run."""
    from sim.study.tournament.backend import make_backend
    from sim.study.tournament.local import BackendError

    try:
        be = make_backend(backend.value, scheduler=scheduler, workers=workers, threads=threads,
                          note=None if quiet else (lambda m: typer.echo(f"note: {m}", err=True)))
        be.__enter__()
    except BackendError as e:
        fail(str(e))
    try:
        where = be.describe()
        if where and not quiet:
            typer.echo(f"note: {where}", err=True)
        yield be
    except BaseException:
        be.__exit__(*sys.exc_info())
        raise
    be.__exit__(None, None, None)
