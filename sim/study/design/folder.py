"""A report folder written whole or not at all: the tables as parquet, the figures as PNG,
``report.md``, the manifest ``run.json`` (what was run: ``kind``, the command as given and the
one that reproduces it, the seed, the versions, the date and the files, which is what
``report.html`` reads) and ``report.html``.

Everything goes into ``OUT/.staging`` first and is moved into place at the end, ``run.json``
last; an error or Ctrl-C leaves no staging files behind. The files of an earlier report of the
same kind that this one does not write are removed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from sim.study.reports.files import REPORT_MD, staging_folder
from sim.study.reports.files import RUN_FILE as RUN_JSON


def check_out(path: str | Path, force: bool = False) -> None:
    """Raise a one-line ValueError unless ``path`` can take a report (new, empty, or
    ``force``); changes nothing on disk."""
    from sim.study.compare.run import check_out as check

    check(path, force)


def _earlier_files(p: Path, kind: str) -> list[str]:
    """The files an earlier report of this kind in ``p`` listed (none for another kind)."""
    try:
        m = json.loads((p / RUN_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(m, dict) or m.get("kind") != kind or not isinstance(m.get("files"), list):
        return []
    return [f for f in m["files"] if isinstance(f, str) and "/" not in f and f != RUN_JSON]


def write_folder(out: str | Path, *, kind: str, tables: Mapping[str, pd.DataFrame | None],
                 figures: Sequence[tuple[str, Figure]], markdown: str, manifest: dict,
                 force: bool = False, csv: bool = False) -> list[str]:
    """Write the report folder ``out`` (see the module); ``manifest`` is the JSON result and
    settings, to which ``kind``, ``versions``, ``created`` and ``files`` are added; with
    ``csv`` every table is also written as CSV. Returns the file names (sorted)."""
    p = Path(out)
    check_out(p, force)
    with staging_folder(p) as stage:
        return _write(p, stage, kind, tables, figures, markdown, manifest, csv)


def study_provenance(res, argv: Sequence[str] | None = None):
    """A sensitivity or design run's :class:`~sim.study.reports.provenance.Provenance`."""
    from sim.study.reports.provenance import make_provenance

    rs = res.plan.base
    return make_provenance(res.settings.command(), argv=argv, seed=res.settings.seed,
                           rules=[(rs.display, rs.hash)])


def write_study_report(res, out: str | Path, *, kind: str, table_names: Sequence[str],
                       figures: Sequence[tuple[str, Figure]], markdown: str,
                       interval_methods: dict, force: bool = False,
                       argv: Sequence[str] | None = None, provenance=None,
                       csv: bool = False) -> list[str]:
    """A study's report folder (``sensitivity``, ``design``): the named tables of ``res``, the
    figures and ``report.md``, and a manifest of its JSON result with the command line as given
    (``argv``), the command that reproduces it, its provenance (default
    :func:`study_provenance`) and how its intervals were made."""
    from sim.study.reports.provenance import PROVENANCE_KEY

    prov = provenance if provenance is not None else study_provenance(res, argv)
    manifest = {**res.to_json(), "argv": list(argv or []), "command": res.settings.command(),
                PROVENANCE_KEY: prov.to_json(), "interval_methods": interval_methods}
    return write_folder(out, kind=kind, tables={t: res.tables.get(t) for t in table_names},
                        figures=figures, markdown=markdown, manifest=manifest, force=force,
                        csv=csv)


def drawn(jobs) -> list[tuple[str, Figure]]:
    """(file name, figure) of every plot job ``(file name, draw)``, drawn."""
    return [(name, draw()) for name, draw in jobs]


def write_drawn_report(res, out: str | Path, *, kind: str, jobs, report_markdown,
                       table_names: Sequence[str], interval_methods: dict, force: bool = False,
                       argv: Sequence[str] | None = None) -> list[str]:
    """:func:`write_study_report` with the plot jobs drawn and ``report.md`` written by
    ``report_markdown(res, figure names, provenance)``; returns the folder's file names."""
    figs = drawn(jobs)
    prov = study_provenance(res, argv)
    return write_study_report(res, out, kind=kind, table_names=table_names, figures=figs,
                              markdown=report_markdown(res, [n for n, _ in figs], prov),
                              interval_methods=interval_methods, force=force, argv=argv,
                              provenance=prov)


def _write(p: Path, stage: Path, kind: str, tables, figures, markdown: str,
           manifest: dict, csv: bool = False) -> list[str]:
    from sim.study.common.plot_style import save_png
    from sim.study.reports.files import REPORT_HTML, dumps, now_iso, package_versions
    from sim.study.reports.html import write_html

    earlier = _earlier_files(p, kind)
    files = []
    for name, df in tables.items():
        if df is not None and len(df):
            df.to_parquet(stage / f"{name}.parquet", index=False)
            files.append(f"{name}.parquet")
            if csv:
                df.to_csv(stage / f"{name}.csv", index=False)
                files.append(f"{name}.csv")
    for name, fig in figures:
        files.append(save_png(fig, stage, name))
    (stage / REPORT_MD).write_text(markdown, encoding="utf-8")
    files.append(REPORT_MD)
    full = {**manifest, "kind": kind, "versions": package_versions(), "created": now_iso(),
            "files": sorted([*files, RUN_JSON, REPORT_HTML])}
    (stage / RUN_JSON).write_text(dumps(full), encoding="utf-8")
    for name in [*files, RUN_JSON]:
        os.replace(stage / name, p / name)
    stage.rmdir()
    for name in earlier:
        if name not in full["files"]:
            (p / name).unlink(missing_ok=True)
    write_html(p)
    return full["files"]

