"""The report folder of a study run over variants (``quacks exploit``, ``quacks styles``), declared
once per study (``VariantsReport``: its tables, figures, intervals and markdown): its plot jobs
and its writer (the tables as parquet and CSV, the figures, ``report.md``, ``run.json``, whose
provenance names every variant's ruleset and hash, and ``report.html``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path


@dataclass(frozen=True, eq=False)
class VariantsReport:
    """What a study's report over variants is made of."""

    kind: str  # the command: exploit, styles
    table_names: tuple[str, ...]  # res.tables written as parquet and CSV
    interval_methods: dict  # interval -> how it is computed (run.json, report.html)
    report_markdown: Callable  # (res, figure file names, provenance) -> report.md's text
    figures: tuple[tuple[str, Callable], ...]  # (PNG file name, function of res drawing it)

    def plot_jobs(self, res) -> list[tuple[str, Callable[[], object]]]:
        """(PNG file name, function drawing the figure) for a result ``res``."""
        return [(name, partial(figure, res)) for name, figure in self.figures]

    def write_report(self, res, out: str | Path, *, force: bool = False,
                     argv: Sequence[str] | None = None) -> list[str]:
        """Write the report folder of ``res`` to ``out``; returns its file names."""
        from sim.study.design.folder import drawn, write_study_report
        from sim.study.reports.provenance import make_provenance

        prov = make_provenance(res.settings.command(), argv=argv, seed=res.settings.seed,
                               rules=[(rs.display, rs.hash) for rs in res.plan.rulesets])
        figs = drawn(self.plot_jobs(res))
        return write_study_report(res, out, kind=self.kind, table_names=self.table_names,
                                  figures=figs,
                                  markdown=self.report_markdown(res, [n for n, _ in figs], prov),
                                  interval_methods=self.interval_methods, force=force,
                                  argv=argv, provenance=prov, csv=True)
