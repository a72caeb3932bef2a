"""What a report folder keeps of its run that a command reads before anything compiles: the
names of its run files and the settings a run (interrupted or finished) saved. This module
imports no kernel, so a resumed run can load the rules files its settings name first (the
kernel's hook tables are generated with them)."""

from __future__ import annotations

import json
from pathlib import Path

RUN_FILE = "run.json"
STATE_FILE = ".run.json.partial"  # an interrupted tournament's settings and progress
SWEEP_STATE = ".sweep.json.partial"  # an interrupted sweep's


def read_saved_settings(path: str | Path) -> dict | None:
    """Settings of the run in a report directory (interrupted or complete), or None."""
    p = Path(path)
    for name in (STATE_FILE, SWEEP_STATE, RUN_FILE):
        f = p / name
        if f.is_file():
            try:
                return json.loads(f.read_text())["settings"]
            except (OSError, ValueError, KeyError, TypeError):
                return None
    return None


def nothing_to_resume(out: str | Path) -> bool:
    """True when ``out`` holds no run (interrupted or finished) that ``resume`` could continue."""
    return not any((Path(out) / n).is_file() for n in (STATE_FILE, SWEEP_STATE, RUN_FILE))
