"""``quacks-report-columns``: every column of every report file.

- ``games.parquet`` and ``rounds.parquet`` from their declarations: the column types of
  ``sim.study.reports.schema`` (``GAME_TYPES``, ``ROUND_TYPES``, the witches column) and, for
  the columns the kernel's records become, the field's own text (``sim.kernel.records``:
  ``RESULT``, ``ROUND``). The layout columns (which game, deal, seat) are described in
  ``LAYOUT`` below; a column with no text fails the build.
- Every other table, from the report folders a tiny run of each command wrote
  (``docs/examples/make_figures.py``, ``SAMPLE_RUNS``, in ``docs/_generated/runs``): each CSV and
  parquet file with its columns and their types as written, and the top-level keys of each JSON
  file. A ``*_ci_lo`` / ``*_ci_hi`` column is the 95% interval of the column it names.
"""

from __future__ import annotations

import json
from pathlib import Path

from docnodes import para, section, table
from docutils.parsers.rst import Directive

RUNS = Path(__file__).resolve().parents[1] / "_generated" / "runs"

# The columns that say which game a row is (sim.study.tournament.plan lays them out).
LAYOUT = {
    "game": "the game's number in the run: deal, then table, then rotation",
    "deal": "the deal (the kernel's game index): with the seed, it fixes every draw and die roll",
    "seed": "the run seed",
    "combo": "the table: which combination of strategies sat together (round-robin; else 0)",
    "rotation": "the rotation of the table's seats (strategy (s + r) % N sits at seat s)",
    "seat": "the seat, 0-based (seat 0 starts round 1)",
    "strategy": "the strategy spec of the seat",
    "round": "the round, 1-based",
}


def record_docs(tab) -> dict[str, str]:
    """Report column -> its text, from a record declaration (``sim.kernel.records.RESULT`` or
    ``ROUND``); a field spread over several columns (one per colour) names the column's part.
    ``win_share`` comes from two fields (numerator and tie count): its text says both."""
    docs = {}
    for f in tab.named():
        if f.internal:
            continue
        for col in f.columns:
            suffix = f" ({col.rsplit('_', 1)[1]})" if len(f.columns) > 1 else ""
            docs[col] = f"{docs[col]}; {f.doc}" if col in docs else f.doc + suffix
    return docs


def _declared(types: dict, docs: dict[str, str], name: str):
    rows = []
    for col, t in types.items():
        text = LAYOUT.get(col) or docs.get(col)
        if not text:
            raise ValueError(f"{name}: no description for column {col!r}")
        rows.append([f"`{col}`", str(t), text])
    return table(["column", "type", "what it holds"], rows, [3, 3, 9], ("quacks-ref",))


def derived_text(col: str, columns: list[str]) -> str:
    """What a column of a sample report holds, where its name says it."""
    for end, which in (("_ci_lo", "lower"), ("_ci_hi", "upper"), ("_lo", "lower"),
                       ("_hi", "upper")):
        base = col[: -len(end)]
        if col.endswith(end) and base in columns:
            return f"{which} end of the 95% interval of `{base}`"
    return ""


def _file_table(path: Path):
    import pandas as pd
    import pyarrow.parquet as pq

    if path.suffix == ".parquet":
        schema = pq.read_schema(path)
        cols = [(f.name, str(f.type)) for f in schema]
    else:
        df = pd.read_csv(path)
        cols = [(c, str(t)) for c, t in df.dtypes.items()]
    names = [c for c, _ in cols]
    rows = [[f"`{c}`", t, derived_text(c, names)] for c, t in cols]
    return table(["column", "type", "what it holds"], rows, [3, 3, 9], ("quacks-ref",))


class QuacksReportColumns(Directive):
    """See the module docstring."""

    def run(self):
        from sim.kernel.records import RESULT, ROUND
        from sim.study.reports.schema import GAME_TYPES, ROUND_TYPES, WITCHES_TYPE

        out = []
        sec = section("games.parquet and rounds.parquet", "games-and-rounds")
        sec += para("One row per game and seat (`games.parquet`), and with `--detail rounds` one "
                    "row per game, round and seat (`rounds.parquet`); `witches` only under a "
                    "ruleset with the herb witches (bit w: the seat called witch w this game; "
                    "bit 16 + w: she was in play).")
        sub = section("games.parquet", "games-parquet")
        sub += _declared({**GAME_TYPES, "witches": WITCHES_TYPE}, record_docs(RESULT),
                         "games.parquet")
        sec += sub
        sub = section("rounds.parquet", "rounds-parquet")
        sub += _declared(ROUND_TYPES, record_docs(ROUND), "rounds.parquet")
        sec += sub
        out.append(sec)
        if not RUNS.is_dir():
            raise self.error(f"no sample reports in {RUNS}: run docs/examples/make_figures.py")
        for folder in sorted(p for p in RUNS.iterdir() if p.is_dir()):
            sec = section(f"quacks {folder.name.replace('-', ' ')}", f"report-{folder.name}")
            self._folder(sec, folder, folder)
            out.append(sec)
        return out

    def _folder(self, sec, folder: Path, top: Path) -> None:
        files = sorted(p for p in folder.rglob("*") if p.is_file()
                       and p.suffix in (".csv", ".parquet", ".json")
                       and p.name not in ("games.parquet", "rounds.parquet"))
        seen = set()
        for f in files:
            rel = f.relative_to(top)
            key = (rel.name, rel.parent.name if len(rel.parts) > 2 else "")
            if key in seen:  # one value's folder of a sweep is enough
                continue
            seen.add(key)
            title = str(rel)
            sub = section(title, f"{top.name}-{title}".replace("/", "-").replace(".", "-"))
            if f.suffix == ".json":
                keys = list(json.loads(f.read_text(encoding="utf-8")))
                sub += para("top-level keys: " + ", ".join(f"`{k}`" for k in keys))
            else:
                sub += _file_table(f)
            sec += sub


def setup(app):
    app.add_directive("quacks-report-columns", QuacksReportColumns)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
