"""The report of a sensitivity run: the formatted rows the console and ``report.md`` share, the
markdown, and the report folder (``sim.study.design.folder``): ``levels``, ``differences``,
``effects``, ``ranking`` (and ``pair``) as parquet, one response plot per knob, the pair's heat
maps, ``report.md``, ``run.json`` and ``report.html``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from sim.stats.clusters import METHOD_DIFF
from sim.stats.multiplicity import ADJUST_TEXT, METHOD_NO_DEAL, METHOD_SIMULTANEOUS
from sim.study.balance.report import INTERVAL_METHODS as FIGURE_METHODS
from sim.study.balance.report import ci_cell
from sim.study.design.folder import write_drawn_report
from sim.study.design.measure import digits_of, field_text
from sim.study.design.plots import pair_figure, response_figure, response_name
from sim.study.design.text import md, p_text, strength_text

TABLES = ("ranking", "effects", "differences", "levels", "pair")
PAIR_PNG = "pair.png"
INTERVAL_METHODS = {**FIGURE_METHODS,
                    "differences between two values of a knob": METHOD_DIFF + " (the two "
                    "values' residuals per deal)",
                    "effects and ranking (the pair furthest apart)": METHOD_SIMULTANEOUS,
                    "a difference 0 on every deal": METHOD_NO_DEAL,
                    "rank interval": "percentile bootstrap over deals (the deals resampled, "
                    "strengths, flags and ranks recomputed)"}


def _digits(res, metric: str) -> int:
    p = res.plan
    return digits_of(metric, p.players, int(p.base.game("rounds")))


def ranking_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each knob: rank [95% CI], knob, effect, its adjusted p-value, its strongest figure,
    the two values, the paired difference [95% CI simultaneous over every pair of every figure
    of the knob: knob-wide], the strength, the figures it moves."""
    rows = []
    for r in res.tables["ranking"].to_dict(orient="records"):
        d = _digits(res, r["metric"])
        rows.append([rank_text(r), r["knob"], r["effect"], p_text(r["p_adj"]), r["metric"],
                     f"{r['from']} -> {r['to']}",
                     ci_cell(r["diff"], r["ci_lo"], r["ci_hi"], d, sign=True),
                     strength_text(r["strength"]), r["metrics_moved"] or "none"])
    return ["rank [95% CI]", "knob", "effect", "p_adj", "strongest figure", "values",
            "difference [knob-wide simultaneous 95% CI]", "strength", "figures moved"], rows


def rank_text(r: dict) -> str:
    """A rank and its interval: ``2 [1, 3]`` (the rank alone without an interval)."""
    lo, hi = r.get("rank_lo"), r.get("rank_hi")
    if lo is None or hi is None or lo != lo or hi != hi:
        return str(r["rank"])
    return f"{r['rank']} [{int(lo)}, {int(hi)}]"


def effect_rows(res) -> tuple[list[str], list[list[str]]]:
    """Each knob and figure: the pair of values furthest apart, their paired difference
    [simultaneous 95% CI over the knob's pairs], its strength, the family's adjusted p-value,
    how many pairs move it (adjusted p-value below 0.05) and the note."""
    rows = []
    for r in res.tables["effects"].to_dict(orient="records"):
        d = _digits(res, r["metric"])
        rows.append([r["knob"], r["metric"], f"{r['from']} -> {r['to']}",
                     ci_cell(r["diff"], r["ci_lo"], r["ci_hi"], d, sign=True),
                     strength_text(r["strength"]), p_text(r["p_adj"]),
                     f"{r['pairs_moving']}/{r['pairs']}", r["note"] or ""])
    return ["knob", "figure", "values", "largest difference [simultaneous 95% CI]", "strength",
            "p_adj", "pairs moving", "note"], rows


def families_text(res) -> str:
    """The families the flags are adjusted over, and how, in one paragraph."""
    holm = res.settings.adjust == "holm"
    how = ("Holm's step-down with the max-|t| bound of the simultaneous intervals in place of "
           "Bonferroni's, so that a flag never contradicts its interval" if holm else
           ADJUST_TEXT[res.settings.adjust])
    ranking = ("The ranking's figures moved are adjusted over every pair of every figure of "
               "the knob, the family of its knob-wide interval (a figure whose ranked interval "
               "excludes 0 is moved)" if holm else
               "The ranking's figures moved are adjusted again over the figures of the knob "
               "(each figure's smallest adjusted p-value)")
    return (f"Flags are decided by p-values adjusted by {how}. A knob **moves** a figure when "
            "some pair of its values has an adjusted p-value below 0.05, the family being every "
            f"pair of the knob's values for that figure (pairs moving). {ranking}; a knob with "
            "none has **no effect**. The effects' largest difference has an interval "
            "simultaneous over the knob's pairs for the figure (it holds every pair at once, so "
            "also the one picked); the ranking's is simultaneous over the whole knob, every "
            "pair of every figure (knob-wide: it holds whichever figure is picked); the other "
            "differences' intervals are each 95% on their own. A difference 0 on every deal is "
            "[0, 0] only for two values that are the same ruleset; otherwise it is +-3/n times "
            "the figure's largest change on one deal (1 for a share), noted \"identical on all "
            "n deals\". Each rank's interval is a percentile bootstrap over deals.")


def level_rows(res, knob: str) -> tuple[list[str], list[list[str]]]:
    """A knob's values (rows) and each figure analysed with its 95% interval (columns)."""
    lv = res.tables["levels"]
    sub = lv[(lv["knob"] == knob) & lv["metric"].isin(res.settings.metrics)]
    by = {(r["setting"], r["metric"]): r for r in sub.to_dict(orient="records")}
    settings = list(dict.fromkeys(sub.sort_values("x", kind="stable")["setting"]))
    rows = [[s, *[ci_cell(by[(s, m)]["value"], by[(s, m)]["ci_lo"], by[(s, m)]["ci_hi"],
                          _digits(res, m)) if (s, m) in by else "n/a"
                  for m in res.settings.metrics]] for s in settings]
    return [knob, *res.settings.metrics], rows


