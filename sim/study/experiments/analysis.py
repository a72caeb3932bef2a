"""The experiment parts built on the analyst's and designer's commands: ``compare`` (the same
field under several rulesets, ``quacks compare``) and ``thresholds`` (stop curves of bags,
``quacks thresholds``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.study.experiments.parts import Context, PartReport


def run_compare_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """Every variant (label, ruleset, overrides) with the same field on the same deals; the
    comparison's tables, plots and its metric and difference tables in markdown."""
    from sim.study.compare.config import CompareConfig, RulesetSpec
    from sim.study.compare.plots import CAPTIONS, render
    from sim.study.compare.report import difference_rows, metric_rows, strategy_rows
    from sim.study.compare.run import run_compare
    from sim.study.reports.markdown import md_table

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


def thresholds_markdown(table: pd.DataFrame) -> str:
    """The stop-curve table in markdown: value, regret, explosion chance, reward space (with 95%
    intervals when sampled), best rule of each kind marked."""
    from sim.study.experiments.parts import ci_text
    from sim.study.reports.markdown import md_table

    rows = []
    for x in table.itertuples():
        name = f"**{x.rule}**" if getattr(x, "best", False) else str(x.rule)
        rows.append([name, ci_text(x.expected_value, x.expected_value_lo, x.expected_value_hi),
                     ci_text(x.regret, x.regret_lo, x.regret_hi),
                     ci_text(x.p_explode, x.p_explode_lo, x.p_explode_hi),
                     ci_text(x.expected_reward_space, x.expected_reward_space_lo,
                             x.expected_reward_space_hi, 2),
                     "exact" if x.exact else f"{int(x.n):,}"])
    return md_table(["rule", "value (VP)", "regret", "explosion chance", "reward space",
                     "potions"], rows)


def _optimal_potions(part: dict, ctx: Context) -> int | None:
    """Potions for a sampled optimal stopper (it solves at every draw, so it is the slow part):
    the part's ``optimal_potions``, at most ``--games`` (and at least 100) in a quick run."""
    n = part["optimal_potions"]
    if ctx.games_override is not None:
        return max(100, min(n or ctx.games_override, ctx.games_override))
    return n


def run_thresholds_part(part: dict, ctx: Context, outdir: Path) -> PartReport:
    """The stop curve of each listed bag: every white-total and risk threshold against the
    optimal stopper (exact where the bag allows, else sampled with ``potions`` potions)."""
    from sim.rules.ruleset import load_ruleset
    from sim.study.thresholds.compute import compute_thresholds, risk_grid, white_grid

    ruleset = load_ruleset(ctx.rules, ctx.overrides_for(part))
    potions = int(part["potions"])
    if ctx.games_override is not None:
        potions = min(potions, max(2_000, 20 * ctx.games_override))
    tables, policies, figures, md = [], [], [], []
    for bag in part["bags"]:
        ctx.say(f"{part['name']}: {bag['label']}")
        res = compute_thresholds(
            bag["bag"], ruleset=ruleset, start=bag["start"], flask=bag["flask"],
            card=bag["card"], round_=bag["round"], coin_value=part["coin_value"],
            ruby_value=part["ruby_value"],
            white=white_grid(part["white"] or None, int(ruleset.game("explosion_limit"))),
            risk=risk_grid(part["risk"] or None), n=potions, seed=ctx.seed,
            n_optimal=_optimal_potions(part, ctx))
        files = res.write(outdir / bag["label"])
        tables.append(res.table.assign(bag=bag["label"]))
        policies.append(res.policy.assign(bag=bag["label"]))
        figures += [(f"{bag['label']}/{f}", f"{bag['label']}: "
                     + ("stop curve" if f == "stop_curve.png" else "optimal policy"))
                    for f in files if f.endswith(".png")]
        opt = res.summary["optimal"]
        md += [f"**{bag['label']}**: `{bag['bag']}`, start {bag['start']}, round {bag['round']}"
               + (f", flask on a white {bag['flask']}" if bag["flask"] else "")
               + f"; optimal value {opt['expected_value']:.3f} VP ({opt['method']}); best rule "
               f"`{res.summary['best_rule']}`.", "", thresholds_markdown(res.table), ""]
    return PartReport(part["name"], "thresholds", part["title"],
                      {"thresholds": pd.concat(tables, ignore_index=True),
                       "policy": pd.concat(policies, ignore_index=True)},
                      figures, "\n".join(md), 0)
