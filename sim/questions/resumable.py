"""What the resumable questions (``sim.tournament``, ``sim.sweep``) share: the keywords they take
beside their own (:class:`ResumableSettings`, :data:`resumable_options`), the first checks of
their arguments (:func:`resume_checks`), their settings over those an interrupted run saved
(:func:`resumed`), their ``out`` checked before the kernels compile (:func:`check_out_free`),
and their call played into its report folder (:func:`play_resumable`). Each raises a
``ValueError`` with the command's one line on a bad argument."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from sim.questions.ask_rules import as_list, load_rules_files
from sim.questions.report import Report, report_folder
from sim.questions.running import (
    RunOptions,
    check_ints,
    check_out_text,
    keyword_group,
    open_run_backend,
    set_threads,
)
from sim.study.reports.saved import nothing_to_resume, read_saved_settings


class ResumableSettings(NamedTuple):
    """The keywords the resumable questions (``sim.tournament``, ``sim.sweep``) take beside their
    own, in their order: the seats, games and seed, the report folder, the ruleset and its
    overrides, the stop by intervals (``until_ci``, ``sequential``), what is recorded per game
    (``detail``), ``resume`` or ``force`` and the plots. None: the command's default, or with
    ``resume`` the interrupted run's setting. These fields are the declaration."""

    players: int | None = None
    games: int | None = None
    seed: int | None = None
    out: str | Path | None = None
    rules: str | None = None
    set: Sequence[str] | str | None = None
    until_ci: float | None = None
    sequential: bool = False
    detail: str | None = None
    resume: bool = False
    force: bool = False
    plots: bool = True


resumable_options = keyword_group(ResumableSettings, "given")
"""Decorate ``sim.tournament`` or ``sim.sweep`` (``fn(..., given: ResumableSettings)``): the
:class:`ResumableSettings` after its own keywords, gathered in ``given``."""


def play_resumable(kind: str, error: type[ValueError], given: ResumableSettings, run: RunOptions,
                   *, settings: Callable, warm: Callable, play: Callable, figures: Callable,
                   what: str = "run",
                   interrupted: Callable[[Path], KeyboardInterrupt] | None = None) -> Report:
    """A resumable question's call: :func:`resume_checks` of ``given`` and ``run``, then
    ``settings(saved)`` checks the rest and resolves what to play (with ``resume``, from what
    the interrupted ``what`` saved); a ValueError or OSError of either is raised as ``error``
    with its line (the original as its ``__cause__``). Then, in the report folder (``out``, or
    a temporary one the Report keeps), ``warm(settings)`` compiles (or loads) the kernel outside
    the clock when the games play in this process (Dask's workers compile their own), and
    ``play(settings, target, backend)`` plays them on the run's backend and writes the report
    (Ctrl-C there raised as ``interrupted(target)`` when given); its :class:`Report`, figures
    from ``figures(result)``."""
    try:
        saved = resume_checks(error, out=given.out, threads=run["threads"], resume=given.resume,
                              force=given.force, what=what, players=given.players,
                              games=given.games, seed=given.seed, workers=run["workers"])
        s = settings(saved)
    except error:
        raise
    except (ValueError, OSError) as e:
        raise error(str(e)) from e
    with report_folder(kind, given.out) as (target, tmp):
        if getattr(run["backend"], "value", run["backend"]) == "local":
            warm(s)
        try:
            with open_run_backend(run) as be:
                res = play(s, target, be)
        except KeyboardInterrupt as e:
            if interrupted is None:
                raise
            raise interrupted(target) from e
    return Report(kind, target, res, figures=lambda: figures(res), temporary=tmp,
                  written=res.files)


def resumed(own: dict, given: ResumableSettings, run: RunOptions, saved: dict | None) -> dict:
    """A resumable run's settings: its ``own`` and the ``given`` ones (None where not given, the
    overrides as a tuple, the detail by name, the strategy files as absolute paths) over those
    the interrupted run ``saved`` (:func:`merge_settings`)."""
    overrides = as_list(given.set)
    return merge_settings({
        **own, "players": given.players, "games": given.games, "seed": given.seed,
        "rules": given.rules, "overrides": tuple(overrides) if overrides else None,
        "until_ci": given.until_ci, "sequential": given.sequential or None,
        "detail": getattr(given.detail, "value", given.detail),
        "strategy_files": strategy_paths(run["strategy_file"])}, saved)


def resume_checks(error: type[ValueError], *, out: str | Path | None, threads: int | None,
                  resume: bool, force: bool, what: str = "run", **ints: int | None) -> dict | None:
    """The first checks of a resumable run's arguments, in the commands' order: the integers
    (``ints``), an empty ``out``, the thread count (then set), ``resume`` with ``force``, without
    ``out`` or with nothing in it to resume; each an ``error`` with the command's line. Returns
    the settings the interrupted ``what`` saved in ``out`` when resuming, else None."""
    check_ints(error, **ints)
    check_out_text(out, error)
    set_threads(threads, error)
    if resume and force:
        raise error("--resume and --force: give one (--resume continues, --force starts over)")
    if resume and out is None:
        raise error(f"--resume needs --out DIR, the directory of the interrupted {what}")
    if resume and nothing_to_resume(out):
        raise error(f"nothing to resume in {out}")
    if not resume:
        return None
    saved = read_saved_settings(out)
    load_saved_rules_files(error, saved)
    return saved


def load_saved_rules_files(error: type[ValueError], saved: dict | None) -> None:
    """Load the rules files the interrupted run loaded (its settings' ``rules_files``) before
    its ruleset, which may name their cards and books, is read again; a file gone is an
    ``error`` naming it (a file whose code changed is refused later by the rules' hash)."""
    for f in (saved or {}).get("rules_files") or []:
        if not Path(f).is_file():
            raise error(f"--resume: the interrupted run loaded the rules file {f}; it is gone, "
                        "restore it to resume")
        load_rules_files(f)


def merge_settings(given: dict, saved: dict | None) -> dict:
    """Arguments given over those saved by the interrupted run (None: not given)."""
    out = dict(saved or {})
    out.update({k: v for k, v in given.items() if v is not None})
    return out


def strategy_paths(files: Sequence[str] | str | None) -> tuple[str, ...] | None:
    """Strategy files as absolute paths (a resumed run finds them from anywhere)."""
    paths = as_list(files)
    return tuple(str(Path(f).resolve()) for f in paths) if paths else None


def check_out_free(out: str | Path, *, resume: bool, force: bool, what: str = "run") -> None:
    """A tournament's ("run") or a sweep's ``out`` checked before the kernels compile: free (or
    ``force``, or a run to ``resume``), and writable (not under a file, not read-only)."""
    from sim.study.common.out_probe import probe_writable
    from sim.study.reports.files import STATE_FILE, SWEEP_STATE
    from sim.study.reports.files import check_out_free as check

    check(out, resume=resume, force=force, what=what,
          state_file=SWEEP_STATE if what == "sweep" else STATE_FILE)
    probe_writable(out)
