"""The experiment parts built on the analyst's and designer's commands: ``compare`` (the same
field under several rulesets, ``quacks compare``) and ``thresholds`` (stop curves of bags,
``quacks thresholds``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.study.experiment_parts import Context, PartReport


def run_compare_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """Every variant (label, ruleset, overrides) with the same field on the same deals; the
    comparison's tables, plots and its metric and difference tables in markdown."""
    from sim.study.compare import CompareConfig, RulesetSpec, run_compare
    from sim.study.compare_plots import CAPTIONS, render
    from sim.study.compare_report import difference_rows, metric_rows, strategy_rows
    from sim.study.report_markdown import md_table

    common = ctx.overrides_for(part)
    specs = [RulesetSpec(v["label"], v["rules"] or ctx.rules, (*common, *v["set"]))
             for v in part["variants"]]
    ctx.say(f"{part['name']}: {len(specs)} rulesets")
    res = run_compare(CompareConfig(rulesets=tuple(specs), strategies=tuple(part["strategies"]),
                                    players=ctx.players_for(part), games=ctx.games_for(part),
                                    seed=ctx.seed))
    files, notes = render(res, outdir)
    tables = {k: v.assign(ruleset=v["ruleset"].astype(str)) for k, v in res.tables.items()}
    md = [f"{res.games:,} games per ruleset ({res.deals:,} deals), field "
          f"`{','.join(res.plans[0].names)}`; differences are to `{res.labels[0]}`, paired by "
          "deal. Game length is the total of a player's reward spaces over the game.", ""]
    for title, (header, rows) in (("Metrics per ruleset (value [95% CI])", metric_rows(res)),
                                  (f"Paired differences to `{res.labels[0]}`",
                                   difference_rows(res)),
                                  ("Win share by strategy", strategy_rows(res))):
        if rows:
            md += [f"**{title}**", "", md_table(header, rows), ""]
    md += [f"- {n}" for n in notes + list(res.notes)]
    return PartReport(part["name"], "compare", part["title"], tables,
                      [(f, CAPTIONS.get(f, f)) for f in files], "\n".join(md),
                      res.games * len(specs))


def run_thresholds_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """The stop curve of each listed bag: every white-total and risk threshold against the
    optimal stopper (exact where the bag allows, else sampled with ``potions`` potions)."""
    from sim.study.thresholds import compute_thresholds

    tables, policies, figures, md = [], [], [], []
    potions = int(part["potions"])
    if ctx.games_override is not None:
        potions = min(potions, max(10_000, 20 * ctx.games_override))
    for bag in part["bags"]:
        ctx.say(f"{part['name']}: {bag['label']}")
        res = compute_thresholds(
            bag=bag["bag"], start=bag["start"], flask=bag["flask"], round_no=bag["round"],
            card=bag["card"], rules=ctx.rules, overrides=ctx.overrides_for(part),
            white=part["white"] or None, risk=part["risk"] or None, n=potions, seed=ctx.seed,
            coin_value=part["coin_value"], ruby_value=part["ruby_value"])
        sub = outdir / bag["label"]
        files = res.write(sub)
        tables.append(res.table.assign(bag=bag["label"]))
        policies.append(res.policy.assign(bag=bag["label"]))
        figures += [(f"{bag['label']}/{f}", f"{bag['label']}: {f.removesuffix('.png')}")
                    for f in files if f.endswith(".png")]
        md += [f"**{bag['label']}** (`{bag['bag']}`, start {bag['start']}, round {bag['round']}"
               + (f", flask on white {bag['flask']}" if bag["flask"] else "") + ")", "",
               res.markdown(), ""]
    return PartReport(part["name"], "thresholds", part["title"],
                      {"thresholds": pd.concat(tables, ignore_index=True),
                       "policy": pd.concat(policies, ignore_index=True)},
                      figures, "\n".join(md), 0)
