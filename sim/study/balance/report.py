"""The report of a balance run: the formatted rows the markdown and the console share,
``report.md``, and the report folder (parquet tables, PNG plots, ``report.md``, ``run.json``
and ``report.html``), written through a staging folder so that nothing is ever half-written.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from sim.stats.clusters import METHOD_DIFF, METHOD_MEAN, METHOD_SHARE
from sim.study.balance.game import FAMILIES, PER_SEAT
from sim.study.balance.ranks import METHOD_RANK
from sim.study.balance.settings import PARTS, TITLES
from sim.study.compare.stats import METHOD_SD
from sim.study.reports.files import REPORT_MD, staging_folder
from sim.study.reports.files import RUN_FILE as RUN_JSON

TABLES = (*PARTS, "targets")  # each written as <name>.parquet when the run has it
INTERVAL_METHODS = {
    "rates and shares (win shares, catch-up, lock round shares, ties, explosions)": METHOD_SHARE,
    "means (lead changes, lock round, winner's VP, margin, VP)": METHOD_MEAN,
    "standard deviations (winner's VP, margin, VP)": METHOD_SD,
    "skill gap": METHOD_DIFF + " (the two lineups' residuals per deal)",
    "ranks of the cards, witches and books (rank_lo, rank_hi)": METHOD_RANK,
}
# the per-round families of the game figures: (name, label), as columns of the by-round table
PER_ROUND = tuple((name, label.format(k="k")) for name, _, _, label, _ in FAMILIES
                  if "{k}" in name and name not in PER_SEAT)


# --- formatted cells and rows ------------------------------------------------------------------

def number(x, digits: int, sign: bool = False) -> str:
    """A number to ``digits`` decimals (``n/a`` when missing)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)) or pd.isna(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def ci_cell(v, lo, hi, digits: int, sign: bool = False) -> str:
    """``value [lo, hi]``."""
    return f"{number(v, digits, sign)} [{number(lo, digits, sign)}, {number(hi, digits, sign)}]"


def _row_cell(r: dict) -> str:
    return ci_cell(r["value"], r["ci_lo"], r["ci_hi"], int(r["digits"]),
                   sign=r["metric"].endswith(("_excess", "_gap")))


def game_rows(game: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The game's figures that are not per round: figure, metric name, value [95% CI], n."""
    rows = [[r["label"], r["metric"], _row_cell(r), f"{int(r['n']):,}"]
            for r in game.to_dict(orient="records") if pd.isna(r["round"])]
    return ["figure", "metric", "value [95% CI]", "n"], rows


def round_rows(game: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The per-round figures, one row per round and one column per family."""
    by = {r["metric"]: r for r in game.to_dict(orient="records")}
    rounds = sorted(int(k) for k in game["round"].dropna().unique())
    rows = [[str(k), *[_row_cell(by[f.format(k=k)]) if f.format(k=k) in by else "n/a"
                       for f, _ in PER_ROUND]] for k in rounds]
    return ["round k", *[label for _, label in PER_ROUND]], rows


def skill_rows(skill: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Skill's figures: figure, metric name, value [95% CI], seat-games, deals."""
    rows = [[r["label"], r["metric"], _row_cell(r), f"{int(r['n']):,}", f"{int(r['deals']):,}"]
            for r in skill.to_dict(orient="records")]
    return ["figure", "metric", "value [95% CI]", "seat-games", "deals"], rows


def target_rows(targets: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Each band: metric, band, value [95% CI], verdict."""
    rows = []
    for r in targets.to_dict(orient="records"):
        digits = 4 if max(abs(r["band_lo"]), abs(r["band_hi"])) <= 1 else 2
        rows.append([r["metric"], f"[{number(r['band_lo'], digits)}, "
                                  f"{number(r['band_hi'], digits)}]",
                     ci_cell(r["value"], r["ci_lo"], r["ci_hi"], digits), r["verdict"]])
    return ["metric", "band", "value [95% CI]", "verdict"], rows


def _digits(col: pd.Series) -> int:
    v = pd.to_numeric(col, errors="coerce").abs()
    return 4 if v.dropna().le(1).all() else 2


def effect_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Any effects table (cards, witches, books): a column with ``_lo`` and ``_hi`` becomes
    ``value [95% CI]``; whole numbers with thousands separators; text as it is."""
    cols = [c for c in df.columns if not (c.endswith(("_lo", "_hi")) and c[:-3] in df.columns)]
    header, fmts = [], []
    for c in cols:
        if c == "rank" and {"rank_lo", "rank_hi"} <= set(df.columns):
            header.append("rank [95% CI]")
            fmts.append(lambda r: f"{int(r['rank'])} [{int(r['rank_lo'])}, "
                                  f"{int(r['rank_hi'])}]")
        elif f"{c}_lo" in df.columns and f"{c}_hi" in df.columns:
            d = _digits(df[c])
            header.append(f"{c} [95% CI]")
            fmts.append(lambda r, c=c, d=d: ci_cell(r[c], r[f"{c}_lo"], r[f"{c}_hi"], d))
        elif pd.api.types.is_integer_dtype(df[c]):
            header.append(c)
            fmts.append(lambda r, c=c: f"{int(r[c]):,}")
        elif pd.api.types.is_float_dtype(df[c]):
            d = _digits(df[c])
            header.append(c)
            fmts.append(lambda r, c=c, d=d: number(r[c], d))
        else:
            header.append(c)
            fmts.append(lambda r, c=c: str(r[c]))
    return header, [[f(r) for f in fmts] for r in df.to_dict(orient="records")]


# part: (the column naming a row, what rank 1 is, the plural of a row)
RANKED = {"cards": ("name", "the card that moves the game most (largest score)", "cards"),
          "witches": ("witch", "the witch most worth having (largest win_share)", "witches"),
          "books": ("colour", "the colour most worth buying (its loss costs the most win "
                              "share)", "colours")}


def rank_note(part: str, df: pd.DataFrame) -> str:
    """What the rank intervals of a ranked table allow one to say about rank 1: a row is named
    first only when its rank interval is [1, 1]; otherwise the rows whose interval holds 1."""
    from sim.study.balance.ranks import first_for_sure

    if df is None or not len(df) or "rank_lo" not in df.columns:
        return ""
    label, what, rows = RANKED[part]
    sure = df[first_for_sure(df["rank_lo"], df["rank_hi"])]
    if len(sure) == 1:
        return (f"Rank 1, {what}: {sure[label].iloc[0]} (rank interval [1, 1]; 95% intervals "
                "of the ranks, bootstrap over deals).")
    could = df[df["rank_lo"] == 1][label].astype(str).tolist()
    return (f"Rank 1, {what}: not settled by this run; {len(could)} {rows} have 1 in their "
            f"rank interval ({', '.join(could)}; 95% intervals of the ranks, bootstrap over "
            "deals).")


def decided_note(rounds: int) -> str:
    """The figures of the game left out as decided by definition, in one line."""
    from sim.study.balance.game import decided

    return ("Left out, decided by definition: " + "; ".join(
        f"{name} ({why})" for name, why in decided(rounds).items()) + ".")


# --- report.md ---------------------------------------------------------------------------------

def numeric_columns(header: list[str], rows: list[list[str]]) -> list[bool]:
    """Per column, True when every cell is a number (to align it on the right)."""
    def numeric(cell: str) -> bool:
        return bool(cell) and (cell[0].isdigit() or cell[0] in "+-" or cell.startswith("n/a"))

    return [bool(rows) and all(numeric(r[i]) for r in rows) for i in range(len(header))]


def _md(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table, its columns of numbers right-aligned."""
    from sim.study.reports.markdown import md_table

    return md_table(header, rows, numeric_columns(header, rows))


def headline(res) -> str:
    """What was played, in one sentence."""
    s, p = res.settings, res.plan
    return (f"{s.deals * s.players:,} games per part ({s.deals:,} deals x {s.players} seatings), "
            f"{p.players} players, rules {p.ruleset.display}, field {','.join(s.seated)}, seed "
            f"{s.seed}")


def sections_markdown(res, pngs: Sequence[str] = (), level: int = 2) -> list[str]:
    """The body of a balance report as markdown lines: the targets, the game, skill, the
    cards, witches and books (headings at ``level``), each followed by its figure when it is
    one of ``pngs``."""
    from sim.study.balance.plots import CAPTIONS

    T, s = res.tables, res.settings
    h = "#" * level
    out: list[str] = []

    def figure(name: str) -> None:
        if name in pngs:
            out.extend([f"![{CAPTIONS[name]}]({name})", "", f"*{CAPTIONS[name]}*", ""])

    if T.get("targets") is not None and len(T["targets"]):
        out += [f"{h} Targets", "", "pass: the interval lies inside the band; fail: wholly "
                "outside; undecided: it straddles a band edge.", "",
                _md(*target_rows(T["targets"])), ""]
    if T.get("game") is not None:
        out += [f"{h} The game", "", _md(*game_rows(T["game"])), "",
                "By round (a tied last or leading place counts as one player picked at random; "
                "a shared win 1/k):", "", _md(*round_rows(T["game"])), "",
                decided_note(res.plan.rounds), ""]
        figure("game.png")
    if T.get("skill") is not None:
        out += [f"{h} Skill", "", f"`{s.strong}` in one seat against {', '.join(s.weak)} "
                f"(cycled into the other seats), and `{s.weak[0]}` against copies of "
                f"`{s.strong}`, on the same deals.", "", _md(*skill_rows(T["skill"])), ""]
        figure("skill.png")
    for part in ("cards", "witches", "books"):
        df = T.get(part)
        if df is None:
            continue
        out += [f"{h} {TITLES[part]}", ""]
        out += ([_md(*effect_rows(df)), "", rank_note(part, df), ""] if len(df)
                else ["None in this ruleset.", ""])
        figure(f"{part}.png")
    return out


def provenance(res, argv: Sequence[str] | None = None):
    """The run's :class:`~sim.study.reports.provenance.Provenance`."""
    from sim.study.reports.provenance import make_provenance

    rs = res.plan.ruleset
    return make_provenance(res.settings.command(), argv=argv, seed=res.settings.seed,
                           rules=[(rs.display, rs.hash)])


def report_markdown(res, pngs: Sequence[str], prov) -> str:
    """``report.md``: what was played, :func:`sections_markdown` with the figures, the interval
    methods and the provenance (the command that reproduces the run, the versions)."""
    from sim.study.reports.markdown import interval_methods_md

    out = [f"# Balance: {res.plan.ruleset.display}, {res.plan.players} players", "",
           f"{headline(res)}. Every part plays the same deals, so its differences are paired by "
           "deal; every interval is 95% and treats the **deal** as the independent unit. Seats "
           "count from 1 in labels (seat 1 starts round 1) and from 0 in metric names.", "",
           *sections_markdown(res, pngs), interval_methods_md(INTERVAL_METHODS),
           prov.markdown()]
    if res.notes:
        out += ["## Notes", "", *[f"- {n}" for n in res.notes], ""]
    return "\n".join(out)


# --- the folder --------------------------------------------------------------------------------

def check_out(path: str | Path, force: bool = False) -> None:
    """Raise ValueError unless ``path`` can take a report (new, empty, or ``force``); changes
    nothing on disk."""
    from sim.study.compare.run import check_out as check

    check(path, force)


def write_report(res, out: str | Path, *, force: bool = False,
                 argv: Sequence[str] | None = None) -> list[str]:
    """Write the report folder ``out``: every table as parquet, the PNG plots, ``report.md``,
    ``run.json`` (the JSON result, the settings, the command, the versions, the date, the
    files) and ``report.html``. Everything goes into ``OUT/.staging`` first and is moved into
    place at the end, ``run.json`` last; an error or Ctrl-C leaves no staging files behind.
    Returns the file names."""
    p = Path(out)
    check_out(p, force)
    with staging_folder(p) as stage:
        return _write(res, p, stage, argv)


def _write(res, p: Path, stage: Path, argv: Sequence[str] | None) -> list[str]:
    from sim.study.balance.plots import PLOT_FILES, render
    from sim.study.reports.files import REPORT_HTML, dumps, now_iso, package_versions
    from sim.study.reports.html import write_html
    from sim.study.reports.provenance import PROVENANCE_KEY

    files = []
    for name in TABLES:
        df = res.tables.get(name)
        if df is not None and len(df):  # an empty table (no witches, no bands) stays out
            df.to_parquet(stage / f"{name}.parquet", index=False)
            files.append(f"{name}.parquet")
    pngs = render(res.tables, res.plan.players, stage)
    prov = provenance(res, argv)
    files += pngs
    (stage / REPORT_MD).write_text(report_markdown(res, pngs, prov), encoding="utf-8")
    files.append(REPORT_MD)
    manifest = {**res.to_json(), "argv": list(argv or []), "command": res.settings.command(),
                PROVENANCE_KEY: prov.to_json(), "versions": package_versions(),
                "created": now_iso(),
                "files": sorted([*files, RUN_JSON, REPORT_HTML])}
    (stage / RUN_JSON).write_text(dumps(manifest), encoding="utf-8")
    for name in [*files, RUN_JSON]:
        os.replace(stage / name, p / name)
    stage.rmdir()
    for name in [*(f"{t}.parquet" for t in TABLES), *PLOT_FILES, REPORT_MD]:
        if name not in manifest["files"]:  # a previous balance report's file
            (p / name).unlink(missing_ok=True)
    write_html(p)
    return manifest["files"]
