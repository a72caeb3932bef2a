"""The text of a ``quacks compare`` report: the command that reproduces it, ``report.md``, and
the formatted rows (value [95% CI]) that the markdown and the console tables share."""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence

from sim.study.compare.config import default_label
from sim.study.compare.stats import INTERVAL_METHODS, metric_digits


def command_line(config) -> str | None:
    """A ``quacks compare`` command that reproduces the config, or None when the command line
    cannot say it (a ruleset other than the first with overrides of its own that is not a
    variant of the first)."""
    c = config
    first = c.rulesets[0]
    common = list(first.overrides)
    parts = ["quacks", "compare", "--rules", first.rules]
    variants = []
    for r in c.rulesets[1:]:
        own = list(r.overrides[len(common):])
        if list(r.overrides[:len(common)]) != common:
            return None
        if not own and r.label.split("#")[0] == default_label(r.rules) and not variants:
            parts += ["--rules", r.rules]
        elif r.rules == first.rules:
            text = ";".join(own)
            variants += ["--variant", text if r.label == text else f"{r.label}={text}"]
        else:
            return None
    for o in common:
        parts += ["--set", o]
    parts += variants
    if c.strategies:
        parts += ["--strategies", ",".join(c.strategies)]
    if c.players is not None:
        parts += ["--players", str(c.players)]
    parts += ["--games", str(c.games), "--seed", str(c.seed)]
    if c.sequential:
        parts += ["--sequential"] + (["--width", repr(c.width)] if c.width is not None else [])
    for f in c.strategy_files:
        parts += ["--strategy-file", f]
    return shlex.join(parts)


