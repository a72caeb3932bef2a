"""``sim.sensitivity``: how each ruleset knob moves the balance figures, on the same deals
(``quacks sensitivity``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_rules import as_list, load_strategy_files
from sim.questions.report import Report
from sim.questions.running import (
    RunOptions,
    check_ints,
    check_out_text,
    open_run_backend,
    run_options,
    run_settings,
    set_threads,
    warm_games,
)
from sim.study.balance.settings import DEFAULT_PLAYERS
from sim.study.design.defaults import DEFAULT_STEPS
from sim.study.design.defaults import SENSITIVITY_GAMES as DEFAULT_GAMES

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+


@run_options
def sensitivity(
    *,
    knob: Sequence[str] | str | None = None,
    steps: int = DEFAULT_STEPS,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    players: int = DEFAULT_PLAYERS,
    field: Sequence[str] | str | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    pair: Sequence[str] | str | None = None,
    metrics: Sequence[str] | str | None = None,
    adjust: str = "holm",
    out: str | Path | None = None,
    force: bool = False,
    **run: Unpack[RunOptions],
) -> Report:
    """How each ruleset knob moves the balance figures (``quacks sensitivity``): every value of
    a knob on the same deals, each figure with its 95% interval clustered by deal, the knobs
    ranked by their largest paired difference and, with ``pair``, a two-knob grid.

    ``knob`` is one ``KEY=LO:HI`` / ``KEY=LO:HI:STEP`` / ``KEY=A|B|...`` or a list of them (the
    command's repeated ``--knob``); ``field`` and ``metrics`` comma-separated or lists (None:
    the command's defaults); ``pair`` two knob keys (a list, or one string ``"A B"``);
    ``adjust`` the adjustment of the flags over their family: ``holm`` (family-wise error),
    ``bh`` (Benjamini-Hochberg, false discovery rate) or ``none``. With
    ``out`` the report folder is written there (``ranking``, ``effects``, ``differences``,
    ``levels`` and ``pair`` as parquet, a response plot per knob, ``report.md``, ``run.json``,
    ``report.html``); without it, to a temporary folder when first needed. The result's
    ``result`` is the study's ``SensitivityResult``. The same seed gives the same numbers as the
    command. Hooks: ``progress(games done, games)`` from 0 as the games go, ``on_note(line)``
    where they run, ``on_compile(entry)`` before the game kernel is first used; ``argv`` is the
    command line as given, for the report's provenance. A bad argument raises a ValueError
    (``SensitivityError``, ``KnobError``, ...) with the command's one line."""
    from sim.stats.multiplicity import check_adjust
    from sim.study.design.sensitivity import SensitivityError, plan_sensitivity, run_sensitivity
    from sim.study.design.sensitivity_report import plot_jobs, write_report

    study_setup(SensitivityError, run, steps=steps, players=players, games=games, seed=seed)
    plan = plan_sensitivity(study_settings("sensitivity", SensitivityError, dict(
        knob=knob, steps=steps, rules=rules, set=set,
        players=players, field=field, games=games, seed=seed,
        pair=pair_keys(pair, SensitivityError) if pair is not None else None, metrics=metrics,
        adjust=check_adjust(adjust)), run))
    return play_study(
        "sensitivity", SensitivityError, plan, run_sensitivity, games=plan.games,
        warm=(plan.base, plan.seated), out=out, force=force, report=(write_report, plot_jobs),
        run=run)


def split_items(text: Sequence[str] | str, option: str,
                error: type[ValueError] = ValueError) -> tuple[str, ...]:
    """The items of a comma-separated option (a strategy spec's own ``key=value,...`` kept
    whole) or of a list; ``error`` naming ``option`` when there are none."""
    from sim.questions.running import strategy_specs

    items = tuple(x.strip() for x in strategy_specs(text) if x.strip())
    if not items:
        raise error(f"{option}: give at least one")
    return items


def pair_keys(pair: Sequence[str] | str, error: type[ValueError] = ValueError) -> tuple[str, str]:
    """``--pair A B`` as two keys: a list of two, or one string ``"A B"`` (or ``"A,B"``)."""
    keys = pair.replace(",", " ").split() if isinstance(pair, str) else [str(k) for k in pair]
    if len(keys) != 2:
        raise error(f"--pair {' '.join(keys)}: give two knob keys")
    return keys[0], keys[1]


def study_settings(kind: str, error: type[ValueError], given: dict, run: RunOptions):
    """The ``SensitivitySettings`` or ``DesignSettings`` of a call: the command's options
    (python names) ``given`` and the backend and threads of ``run`` as the study's fields,
    lists for the repeatable ones and the defaults of ``quacks balance`` for a ``field`` or
    ``metrics`` not given."""
    from sim.study.balance.settings import DEFAULT_FIELD
    from sim.study.design.defaults import DEFAULT_METRICS

    field, metrics = given.pop("field"), given.pop("metrics", None)
    given["field"] = split_items(field, "--field", error) if field is not None else DEFAULT_FIELD
    given["knobs"] = tuple(as_list(given.pop("knob")))
    given["overrides"] = tuple(as_list(given.pop("set")))
    given.update(run_settings(run))
    if kind == "sensitivity":
        from sim.study.design.sensitivity import SensitivitySettings

        given["metrics"] = (split_items(metrics, "--metrics", error) if metrics is not None
                            else DEFAULT_METRICS)
        return SensitivitySettings(**given)
    from sim.study.design.design import DesignSettings

    return DesignSettings(**given)


def checked_out(out: str | Path | None, force: bool, error: type[ValueError]) -> Path | None:
    """A study's ``out`` (None: none) checked before any game: new, empty or ``force``, and
    writable (not under a file, not read-only)."""
    if out is None:
        return None
    check_out_text(out, error)
    from sim.study.common.out_probe import probe_writable
    from sim.study.design.folder import check_out

    check_out(out, force)
    probe_writable(out)
    return Path(out)


def warm_seated(ruleset, seated: Sequence[str], on_compile: Callable[[str], None] | None) -> None:
    """Compile (or load) the game kernel on one game of ``ruleset`` with the seated field, so
    no clock counts it."""
    from strategies.builtin import parse_strategy

    warm_games(ruleset, [parse_strategy(s) for s in seated], on_compile=on_compile)


def study_setup(error: type[ValueError], run: RunOptions, **ints: int | None) -> None:
    """A study's first steps, before its plan: the integer arguments and ``workers`` checked
    (``error`` with the command's line), the thread count set and the strategy files loaded."""
    check_ints(error, **ints, workers=run["workers"])
    set_threads(run["threads"], error)
    load_strategy_files(run["strategy_file"])


def play_study(kind: str, error: type[ValueError], plan, play, *, games: int, warm: tuple,
               out: str | Path | None, force: bool, report: tuple, run: RunOptions) -> Report:
    """A planned study played and reported: ``out`` checked (:func:`checked_out`), the kernel
    warmed on ``warm`` (a ruleset and the seated specs), then ``play(plan, backend, progress)``
    on the backend, ``progress(0, games)`` first, and its result's :func:`study_report` with
    ``report`` (the study's ``write`` and ``jobs``); ``run`` the question's :class:`RunOptions`."""
    target = checked_out(out, force, error)
    warm_seated(*warm, run["on_compile"])
    progress = run["progress"]
    with open_run_backend(run) as be:
        if progress is not None:
            progress(0, games)
        res = play(plan, backend=be, progress=progress)
    write, jobs = report
    return study_report(kind, res, target, force=force, argv=run["argv"], write=write, jobs=jobs)


def study_report(kind: str, res, target: Path | None, *, force: bool, argv, write,
                 jobs) -> Report:
    """The :class:`Report` of a sensitivity or design result: written to ``target`` now, or to
    a temporary folder when first needed (``target`` None); figures from the study's own
    ``jobs(res)``."""
    def figures():
        return jobs(res)

    if target is None:
        return Report(kind, None, res, figures=figures,
                      write=lambda folder: write(res, folder, argv=argv))
    return Report(kind, target, res, figures=figures,
                  written=write(res, target, force=force, argv=argv))
