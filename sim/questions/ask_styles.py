"""``sim.styles``: how many ways to win? A quality-diversity map of a strategy's parameters
against a field, its elites re-tested on fresh deals (``quacks styles``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_exploit import SearchField, play_search, search_options
from sim.questions.ask_sensitivity import split_items, study_setup
from sim.questions.report import Report
from sim.questions.running import RunOptions, run_options
from sim.study.exploit import defaults

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+


@run_options
@search_options
def styles(
    *,
    search: SearchField,
    descriptors: Sequence[str] | str | None = None,
    players: int = defaults.DEFAULT_PLAYERS,
    games: int = defaults.STYLE_GAMES,
    batch: int = defaults.STYLE_BATCH,
    batches: int = defaults.STYLE_BATCHES,
    retest_games: int = defaults.STYLE_RETEST_GAMES,
    margin: float = defaults.STYLE_MARGIN,
    cells: int = defaults.STYLE_CELLS,
    seed: int = 1,
    out: str | Path | None = None,
    force: bool = False,
    **run: Unpack[RunOptions],
) -> Report:
    """Map the styles that win against a field (``quacks styles``): MAP-Elites (pyribs) over
    the candidate's parameters, each candidate placed by two behaviour ``descriptors``
    (comma-separated or a list; ``sim.study.styles.measures.DESCRIPTORS``; default
    explosion_rate and droplet) and scored by its win share; every elite re-tested on fresh
    deals, and the styles within ``margin`` of the best counted, per variant.

    ``rules``, ``variant``, ``set``, ``strategies``, ``candidate`` and ``param`` as
    ``sim.exploit``; ``games`` per candidate, ``batch`` candidates per step for ``batches``
    steps, ``retest_games`` per elite, ``cells`` per descriptor. With ``out`` the report folder
    is written there (``summary``, ``styles``, ``history`` as parquet and CSV, ``map.png``,
    ``report.md``, ``run.json``, ``report.html``); without it, to a temporary folder when first
    needed. The result's ``result`` is the study's ``StylesResult``. The same seed gives the
    same numbers as the command. A bad argument raises a ValueError with the command's one
    line."""
    from sim.study.styles.report import plot_jobs, write_report
    from sim.study.styles.run import StylesError, StylesSettings, plan_styles, run_styles

    study_setup(StylesError, run, players=players, games=games, batch=batch,
                batches=batches, retest_games=retest_games, cells=cells, seed=seed)
    settings = StylesSettings(
        **search.settings(),
        descriptors=(split_items(descriptors, "--descriptors", StylesError)
                     if descriptors is not None else StylesSettings.descriptors),
        players=players, games=games, batch=batch, batches=batches, retest_games=retest_games,
        margin=float(margin), cells=cells, seed=seed,
        backend=str(getattr(run["backend"], "value", run["backend"])))
    return play_search("styles", StylesError, settings, plan_styles, run_styles,
                       (write_report, plot_jobs), out=out, force=force, run=run)
