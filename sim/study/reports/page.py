"""What a report folder holds, read for its one-page view (``report.html``, see
``sim.study.reports.html``): the manifest (what was run: the command, the seed, the versions, the
date), every table (parquet and CSV; the first ``MAX_ROWS`` rows of each), every figure (PNG and
SVG, as data URIs), the markdown summaries and the reports inside it (a sweep's per-value
folders).

Every kind of report folder has one manifest, and that is how a folder is recognised:
``run.json`` (tournament, sweep, compare: its ``kind`` says which), ``experiment.json``,
``tune.json`` or ``thresholds.json``. The files shown are the ones the manifest lists
(``files``) and any report file drawn since (``quacks plot``), or, for a manifest without that
list (experiment), every file in the folder and its sub-folders, hidden names and the folders of
other reports left out (tune and thresholds write into any folder: the list keeps other files
out of their page). Nothing here depends on where the folder is or on the time it is read: the
same folder always gives the same page.
"""

from __future__ import annotations

import base64
import csv
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from sim.study.reports.files import (
    PLOT_FILES,
    REPORT_HTML,
    RUN_FILE,
    TABLE_FILES,
    known_files,
)
from sim.study.reports.provenance import PROVENANCE_KEY, Provenance, typed_command
from sim.study.reports.schema import ReportError

MAX_ROWS = 50  # rows shown of each table; the page says how many the file holds
MANIFEST_TEXT_CHARS = 200_000  # the manifest shown in full up to this many characters
MANIFESTS = (RUN_FILE, "experiment.json", "tune.json", "thresholds.json")
TABLE_SUFFIXES = (".parquet", ".csv")
FIGURE_TYPES = {".png": "image/png", ".svg": "image/svg+xml"}
MARKDOWN_SUFFIX = ".md"
TITLES = {"tournament": "Tournament", "sweep": "Sweep", "compare": "Rulesets compared",
          "experiment": "Experiment", "tune": "Tune", "thresholds": "Stop thresholds",
          "balance": "Balance", "sensitivity": "Sensitivity", "design": "Rule design"}


@dataclass
class Table:
    """One table file: its name (path in the folder), the rows it holds, its header, which
    columns are numbers, and the first rows as text (or why it cannot be read)."""

    name: str
    rows: int = 0
    columns: list[str] = field(default_factory=list)
    numeric: list[bool] = field(default_factory=list)
    cells: list[list[str]] = field(default_factory=list)
    error: str | None = None

    @property
    def truncated(self) -> bool:
        """True when the page shows fewer rows than the file holds."""
        return len(self.cells) < self.rows


@dataclass
class Figure:
    """One figure file and its content as a data URI."""

    name: str
    data_uri: str


@dataclass
class Manifest:
    """What was run, as the page shows it at the top."""

    file: str
    kind: str
    title: str
    commands: list[tuple[str, str]]
    facts: list[tuple[str, str]]
    versions: list[tuple[str, str]]
    text: str  # the manifest itself, pretty-printed (cut at MANIFEST_TEXT_CHARS)
    cut: bool
    results: list[tuple[str, str]] = field(default_factory=list)  # kinds without a summary
    provenance: list[tuple[str, str]] = field(default_factory=list)  # Provenance.rows()


@dataclass
class Page:
    """Everything a report folder's page shows."""

    manifest: Manifest
    markdown: list[tuple[str, str]]  # (file name, text)
    tables: list[Table]
    figures: dict[str, Figure]  # by name, in page order
    reports: list[tuple[str, str | None]]  # (folder name, link to its page or None)
    notes: list[str]


# --- the manifest ------------------------------------------------------------------------------

