"""What every report plot shares so a reader can use it: line styles that stay apart when there
are more lines than colours, colour-blind-safe colour maps, the smallest text size, and seat
labels (seats are numbered from 1 in every table and plot a person reads; the tables for
programs, ``games.parquet`` and ``seats.csv``, keep the 0-based ``seat`` index)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

# Strategy colours: hues kept apart from the chip colours (sim.study.reports.plots.CHIP_COLOURS),
# so that no strategy is drawn in a chip's colour. Beyond five strategies the colours repeat with
# another line style (lines) or hatch (bars).
LINE_COLOURS = ("#00897b", "#c51b8a", "#827717", "#3949ab", "#6d4c41")
LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")

# Colour maps readable with red-green colour blindness: sequential and diverging (no red-green).
SEQUENTIAL_CMAP = "cividis"
DIVERGING_CMAP = "PuOr"
RED_GREEN_CMAPS = frozenset({"RdYlGn", "RdYlGn_r", "RdGy", "PiYG", "PiYG_r", "PRGn", "PRGn_r",
                             "RdYlBu", "Spectral", "brg", "jet", "hsv", "rainbow", "gist_rainbow"})

MIN_TEXT_PT = 9  # the smallest text a report plot prints (cell labels, ticks, legends)


def line_style(i: int) -> dict:
    """Matplotlib keywords (colour, line style, marker) of line ``i``: the first five lines
    differ by colour, and every later block of five repeats the colours with another line style
    and marker, so no two of the first 20 lines share a colour and a line style."""
    n = len(LINE_COLOURS)
    return {"color": LINE_COLOURS[i % n], "linestyle": LINE_STYLES[(i // n) % len(LINE_STYLES)],
            "marker": MARKERS[(i // n) % len(MARKERS)]}


def seat_label(seat: int) -> str:
    """How a person reads the 0-based seat index ``seat``: ``seat 1`` is the start player of
    round 1."""
    return f"seat {int(seat) + 1}"


DPI = 110
BOTTOM_LEGEND = {"loc": "outside lower center", "fontsize": 8, "frameon": False}


def palette(n: int) -> list:
    """The colours of n strategies (repeating after five)."""
    return [LINE_COLOURS[i % len(LINE_COLOURS)] for i in range(n)]


def new_figure(width: float, height: float) -> Figure:
    """A figure with constrained layout, which leaves room for legends outside the axes."""
    return Figure(figsize=(width, height), layout="constrained")


def save_png(fig: Figure, outdir: Path, name: str, dpi: int = DPI) -> str:
    """Write ``fig`` as ``outdir/name`` through a temporary name (removed on an error); return
    the name."""
    tmp = Path(outdir) / f".{name}.partial"
    try:
        fig.savefig(tmp, format="png", dpi=dpi)
        os.replace(tmp, Path(outdir) / name)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return name


def integer_ticks(axis) -> None:
    """Ticks at whole numbers only on a matplotlib ``Axis`` (``ax.xaxis``, ``ax.yaxis``) that
    shows an integer parameter: no tick at 4.5 for a threshold that is 4 or 5."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def error_bars(m, lo, hi) -> list:
    """Error-bar lengths below and above (never negative; NaN as 0)."""
    m, lo, hi = (np.nan_to_num(np.asarray(x, dtype=float)) for x in (m, lo, hi))
    return [np.clip(m - lo, 0, None), np.clip(hi - m, 0, None)]
