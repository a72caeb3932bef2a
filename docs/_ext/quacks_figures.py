"""Draw the tutorials' figures and the sample reports before the pages are read, when they are
missing or were made from something else (``docs/examples/make_figures.py --stale``); CI draws
them afresh before every build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "make_figures.py"


def _draw(app) -> None:
    if subprocess.run([sys.executable, str(SCRIPT), "--stale"], check=False).returncode == 0:
        return
    from sphinx.util import logging

    logging.getLogger(__name__).info("drawing the figures and sample reports (make_figures.py)")
    res = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                         check=False)
    if res.returncode != 0:
        raise RuntimeError(f"docs/examples/make_figures.py failed:\n{res.stdout}{res.stderr}")


def setup(app):
    app.connect("builder-inited", _draw)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