def find_manifest(folder: str | Path) -> tuple[str, str, dict]:
    """(kind, manifest file name, manifest) of the report in ``folder``; ReportError if it is not
    a report folder."""
    p = Path(folder)
    if not p.exists():
        raise ReportError(f"{p}: no such folder")
    if not p.is_dir():
        raise ReportError(f"{p}: a file; give a report folder (the --out of a quacks command)")
    for name in MANIFESTS:
        f = p / name
        if f.is_file():
            try:
                data = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise ReportError(f"{f}: cannot be read ({_short(e)}); the report is damaged: "
                                  "run it again") from None
            if not isinstance(data, dict):
                raise ReportError(f"{f}: not a report manifest (a JSON object)")
            if not data:
                raise ReportError(f"{f}: an empty manifest (it records no run); the report is "
                                  "damaged: run it again")
            kind = str(data.get("kind") or "tournament") if name == RUN_FILE else name[:-5]
            return kind, name, data
    unfinished = any(n.startswith(".") and n.endswith(".partial") for n in os.listdir(p))
    hint = ("; it holds an unfinished run: finish it with --resume first" if unfinished else
            "; give the --out folder of quacks tournament, sweep, tune, compare, balance, "
            "thresholds or experiment run")
    raise ReportError(f"{p}: not a report folder (no {', '.join(MANIFESTS)}){hint}")


def _first(*values):
    return next((v for v in values if v is not None and v != "" and v != []), None)


