"""What the game-playing questions (``sim.play``, ``sim.tournament``, ``sim.sweep``) share: the
thread count, the game kernel compiled (or loaded) outside the clock, the backend that plays a
run's chunks, the checks of ``out`` (a resumable run's own are :mod:`sim.questions.resumable`);
and the keywords several questions (or commands) take, declared once: :class:`RunOptions`
(:func:`run_options`) and any named tuple of keywords (:func:`keyword_group`).

Each raises a ``ValueError`` with the command's one line on a bad argument; the commands print
that line as ``error: ...`` with exit status 2.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypedDict

GAME_ENTRY = "sim/kernel/game.play_games"  # the game kernel's cache entry (compile notices)


class RunOptions(TypedDict, total=False):
    """The keywords every study question takes last, for how and where its games run: the
    thread count, strategy files to load, rules files to load first (``rules_file``, the CLI's
    ``--rules-file``), the backend (``local`` or ``dask``, its
    ``scheduler`` and ``workers``), the hooks ``progress(done, total)``, ``on_note(line)`` and
    ``on_compile(entry)``, and ``argv`` (the command line, for the report's provenance)."""

    threads: int | None
    strategy_file: Sequence[str] | str | None
    rules_file: Sequence[str] | str | None
    backend: str
    scheduler: str | None
    workers: int | None
    progress: Callable[[int, int], None] | None
    on_note: Callable[[str], None] | None
    on_compile: Callable[[str], None] | None
    argv: Sequence[str] | None


RUN_DEFAULTS: dict = {name: None for name in RunOptions.__annotations__} | {"backend": "local"}


def run_options(fn: Callable) -> Callable:
    """``fn(..., **run: Unpack[RunOptions])`` called with its own keywords and the
    :class:`RunOptions` (``run`` holds every one, its default when not given), its rules files
    loaded before anything else it does; its signature, as
    ``help()``, ``inspect`` and the docs show it, lists each keyword with its default, and an
    unknown keyword is a TypeError as for any function."""
    own = inspect.signature(fn)
    params = [p for p in own.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=RUN_DEFAULTS[name],
                                 annotation=getattr(kind, "__forward_arg__", kind))
               for name, kind in RunOptions.__annotations__.items()]
    sig = own.replace(parameters=params)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        from sim.questions.ask_rules import load_rules_files

        load_rules_files(bound.arguments["rules_file"])
        return fn(*bound.args, **bound.kwargs)

    call.__signature__ = sig
    return call


def run_settings(run: RunOptions) -> dict:
    """What a study's settings keep of its :class:`RunOptions` (its report records them):
    ``backend`` by name, ``scheduler``, ``workers`` and ``threads``."""
    return {"backend": str(getattr(run["backend"], "value", run["backend"])),
            "scheduler": run["scheduler"], "workers": run["workers"], "threads": run["threads"]}


def keyword_group(group: type, name: str, *, first: bool = False, leave_out: tuple = ()):
    """Decorate ``fn(..., <name>: group, ...)`` with a group of keywords several questions (or
    commands) share, declared once as the fields of the named tuple ``group``: ``fn``'s
    signature, as ``help()``, ``inspect``, the docs and Typer read it, gains those fields as
    keywords with their defaults and annotations (before its own with ``first``, else after
    them; ``**kwargs`` stays last; none of ``leave_out``), and ``fn`` is called with its own
    keywords and the fields given gathered in one ``group`` as keyword ``name``."""
    kw = inspect.Parameter.KEYWORD_ONLY
    fields = [p.replace(kind=kw, annotation=getattr(p.annotation, "__forward_arg__", p.annotation))
              for p in inspect.signature(group).parameters.values() if p.name not in leave_out]

    def decorate(fn: Callable) -> Callable:
        own = inspect.signature(fn)
        rest = [p for p in own.parameters.values() if p.name != name]
        var = [p for p in rest if p.kind is inspect.Parameter.VAR_KEYWORD]
        plain = [p.replace(kind=kw) for p in rest if p not in var]

        @functools.wraps(fn)
        def call(*args, **kwargs):
            given = group(**{p.name: kwargs.pop(p.name) for p in fields if p.name in kwargs})
            return fn(*args, **kwargs, **{name: given})

        call.__signature__ = own.replace(
            parameters=(fields + plain if first else plain + fields) + var)
        return call

    return decorate


