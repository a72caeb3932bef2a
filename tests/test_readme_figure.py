"""README's figure is drawn by one of README's own examples (``quacks thresholds ... --png
docs/img/thresholds_start.png --csv docs/img/thresholds_start.csv``); the committed table beside
it must be what that command computes today, so a figure whose numbers drifted fails here."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
FIGURE = "docs/img/thresholds_start.png"
TABLE = "docs/img/thresholds_start.csv"


def _command() -> list[str]:
    """README's example that writes the figure, as arguments."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("$ quacks") and FIGURE in x)
    assert f"]({FIGURE})" in text, "README shows the figure its example draws"
    return re.sub(r"^\$ ", "", line).split()


def test_the_readme_figure_is_drawn_from_todays_numbers(tmp_path):
    (tmp_path / "docs" / "img").mkdir(parents=True)
    subprocess.run(_command(), cwd=tmp_path, check=True, capture_output=True, text=True)
    assert (tmp_path / FIGURE).stat().st_size > 10_000
    assert (ROOT / FIGURE).is_file()
    now = pd.read_csv(tmp_path / TABLE)
    committed = pd.read_csv(ROOT / TABLE)
    pd.testing.assert_frame_equal(now, committed, check_exact=False, rtol=1e-12)
