"""The ``design`` part of an experiment file: ``quacks design`` as a shipped study.

Its keys (``DESIGN_PART_KEYS``, besides the common ``games``, ``players`` and ``set``):
``knobs`` (a list of ``--knob`` texts), ``targets`` (a table of bands, ``{ seat0_win_share =
[0.24, 0.26] }``), ``field``, ``first_rung``, ``retest_games``, ``retune``, ``retune_params``
and ``retune_budget``. The part's ``games`` is the search's budget; ``quacks experiment run
--games N`` replaces it and the re-test's games (a quick run). Omitted keys take ``quacks
design``'s defaults.

To register the kind, the experiment layer maps ``"design"`` to ``DESIGN_PART_KEYS`` (file),
:func:`check_design_part` (check) and :func:`run_design_part` (run).
"""

from __future__ import annotations

from pathlib import Path

from sim.study.design.defaults import RETUNE_BUDGET

# key: (type, required, default), as the experiment file's other kinds declare theirs
DESIGN_PART_KEYS = {"knobs": (list, True, None), "targets": (dict, True, None),
                    "field": (list, False, None), "first_rung": (int, False, None),
                    "retest_games": (int, False, None), "retune": (str, False, None),
                    "retune_params": (list, False, []),
                    "retune_budget": (int, False, RETUNE_BUDGET)}
CAPTIONS = {"progress.png": "The search: every candidate's loss against the games played, and "
                            "the knob values it tried.",
            "targets.png": "The re-test on fresh deals: each target with its 95% interval, the "
                           "band shaded."}


def design_settings(part: dict, ctx):
    """The DesignSettings of a design part under the experiment's context (``ctx``: the
    experiment runner's Context)."""
    from sim.study.balance.settings import DEFAULT_FIELD
    from sim.study.design.design import DesignSettings

    for key in ("knobs", "field", "retune_params"):
        v = part.get(key)
        if v is not None and not all(isinstance(x, str) and x.strip() for x in v):
            raise ValueError(f"key '{key}' must be a list of strings")
    bands = []
    for m, b in (part["targets"] or {}).items():
        if not (isinstance(b, list) and len(b) == 2):
            raise ValueError(f"targets.{m} = {b!r}: expected a band [low, high]")
        bands.append((str(m), b[0], b[1]))
    quick = getattr(ctx, "games_override", None)
    return DesignSettings(
        knobs=tuple(part["knobs"]), bands=tuple(bands), budget=ctx.games_for(part),
        seed=ctx.seed, rules=ctx.rules, overrides=ctx.overrides_for(part),
        players=ctx.players_for(part), field=tuple(part.get("field") or DEFAULT_FIELD),
        first_rung=part.get("first_rung"),
        retest_games=quick if quick is not None else part.get("retest_games"),
        retune=part.get("retune"), retune_params=tuple(part.get("retune_params") or ()),
        retune_budget=part.get("retune_budget") or RETUNE_BUDGET,
        backend=getattr(ctx.backend, "name", "local"))


def check_design_part(part: dict, ctx) -> None:
    """Lay the part out as the run will (a one-line ValueError at the first problem)."""
    from sim.study.design.design import plan_design

    plan_design(design_settings(part, ctx))


def run_design_part(part: dict, ctx, outdir: Path):
    """The search, the re-tune (if asked) and the re-test: the part's tables, plots and
    markdown (a PartReport of the experiment runner)."""
    from sim.study.common.plot_style import save_png
    from sim.study.design.design import run_design, strategies_note
    from sim.study.design.design_report import (
        TABLES,
        best_line,
        headline,
        target_rows,
        verdict_line,
    )
    from sim.study.design.design_report import figures as design_figures
    from sim.study.design.loss import LOSS_TEXT
    from sim.study.experiments.parts import PartReport
    from sim.study.reports.markdown import md_table

    settings = design_settings(part, ctx)
    ctx.say(f"{part['name']}: design of {settings.rules}, {settings.players} players")
    res = run_design(settings, backend=ctx.backend)
    outdir.mkdir(parents=True, exist_ok=True)
    pngs = [save_png(fig, outdir, name) for name, fig in design_figures(res)]
    tables = {t: res.tables[t] for t in TABLES if res.tables.get(t) is not None
              and len(res.tables[t])}
    md = "\n".join([f"{headline(res)}; {LOSS_TEXT}.", "", f"**{best_line(res)}**", "",
                    md_table(*target_rows(res)), "", f"Verdict: {verdict_line(res)}.", "",
                    strategies_note(res) + ".", ""])
    played = sum(res.games.values())
    return PartReport(part["name"], "design", part["title"], tables,
                      [(f, CAPTIONS[f]) for f in pngs], md, played)