def check_ints(error: type[ValueError] = ValueError, **values: int | None) -> None:
    """Each integer argument (None: not given) within the range its command option accepts
    (``sim.api.limits.int_range``), or ``error`` with the command's line for it:
    ``--games 0: expected 1 to 1000000000``."""
    from sim.api.limits import int_range

    for name, v in values.items():
        if v is None:
            continue
        lo, hi, why = int_range(name)
        opt = f"--{name.replace('_', '-')}"
        if isinstance(v, bool) or not isinstance(v, int):
            raise error(f"{opt} {v}: expected a whole number from {lo} to {hi}")
        if not lo <= v <= hi:
            raise error(f"{opt} {v}: expected {lo} to {hi}{f' ({why})' if why and v > hi else ''}")


def set_threads(n: int | None, error: type[ValueError] = ValueError) -> None:
    """Numba's thread count (results never depend on it); ``error`` for a count out of range."""
    check_ints(error, threads=n)
    if n is not None:
        import numba

        numba.set_num_threads(n)


def warm_games(ruleset, lineup, *, seed: int = 0,
               on_compile: Callable[[str], None] | None = None) -> None:
    """Compile (or load) the game kernel, and anything this lineup needs (the optimal stopper),
    on one game, so no games/s figure counts the compile; ``on_compile(entry)`` first."""
    import numpy as np

    from sim.api.game import play_batch

    if on_compile is not None:
        on_compile(GAME_ENTRY)
    idx = np.zeros(1, dtype=np.int64)
    play_batch(ruleset, list(lineup), games=idx, rotations=idx, seed=seed)


@contextmanager
def open_backend(backend: str, scheduler: str | None, workers: int | None, threads: int | None,
                 *, note: Callable[[str], None] | None = None) -> Iterator[object]:
    """The backend named ``local`` or ``dask``, entered for the block (a cluster it starts is
    stopped after it); ``note`` hears where the games run. Bad options, the missing ``dist``
    extra or an unreachable scheduler raise ``BackendError`` (a ValueError) with one line."""
    from sim.study.tournament.backend import make_backend

    name = getattr(backend, "value", backend)
    be = make_backend(str(name), scheduler=scheduler, workers=workers, threads=threads, note=note)
    be.__enter__()
    try:
        where = be.describe()
        if where and note is not None:
            note(where)
        yield be
    except BaseException:
        be.__exit__(*sys.exc_info())
        raise
    be.__exit__(None, None, None)


def open_run_backend(run: RunOptions):
    """:func:`open_backend` with a question's :class:`RunOptions` (backend, scheduler, workers,
    threads; ``on_note`` hears where the games run)."""
    return open_backend(run["backend"], run["scheduler"], run["workers"], run["threads"],
                        note=run["on_note"])


def strategy_specs(strategies: Sequence[str] | str) -> list[str]:
    """The specs of a ``--strategies`` value: a comma-separated string (commas inside
    ``name:k=v,k=v`` stay) or a list of specs, blanks dropped."""
    from strategies.builtin import split_specs

    if isinstance(strategies, str):
        return split_specs(strategies)
    return [str(s).strip() for s in strategies if str(s).strip()]


def check_out_text(out: str | Path | None, error: type[ValueError] = ValueError) -> None:
    """An empty ``out`` (which would be the current folder) refused as the command refuses an
    empty ``--out``."""
    if out is not None and not str(out).strip():
        raise error("--out '': empty; give a path")