def provenance(res, argv: Sequence[str] | None = None):
    """The run's :class:`~sim.study.reports.provenance.Provenance`: the command that reproduces
    it (the command as given when no ``quacks compare`` line can say it), the seed, every
    ruleset's hash."""
    from sim.study.reports.provenance import make_provenance, typed_command

    cmd = command_line(res.config) or typed_command(argv) or "quacks compare"
    return make_provenance(cmd, argv=argv, seed=res.config.seed,
                           rules=[(lb, p.ruleset.hash) for lb, p in zip(res.labels, res.plans)])


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: the run, the tables, the figures and the provenance (the command, the
    seed, the rulesets' hashes, the versions)."""
    from sim.study.compare.plots import CAPTIONS
    from sim.study.reports.markdown import interval_methods_md, md_table

    labels, ref = res.labels, res.labels[0]
    header, rows = metric_rows(res)
    dh, drows = difference_rows(res)
    sh, srows = strategy_rows(res)
    out = [f"# Rulesets compared: {', '.join(labels)}", "",
           f"{res.games:,} games per ruleset ({res.deals:,} deals x {res.plans[0].games_per_deal} "
           f"seatings), {res.players} players, field `{','.join(res.plans[0].names)}`, seed "
           f"{res.config.seed}; every ruleset plays the same deals, so the differences to the "
           f"reference `{ref}` are paired by deal.", "",
           "Every interval is 95% and treats the **deal** as the independent unit. Game length is "
           "the total of the reward spaces of a player's potions over the game; the round-"
           f"{res.config.leader_round} leader's win counts tied leaders as one picked at random; a "
           "shared win counts 1/k. Seats are numbered from 0.", "",
           "| ruleset | rules |", "|:---|:---|",
           *[f"| {lb} | `{p.ruleset.display}` |" for lb, p in zip(labels, res.plans)], "",
           "## Metrics per ruleset (value [95% CI])", "", md_table(header, rows), ""]
    if drows:
        out += [f"## Paired differences to `{ref}` (ruleset - reference [95% CI]; * the interval "
                "excludes 0)", "", md_table(dh, drows), ""]
    if res.sequential is not None:
        st = res.sequential
        qh, qrows = sequential_rows(res)
        out += ["## Sequential stop", "",
                f"Played {st.games:,} of a budget of {st.budget_games:,} games per ruleset "
                f"({st.run.deals:,} of {st.run.budget:,} deals, {st.run.batches} batches): "
                f"{'every question decided' if st.run.decided else 'the budget spent'}; "
                f"{st.games_saved:,} games saved over the {st.arms} rulesets. Each question's "
                "interval is a 95% anytime-valid confidence sequence (level split over the "
                f"{len(st.questions)} questions: {st.alpha:.4g} each); it is decided when it "
                "excludes 0" + (f" or is within +-{st.width:g}" if st.width is not None else "")
                + ".", "", md_table(qh, qrows), ""]
    out += ["## Win share by strategy (value [95% CI])", "", md_table(sh, srows), ""]
    for name in pngs:
        out += [f"![{CAPTIONS.get(name, name)}]({name})", "", f"*{CAPTIONS.get(name, name)}*", ""]
    out += [interval_methods_md(INTERVAL_METHODS), prov.markdown()]
    if command_line(res.config) is None:
        out += [f"From Python: `run_compare(CompareConfig(**{res.config.settings()!r}))`", ""]
    if res.notes:
        out += ["## Notes", "", *[f"- {n}" for n in res.notes], ""]
    return "\n".join(out)


# --- formatted rows (markdown and console) ------------------------------------------------------

def _fmt(x, digits: int, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _cell(v, lo, hi, digits: int, sign: bool = False) -> str:
    return f"{_fmt(v, digits, sign)} [{_fmt(lo, digits, sign)}, {_fmt(hi, digits, sign)}]"


def metric_rows(res) -> tuple[list[str], list[list[str]]]:
    """Metrics as rows, rulesets as columns, cells value [95% CI]; then the observations."""
    t = res.tables["rulesets"]
    keys = list(dict.fromkeys(t["metric"]))
    rows = []
    for k in keys:
        sub = t[t["metric"] == k]
        cells = {r["ruleset"]: _cell(r["value"], r["ci_lo"], r["ci_hi"], metric_digits(k))
                 for r in sub.to_dict(orient="records")}
        ns = list(dict.fromkeys(int(x) for x in sub["n"]))
        rows.append([str(sub["label"].iloc[0]), *[cells.get(lb, "n/a") for lb in res.labels],
                     " / ".join(f"{x:,}" for x in ns)])
    return ["metric", *res.labels, "n (per ruleset)"], rows


def difference_rows(res) -> tuple[list[str], list[list[str]]]:
    """Metrics (then strategies' win share and VP) as rows, ``ruleset - reference`` columns."""
    d = res.tables["differences"]
    others = res.labels[1:]
    rows = []
    for (metric, _strategy), sub in d.groupby(["metric", "strategy"], sort=False):
        digits = metric_digits(metric)
        cells = {r["ruleset"]: _cell(r["diff"], r["ci_lo"], r["ci_hi"], digits, True)
                 + (" *" if r["significant"] else "") + (f" ({r['note']})" if r.get("note") else "")
                 for r in sub.to_dict(orient="records")}
        rows.append([str(sub["label"].iloc[0]), *[cells.get(o, "") for o in others]])
    return ["metric", *[f"{o} - {res.labels[0]}" for o in others]], rows


def sequential_rows(res) -> tuple[list[str], list[list[str]]]:
    """The sequential stop's questions: ruleset, figure, difference [confidence sequence],
    whether decided (why), the deals when first decided."""
    q = res.tables["sequential"]
    rows = []
    for r in q.to_dict(orient="records"):
        digits = metric_digits(r["metric"])
        at = r["decided_at_deals"]
        rows.append([f"{r['ruleset']} - {r['reference']}", str(r["label"]),
                     _cell(r["diff"], r["ci_lo"], r["ci_hi"], digits, True),
                     r["why"] if r["decided"] or r["why"] == "undecided"
                     else f"undecided ({r['why']})",
                     "" if at is None or at != at else f"{int(at):,}"])
    return ["difference", "figure", "diff [95% confidence sequence]", "decided",
            "decided at deals"], rows


def strategy_rows(res) -> tuple[list[str], list[list[str]]]:
    """Strategies as rows, each ruleset's win share [95% CI] as columns."""
    s = res.tables["strategies"]
    rows = []
    for name in res.plans[0].names:
        sub = s[s["strategy"] == name].set_index("ruleset")
        rows.append([name, *[_cell(sub.loc[lb, "win_share"], sub.loc[lb, "win_share_ci_lo"],
                                   sub.loc[lb, "win_share_ci_hi"], 4) for lb in res.labels],
                     f"{int(sub['games'].iloc[0]):,}"])
    return ["strategy", *res.labels, "seat-games"], rows
