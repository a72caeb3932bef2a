"""The directory of a sweep: per-value reports in sub-directories, the sweep table on top
(``sweep.csv``, ``sweep.md``, ``sweep.png``, ``run.json``), written atomically."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from sim.rules.ruleset import rules_label
from sim.study.reports.files import (
    REPORT_HTML,
    RUN_FILE,
    STAGING,
    SWEEP_STATE,
    atomic_write_text,
    check_writable,
    dumps,
    now_iso,
    open_out,
    package_versions,
    read_saved_settings,
    settings_diff,
    sweep_command,
)
from sim.study.reports.html import write_html
from sim.study.reports.markdown import sweep_markdown
from sim.study.reports.provenance import PROVENANCE_KEY, make_provenance
from sim.study.reports.schema import ReportError
from sim.study.sweep.plots import render_sweep


class SweepWriter:
    """Owns a sweep directory: per-value reports in sub-directories, the sweep table on top."""

    def __init__(self, path: Path, settings: dict, subdirs: Sequence[str], *, resume: bool = False,
                 force: bool = False, argv: Sequence[str] | None = None):
        self.path = Path(path)
        self.settings = settings
        self.subdirs = list(subdirs)
        self.argv = list(argv) if argv is not None else list(sys.argv)
        self.started = now_iso()
        p = self.path
        if open_out(p, resume=resume, force=force, state_file=SWEEP_STATE, what="sweep",
                    extra_dirs=self._previous_subdirs()):
            saved = read_saved_settings(p)
            if saved is None:
                raise ReportError(f"--resume: {p} holds no quacks sweep to resume")
            d = settings_diff(saved, settings)
            if d:
                raise ReportError(f"--resume: {p} holds a sweep with other settings ({d}); "
                                  "repeat its command with --resume, or use --force to start "
                                  "over")
        check_writable(p)
        atomic_write_text(p / SWEEP_STATE, dumps({"settings": settings, "argv": self.argv,
                                                  "started": self.started,
                                                  "subdirs": self.subdirs}))

    def _previous_subdirs(self) -> list[str]:
        for name in (SWEEP_STATE, RUN_FILE):
            f = self.path / name
            if f.is_file():
                try:
                    return list(json.loads(f.read_text()).get("subdirs", []))
                except (OSError, ValueError):
                    return []
        return []

    def finish(self, res, *, plots: bool = True) -> list[str]:
        """Write sweep.csv, sweep.md, sweep.png, run.json and report.html (atomically); return
        the names."""

        p = self.path
        stage = p / STAGING
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir()
        res.table.to_csv(stage / "sweep.csv", index=False)
        files = ["sweep.csv", "sweep.md"]
        md = sweep_markdown(res)
        if res.sequential_alpha is not None:
            from sim.study.sweep.sequential import sequential_markdown

            md += "\n" + sequential_markdown(res)
        (stage / "sweep.md").write_text(md, encoding="utf-8")
        if plots:
            files += render_sweep(res.table, res.settings, stage)
        st = res.settings
        prov = make_provenance(sweep_command(st), argv=self.argv, seed=st["seed"],
                               rules=[(rules_label(st["rules"], st["overrides"]),
                                       st["rules_hash"])])
        manifest = {**res.to_json(), "settings": st, "argv": self.argv,
                    PROVENANCE_KEY: prov.to_json(),
                    "subdirs": self.subdirs, "versions": package_versions(),
                    "started": self.started,
                    "finished": now_iso(), "files": sorted(files + [RUN_FILE, REPORT_HTML])}
        (stage / RUN_FILE).write_text(dumps(manifest), encoding="utf-8")
        for name in files:
            os.replace(stage / name, p / name)
        os.replace(stage / RUN_FILE, p / RUN_FILE)
        stage.rmdir()
        (p / SWEEP_STATE).unlink(missing_ok=True)
        write_html(p)  # the sweep's page, with links to the page of every value's report
        return manifest["files"]