def pair_rows(res, metric: str) -> tuple[list[str], list[list[str]]]:
    """The pair's grid of one figure: a row per value of the first knob, a column per value of
    the second."""
    pr = res.tables["pair"]
    g = pr[pr["metric"] == metric]
    a, b = res.settings.pair
    xa = list(dict.fromkeys(g.sort_values("a_x", kind="stable")["a_setting"]))
    xb = list(dict.fromkeys(g.sort_values("b_x", kind="stable")["b_setting"]))
    by = {(r["a_setting"], r["b_setting"]): r for r in g.to_dict(orient="records")}
    d = _digits(res, metric)
    rows = [[va, *[ci_cell(by[(va, vb)]["value"], by[(va, vb)]["ci_lo"], by[(va, vb)]["ci_hi"], d)
                   for vb in xb]] for va in xa]
    return [f"{a} \\ {b}", *xb], rows


def headline(res) -> str:
    """What was played, in one sentence."""
    s, p = res.settings, res.plan
    grid = f" (with the {len(p.cells)} cells of the {' x '.join(s.pair)} grid)" if p.cells else ""
    from sim.api.events import plural

    return (f"{plural(len(p.knobs), 'knob')}, {plural(len(p.rulesets), 'ruleset')}{grid} x "
            f"{s.deals * p.players:,} games ({s.deals:,} deals x {p.players} seatings, the same "
            "deals for every value), "
            f"{p.players} players, rules {p.base.display}, field {field_text(p.seated)}, seed "
            f"{s.seed}")


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: what was played, the ranking, the effects, each knob's values with its
    response curves, the pair's grids, the interval methods and the command."""
    from sim.study.reports.markdown import interval_methods_md

    s, p = res.settings, res.plan
    none = res.no_effect()
    out = [f"# Sensitivity: {p.base.display}, {p.players} players", "",
           f"{headline(res)}. Every value of a knob plays the same deals, so differences are "
           "paired by deal; every interval is 95% and treats the **deal** as the independent "
           "unit. A knob's effect on a figure is the largest paired difference between two of "
           "its values; its strength is that difference in units of its interval's half-width "
           "(above 1: the interval excludes 0).", "", families_text(res), "", "## Ranking", "",
           md(*ranking_rows(res)),
           "", f"No effect: {', '.join(none)}." if none else "Every knob moves a figure.", "",
           "## Effects", "", md(*effect_rows(res)), ""]
    for k in p.knobs:
        out += [f"## {k.key}", "", md(*level_rows(res, k.key)), ""]
        name = response_name(k.key)
        if name in pngs:
            out += [f"![{k.key}: response curves]({name})", ""]
    if "pair" in res.tables:
        a, b = s.pair
        out += [f"## {a} x {b}", ""]
        for m in s.metrics:
            out += [f"{m}:", "", md(*pair_rows(res, m)), ""]
        if PAIR_PNG in pngs:
            out += [f"![{a} x {b}]({PAIR_PNG})", ""]
    out += [interval_methods_md(INTERVAL_METHODS), prov.markdown()]
    return "\n".join(out)


def plot_jobs(res) -> list[tuple[str, Callable[[], object]]]:
    """(PNG file name, function drawing the figure) of every plot: a response plot per knob,
    the pair's heat maps."""
    s, p = res.settings, res.plan
    games = s.deals * p.players

    def response(k):
        return lambda: response_figure(res.tables["levels"], k.to_json(), list(s.metrics),
                                       p.players, games)

    out = [(response_name(k.key), response(k)) for k in p.knobs]
    if "pair" in res.tables:
        digits = {m: _digits(res, m) for m in s.metrics}
        out.append((PAIR_PNG, lambda: pair_figure(res.tables["pair"], list(s.metrics), digits,
                                                  games)))
    return out


def write_report(res, out: str | Path, *, force: bool = False,
                 argv: Sequence[str] | None = None) -> list[str]:
    """Write the report folder (see the module); returns its file names."""
    return write_drawn_report(res, out, kind="sensitivity", jobs=plot_jobs(res), table_names=TABLES,
                              report_markdown=report_markdown, force=force, argv=argv,
                              interval_methods=INTERVAL_METHODS)


def flags_line(res) -> str:
    """The flags' families and adjustment, in one line for the terminal."""
    from sim.stats.multiplicity import ADJUST_TEXT

    holm = res.settings.adjust == "holm"
    how = ("Holm's step-down with the max-|t| bound of the simultaneous intervals" if holm
           else ADJUST_TEXT[res.settings.adjust])
    moved = ("over every pair of every figure of the knob (the ranking's knob-wide interval)"
             if holm else "adjusted again over the knob's figures")
    return (f"flags: p-values adjusted by {how}; moves: some pair of the knob's values for the "
            f"figure, adjusted over those pairs; figures moved: {moved}; the ranking's "
            "interval is knob-wide simultaneous; \"identical on all n deals\": 0 on every deal "
            "of two different rulesets, +-3/n x the figure's largest change on one deal")


def no_effect_line(res) -> str:
    """The sentence naming the knobs that move nothing."""
    none = res.no_effect()
    if not none:
        return "every knob moves at least one figure"
    return (f"no effect: {', '.join(none)} (no figure moved: every adjusted p-value is 0.05 or "
            "more)")

