"""The report plots (``sim.study.reports.plots``) drawn from a small tournament's saved tables:
every axis says what it measures, legends lie outside the data areas, strategies are never drawn
in a chip's colour (chip colours mean chips), and pairs.png shows the VP difference beside the
win share's. The tournament is a round-robin (4 strategies, 3 seats), so head_to_head.png is drawn
too."""

from __future__ import annotations

import pytest
import typer
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.patches import Rectangle
from typer.testing import CliRunner

from sim.cli.reports import register
from sim.study.common.plot_style import LINE_COLOURS, palette
from sim.study.reports import plots
from sim.study.reports.files import PLOT_FILES
from sim.study.reports.load import load_summary

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)


@app.callback()
def _root() -> None:
    """Test app with the report commands."""


CHIP_HEX = {to_hex(c) for c in plots.CHIP_COLOURS.values()}
FOUR = "threshold,threshold:t=7,random,balanced"


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    """Every tournament plot, drawn: {file name: (figure, renderer)}."""
    out = tmp_path_factory.mktemp("plots") / "rep"
    r = CliRunner().invoke(app,
                           ["tournament", "--strategies", FOUR, "--games", "400", "--seed", "3",
                                 "--players", "3", "--out", str(out), "--detail", "rounds",
                                 "--no-plots"])
    assert r.exit_code == 0, (r.output, r.exception)
    jobs, notes = plots.plot_jobs(load_summary(out))
    assert not notes
    drawn = {}
    for name, draw in jobs:
        fig = draw()
        FigureCanvasAgg(fig).draw()
        drawn[name] = (fig, fig.canvas.get_renderer())
    assert set(drawn) == set(PLOT_FILES)
    return drawn


def _shows_ticks(labels) -> bool:
    return any(t.get_visible() and t.get_text().strip() for t in labels)


def test_every_axis_says_what_it_measures(figures):
    for name, (fig, _) in figures.items():
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            # an axis whose tick labels are shown (a shared axis hides them) needs a label
            if _shows_ticks(ax.get_xticklabels()):
                assert len(ax.get_xlabel().strip()) >= 3, (name, ax.get_title(), "x")
            if _shows_ticks(ax.get_yticklabels()):
                assert len(ax.get_ylabel().strip()) >= 3, (name, ax.get_title(), "y")


@pytest.mark.parametrize("name, words", [
    ("win_share.png", ["win share", "VP", "strategy"]),
    ("vp_distribution.png", ["VP", "share of games"]),
    ("rounds.png", ["round", "explosions per potion", "reward space"]),
    ("bag_by_round.png", ["round", "chips in bag"]),
    ("seats.png", ["seat", "win share"]),
    ("chips_bought.png", ["strategy", "chips bought per game"]),
    ("pairs.png", ["win share difference", "VP difference", "pair"]),
    ("head_to_head.png",
     ["A: the strategy whose win share", "B: the strategy A shares a table with",
                          "A's win share at tables with B"]),
])
def test_axis_labels_name_the_measure_and_unit(figures, name, words):
    fig, _ = figures[name]
    labels = " | ".join(ax.get_xlabel() + " | " + ax.get_ylabel() for ax in fig.axes)
    for w in words:
        assert w in labels, (name, w, labels)


def test_legends_lie_outside_the_data_areas(figures):
    for name, (fig, renderer) in figures.items():
        legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
        assert legends, name
        areas = [ax.get_window_extent(renderer) for ax in fig.axes if ax.get_visible()]
        for lg in legends:
            box = lg.get_window_extent(renderer)
            for area in areas:
                assert not box.overlaps(area), (name, [t.get_text() for t in lg.get_texts()])
            # and inside the figure
            fb = fig.bbox
            assert (fb.x0 - 1 <= box.x0 and box.x1 <= fb.x1 + 1 and fb.y0 - 1 <= box.y0
                    and box.y1 <= fb.y1 + 1), name


def _strategy_colours(fig) -> set[str]:
    cols = set()
    for ax in fig.axes:
        for line in ax.lines:
            cols.add(to_hex(line.get_color()))
        for p in ax.patches:
            if isinstance(p, Rectangle):
                cols.add(to_hex(p.get_facecolor()))
        for c in ax.collections:
            cols |= {to_hex(x) for x in c.get_facecolor()} | {to_hex(x) for x in c.get_edgecolor()}
    return cols


def test_chips_bought_uses_chip_colours_for_chips_only(figures):
    fig, _ = figures["chips_bought.png"]
    ax = fig.axes[0]
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert bars and {to_hex(p.get_facecolor()) for p in bars} <= CHIP_HEX
    legend = ax.get_legend()
    names = [t.get_text() for t in legend.get_texts()]
    assert names and all(n in plots.CHIP_COLOURS for n in names)
    for handle, n in zip(legend.legend_handles, names):
        assert to_hex(handle.get_facecolor()) == to_hex(plots.CHIP_COLOURS[n])
    # the strategies are the groups along the x axis
    assert [t.get_text() for t in ax.get_xticklabels()] == FOUR.split(",")


@pytest.mark.parametrize("name", ["win_share.png", "vp_distribution.png", "rounds.png", "seats.png",
                                  "pairs.png"])
def test_strategies_are_never_drawn_in_a_chip_colour(figures, name):
    fig, _ = figures[name]
    assert not (_strategy_colours(fig) & CHIP_HEX), name


def test_strategy_palette_avoids_chip_colours():
    assert not ({to_hex(c) for c in palette(12)} & CHIP_HEX)
    # more strategies than colours: the repeats differ in line style and hatch
    n = len(LINE_COLOURS)
    assert plots._linestyle(0) != plots._linestyle(n) and plots._hatch(0) != plots._hatch(n)


def test_pairs_shows_win_share_and_vp_differences(figures):
    fig, _ = figures["pairs.png"]
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    assert "win share" in axes[0].get_xlabel() and "VP" in axes[1].get_xlabel()
    npairs = 4 * 3 // 2
    for ax in axes:
        # one paired estimate per pair in each panel (the errorbar's marker line)
        markers = [ln for ln in ax.lines if ln.get_marker() == "o"]
        assert sum(len(ln.get_xdata()) for ln in markers) == npairs