def _text(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(_text(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def _rules(m: dict, s: dict) -> str | None:
    rules = _first(m.get("rules"), s.get("rules"))
    if isinstance(rules, list):  # compare: one entry per ruleset
        return None
    over = _first(m.get("overrides"), s.get("overrides")) or []
    if rules is None:
        return None
    return str(rules) + "".join(f" + {o}" for o in over)


def _ci(m: dict, key: str, digits: int = 4, sign: bool = False) -> str | None:
    """``value [lo, hi]`` of ``m[key]`` and ``m[key + "_ci"]`` (None if the value is missing)."""
    v, ci = m.get(key), m.get(f"{key}_ci")
    if not isinstance(v, (int, float)):
        return None
    f = f"{'+' if sign else ''}.{digits}f"
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci):
        return f"{v:{f}} [{ci[0]:{f}}, {ci[1]:{f}}]"
    return f"{v:{f}}"


def _best(b) -> str | None:
    if isinstance(b, str):
        return b
    if not isinstance(b, dict) or "rule" not in b:
        return None
    regret = b.get("regret")
    return f"{b['rule']}" + (f" (regret {regret:.4f})" if isinstance(regret, (int, float)) else "")


def results_view(kind: str, m: dict) -> list[tuple[str, str]]:
    """The headline results of the kinds whose folder has no markdown summary (tune,
    thresholds), with their 95% intervals."""
    if kind == "tune":
        rows = [("best", m.get("best")), ("best win share (re-test, 95% CI)",
                                          _ci(m, "best_win_share")),
                ("start", m.get("start")),
                ("start win share (re-test, 95% CI)", _ci(m, "start_win_share")),
                ("improvement, paired by deal (95% CI)", _ci(m, "improvement", sign=True)),
                ("candidates", m.get("evaluations")), ("re-test deals", m.get("retest_deals"))]
    elif kind == "thresholds":
        opt = m.get("optimal") if isinstance(m.get("optimal"), dict) else {}
        rows = [("best stop rule", _best(m.get("best_rule"))),
                ("best white total", _best(m.get("best_white"))),
                ("best risk", _best(m.get("best_risk"))),
                ("optimal stopper's value (VP)", _ci(opt, "expected_value")),
                ("note", m.get("policy_note"))]
    else:
        return []
    return [(k, _text(v)) for k, v in rows if v is not None and v != ""]


def _commands(kind: str, m: dict, prov: Provenance | None) -> list[tuple[str, str]]:
    """(label, command): the command as given and the one that reproduces the run (a manifest
    written before the provenance was saved: its ``command``, when it has one)."""
    if prov is not None:
        given, canonical = prov.given, prov.command
    else:
        given = typed_command(m.get("argv"))
        if kind == "experiment":
            given = _first(m.get("command"), given)
        canonical = m.get("command") if kind != "experiment" else None
    out = [("command as given", given)] if given else []
    if isinstance(canonical, str) and canonical and canonical != given:
        out.append(("reproduce with", canonical))
    return out


def manifest_view(kind: str, name: str, m: dict) -> Manifest:
    """The manifest of a report as the page shows it: title, commands, facts, provenance and
    versions."""
    s = m.get("settings") if isinstance(m.get("settings"), dict) else {}
    exp = m.get("experiment") if isinstance(m.get("experiment"), dict) else {}
    prov = Provenance.from_json(m.get(PROVENANCE_KEY))
    commands = _commands(kind, m, prov)
    compare_rules = [r.get("rules") for r in m.get("rulesets", []) if isinstance(r, dict)]
    facts = [
        ("seed", None if prov is not None else _first(m.get("seed"), s.get("seed"),
                                                      exp.get("seed"))),
        ("rules", _rules(m, s) or exp.get("rules")),
        ("rulesets", compare_rules or None),
        ("strategy", _first(s.get("strategy"), s.get("spec"))),
        ("field", _first(s.get("vs"), m.get("strategies") if kind in ("compare", "balance")
                         else None)),
        ("strategies", [x.get("name") for x in m.get("strategies", []) if isinstance(x, dict)]
         if kind == "tournament" else None),
        ("format", m.get("format")),
        ("players", _first(m.get("players"), s.get("players"), exp.get("players"))),
        ("games", _first(m.get("games"), m.get("games_total"))),
        ("deals", m.get("deals")),
        ("bag", m.get("bag")),
        ("started", m.get("started")),
        ("finished", m.get("finished")),
        ("created", m.get("created")),
        ("wall time", f"{m['wall_seconds_total']} s" if "wall_seconds_total" in m else
         (f"{m['seconds']} s" if isinstance(m.get("seconds"), (int, float)) else None)),
    ]
    if kind == "thresholds" and prov is None:
        if facts[0][1] is None:  # exact: no random draws
            facts[0] = ("seed", "none (computed exactly)")
        facts.append(("computed", "exactly" if m.get("exact") else "by sampling"))
    title = TITLES.get(kind, kind)
    if kind == "experiment" and exp.get("title"):
        title = f"{title}: {exp['title']}"
    versions = m.get("versions") if isinstance(m.get("versions"), dict) and prov is None else {}
    text = json.dumps(m, indent=2, ensure_ascii=False)
    return Manifest(name, kind, title, commands,
                    [(k, _text(v)) for k, v in facts if v is not None and v != [] and v != ""],
                    [(str(k), str(v)) for k, v in versions.items()],
                    text[:MANIFEST_TEXT_CHARS], len(text) > MANIFEST_TEXT_CHARS,
                    results_view(kind, m), prov.rows() if prov is not None else [])


# --- the files ---------------------------------------------------------------------------------

def _is_report(folder: Path) -> bool:
    return any((folder / n).is_file() for n in MANIFESTS)


def _listed(p: Path, m: dict) -> list[str] | None:
    files = m.get("files")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    root = p.resolve()
    out = []
    for f in files:
        q = (p / f).resolve()
        if q.is_relative_to(root) and q.is_file():
            out.append(q.relative_to(root).as_posix())
    return out


def _walk(p: Path) -> list[str]:
    out = []
    for here, dirs, names in os.walk(p):
        h = Path(here)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not _is_report(h / d))
        out += [(h / n).relative_to(p).as_posix() for n in sorted(names) if not n.startswith(".")]
    return out


def sub_reports(folder: Path) -> list[tuple[str, str | None]]:
    """The reports in the folder's sub-folders: (name, relative link to its page or None)."""
    from urllib.parse import quote

    out = []
    for d in sorted(x for x in folder.iterdir() if x.is_dir() and not x.name.startswith(".")):
        if _is_report(d):
            out.append((d.name, f"{quote(d.name)}/{REPORT_HTML}"
                        if (d / REPORT_HTML).is_file() else None))
    return out


def _folder_order(m: dict) -> list[str]:
    """Sub-folders in the order the manifest runs them (an experiment's parts)."""
    exp = m.get("experiment") if isinstance(m.get("experiment"), dict) else {}
    return [str(x.get("name")) for x in exp.get("parts", []) if isinstance(x, dict)]


def cell_text(v) -> str:
    """A table cell as the page shows it: integers whole, other numbers to 6 significant
    digits, missing values empty."""
    import numpy as np
    import pandas as pd

    if v is None or (np.ndim(v) == 0 and not isinstance(v, str) and pd.isna(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return "" if math.isnan(f) else format(f, ".6g")
    return str(v)


def _frame_table(name: str, df, rows: int) -> Table:
    import pandas as pd

    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    numeric = [bool(pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t))
               for t in df.dtypes]
    cells = [[cell_text(v) for v in row] for row in df.head(MAX_ROWS).itertuples(index=False)]
    return Table(name, rows, [str(c) for c in df.columns], numeric, cells)


def read_table(folder: Path, name: str) -> Table:
    """The first ``MAX_ROWS`` rows of a parquet or CSV file and the number of rows it holds
    (reading no more of a parquet file than those rows); a file that cannot be read gives a
    table with an error."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = folder / name
    try:
        if name.endswith(".parquet"):
            with pq.ParquetFile(f) as pf:
                rows = pf.metadata.num_rows
                batches, n = [], 0
                for b in pf.iter_batches(batch_size=MAX_ROWS):
                    batches.append(b)
                    n += b.num_rows
                    if n >= MAX_ROWS:
                        break
                t = pa.Table.from_batches(batches, schema=pf.schema_arrow)
            return _frame_table(name, t.slice(0, MAX_ROWS).to_pandas(), rows)
        with open(f, newline="", encoding="utf-8") as fh:
            rows = max(0, sum(1 for _ in csv.reader(fh)) - 1)
        try:
            df = pd.read_csv(f, nrows=MAX_ROWS)
        except pd.errors.EmptyDataError:
            return Table(name, 0)
        return _frame_table(name, df, rows)
    except Exception as e:  # noqa: BLE001 - pyarrow and pandas raise many kinds for a bad file
        return Table(name, error=f"cannot be read: {_short(e)}")


def data_uri(path: Path) -> str:
    """A figure file as a data URI (base64)."""
    mime = FIGURE_TYPES[path.suffix.lower()]
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def _declared(name: str) -> int:
    """Where a file comes in the report's declarations (tables, then plots); others after."""
    declared = [*TABLE_FILES.values(), *PLOT_FILES]
    base = name.rsplit("/", 1)[-1]
    return declared.index(base) if base in declared else len(declared)


def read_page(folder: str | Path) -> Page:
    """Everything the page of the report in ``folder`` shows; ReportError if it is not one."""
    p = Path(folder)
    kind, mname, m = find_manifest(p)
    names = _listed(p, m)
    if names is None:
        names = _walk(p)
    else:  # and the report files drawn since (quacks plot)
        names += [n for n in known_files() if n not in names and not n.startswith(".")
                  and (p / n).is_file()]
    names = [n for n in names if n not in MANIFESTS and n != REPORT_HTML]
    order = _folder_order(m)

    def folder_rank(n: str) -> tuple:
        """The folder's files first, then each sub-folder's, in the manifest's order."""
        top = n.split("/", 1)[0] if "/" in n else ""
        if not top:
            return (0, 0, "")
        return (1, order.index(top), "") if top in order else (2, 0, top)

    notes = []
    tables = [read_table(p, n) for n in names if n.lower().endswith(TABLE_SUFFIXES)]
    tables.sort(key=lambda t: (folder_rank(t.name), t.truncated, _declared(t.name), t.name))
    notes += [f"{t.name}: {t.error}" for t in tables if t.error]
    figures = {}
    for n in sorted((n for n in names if Path(n).suffix.lower() in FIGURE_TYPES),
                    key=lambda n: (folder_rank(n), _declared(n), n)):
        try:
            figures[n] = Figure(n, data_uri(p / n))
        except OSError as e:
            notes.append(f"{n}: cannot be read ({_short(e)})")
    markdown = []
    for n in sorted((n for n in names if n.lower().endswith(MARKDOWN_SUFFIX)),
                    key=lambda n: (folder_rank(n), n)):
        try:
            markdown.append((n, (p / n).read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as e:
            notes.append(f"{n}: cannot be read ({_short(e)})")
    return Page(manifest_view(kind, mname, m), markdown, tables, figures, sub_reports(p), notes)


def _short(e: Exception) -> str:
    return " ".join(str(e).split())[:160] or type(e).__name__
