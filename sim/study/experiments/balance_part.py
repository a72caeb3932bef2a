"""The ``balance`` part of an experiment: ``quacks balance`` as a shipped study.

Its keys (besides the common ``games``, ``players`` and ``set``): ``field`` (the strategies
seated), ``strong`` and ``weak`` (the skill lineups), ``measure`` (which of the balance parts:
game, skill, cards, witches, books; default all) and ``targets`` (a targets file, relative to
the experiment file). Omitted keys take ``quacks balance``'s defaults.
"""

from __future__ import annotations

from pathlib import Path

from sim.study.experiments.parts import Context, PartReport


def balance_settings(part: dict, ctx: Context):
    """The BalanceSettings of a checked balance part under the experiment's context."""
    from sim.study.balance.settings import DEFAULT_FIELD, PARTS, STRONG, WEAK, BalanceSettings

    return BalanceSettings(
        rules=ctx.rules, overrides=ctx.overrides_for(part), players=ctx.players_for(part),
        field=tuple(part["field"] or DEFAULT_FIELD), games=ctx.games_for(part), seed=ctx.seed,
        strong=part["strong"] or STRONG, weak=tuple(part["weak"] or WEAK),
        parts=tuple(part["measure"] or PARTS), targets=part["targets"],
        backend=getattr(ctx.backend, "name", "local"))


def check_balance_part(part: dict, ctx: Context) -> None:
    """Lay the part out as the run will (a one-line ValueError at the first problem)."""
    from sim.study.balance.run import plan_balance

    plan_balance(balance_settings(part, ctx))


def run_balance_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """Every balance measurement on the same deals: its tables, plots and markdown."""
    from sim.study.balance.plots import CAPTIONS, render
    from sim.study.balance.report import headline, sections_markdown
    from sim.study.balance.run import run_balance

    settings = balance_settings(part, ctx)
    ctx.say(f"{part['name']}: balance of {settings.rules}, {settings.players} players")
    res = run_balance(settings, backend=ctx.backend)
    outdir.mkdir(parents=True, exist_ok=True)
    pngs = render(res.tables, res.plan.players, outdir)
    tables = {k: v for k, v in res.tables.items() if v is not None and len(v)}
    md = "\n".join([f"{headline(res)}; every interval 95%, clustered by deal.", "",
                    *sections_markdown(res, level=3)])
    return PartReport(part["name"], "balance", part["title"], tables,
                      [(f, CAPTIONS[f]) for f in pngs], md, res.played)
