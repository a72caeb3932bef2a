"""Plots a reader can use (issue 22, item 6), checked on the matplotlib Figures the plot functions
return, from hand-made tables (no games played): lines told apart, integer seats with the fair
share, colour-blind-safe maps, readable cell labels, the tune parameter panels, and seats
numbered from 1 wherever a person reads them."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D

from sim.study.common.plot_style import MIN_TEXT_PT, RED_GREEN_CMAPS, line_style, seat_label
from sim.study.compare.stats import metric_label
from sim.study.experiments.plots import plot_ingredient, plot_seat_advantage
from sim.study.reports.markdown import seat_rows
from sim.study.reports.plots import plot_seats
from sim.study.sweep.plots import plot_sweep
from sim.study.thresholds.compute import policy_figure
from sim.study.tune.plots import progress_figure

CHIPS = ["o1", "g1", "g2", "g4", "b1", "b2", "b4", "r1", "r2", "r4", "y1", "y2", "y4", "p1", "k1"]


def _ingredient_table() -> pd.DataFrame:
    rows = []
    for i, c in enumerate(CHIPS):
        for d in range(-3, 4):
            w = 0.2 + 0.01 * i - 0.02 * d
            rows.append({"chip": c, "delta": d, "win_share": w, "win_share_ci_lo": w - 0.01,
                         "win_share_ci_hi": w + 0.01})
    return pd.DataFrame(rows)


def _data_lines(fig) -> list[Line2D]:
    """The plotted data lines of every axes (not the reference lines, which have two points,
    nor the error-bar caps, which have no line)."""
    return [ln for ax in fig.axes for ln in ax.get_lines()
            if len(ln.get_xdata()) > 2 and ln.get_linestyle() not in ("None", "none", "")]


def _texts(fig):
    return [t for ax in fig.axes for t in ax.texts]


def test_line_style_pairs_are_distinct():
    pairs = {(line_style(i)["color"], line_style(i)["linestyle"]) for i in range(20)}
    assert len(pairs) == 20


def test_ingredient_lines_are_distinguishable():
    fig = plot_ingredient(_ingredient_table())
    lines = _data_lines(fig)
    assert len(lines) == 15
    pairs = {(to_hex(ln.get_color()), ln.get_linestyle(), ln.get_marker()) for ln in lines}
    assert len(pairs) == 15  # no two lines alike
    assert len({(to_hex(ln.get_color()), ln.get_linestyle()) for ln in lines}) == 15
    shown = [ax for ax in fig.axes if ax.get_visible()]
    labels = {t.get_text() for ax in shown for t in ax.get_legend().get_texts()}
    assert labels == set(CHIPS)  # every line in a legend
    assert min(t.get_fontsize() for ax in shown for t in ax.get_legend().get_texts()) >= MIN_TEXT_PT


def _seats_table() -> pd.DataFrame:
    rows = []
    for n in (2, 3, 4):
        for s in range(1, n + 1):
            w = 1 / n + 0.004 * (s - 1)
            rows.append({"players": n, "seat": s, "win_share": w, "ci_lo": w - 0.006,
                         "ci_hi": w + 0.006})
    return pd.DataFrame(rows)


def test_seat_advantage_has_integer_seats_and_the_fair_share():
    fig = plot_seat_advantage(_seats_table())
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 3
    for ax, n in zip(axes, (2, 3, 4)):
        ticks = ax.get_xticks()
        assert list(ticks) == list(range(1, n + 1))
        assert [t.get_text() for t in ax.get_xticklabels()] == [str(k) for k in range(1, n + 1)]
        fair = [ln for ln in ax.get_lines()
                if np.allclose(ln.get_ydata(), 1 / n) and ln.get_linestyle() == "--"]
        assert fair, f"no fair-share line at 1/{n}"
        assert any(t.get_text() == f"fair share 1/{n}" for t in ax.texts)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "fair share 1/n" in legend


def test_policy_map_is_colour_blind_safe():
    policy = pd.DataFrame([{"chips_drawn": k, "white_total": w, "share_draw": (k + w) % 3 / 2,
                            "p_reach": 0.5} for k in range(1, 6) for w in range(0, 7)])
    summary = {"exact": True, "n": 0, "seed": 1, "value": {"coin": 0.5, "ruby": 0.5},
               "bag": "start", "start": 0, "flask": None, "round": 1, "card": None}
    fig = policy_figure(SimpleNamespace(policy=policy, summary=summary))
    ax = fig.axes[0]
    cmap = ax.images[0].get_cmap().name
    assert cmap not in RED_GREEN_CMAPS and "RdYlGn" not in cmap and "Gn" not in cmap
    assert min(t.get_fontsize() for t in ax.texts) >= MIN_TEXT_PT


def _grid(nx: int, ny: int) -> tuple[pd.DataFrame, dict]:
    rows = []
    for i in range(nx):
        for j in range(ny):
            w = 0.2 + 0.01 * i - 0.005 * j
            rows.append({"value": i, "value2": j, "win_share": w, "win_share_ci_lo": w - 0.01,
                         "win_share_ci_hi": w + 0.01, "win_share_diff": w - 0.2,
                         "win_share_diff_ci_lo": w - 0.21, "win_share_diff_ci_hi": w - 0.19,
                         "games": 4000})
    settings = {"keys": ["t", "flask_white"],
                "key_help": ["white total to stop at", "smallest white the flask returns"],
                "strategy": "threshold", "vs": ["balanced"], "players": 4,
                "baseline_spec": "threshold"}
    return pd.DataFrame(rows), settings


def test_sweep_grid_labels_are_readable_and_axes_named_by_parameter():
    table, settings = _grid(3, 2)
    fig = plot_sweep(table, settings)
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 2
    for ax in panels:
        assert ax.get_xlabel() == "t" and ax.get_ylabel() == "flask_white"
        assert len(ax.texts) == 6 and all("[" in t.get_text() for t in ax.texts)
        assert min(t.get_fontsize() for t in ax.texts) >= MIN_TEXT_PT
        assert ax.images[0].get_cmap().name not in RED_GREEN_CMAPS
    assert "white total to stop at" in fig.get_supxlabel()  # the help, off the axes


@pytest.mark.parametrize("n", [12, 40])
def test_sweep_grid_drops_labels_gracefully_on_a_big_grid(n):
    table, settings = _grid(n, n)
    fig = plot_sweep(table, settings)
    texts = _texts(fig)
    assert all(t.get_fontsize() >= MIN_TEXT_PT for t in texts)
    assert all("[" not in t.get_text() for t in texts)  # no intervals crammed in
    assert "sweep.csv" in fig.get_supxlabel()
    if n == 40:
        assert texts == []


def test_tune_progress_shows_the_parameter_values_tried():
    h = pd.DataFrame({"trial": range(6), "spec": [f"s{i}" for i in range(6)],
                      "p": [0.2, 0.3, 0.1, 0.25, 0.4, 0.31], "q": [1, 2, 3, 2, 1, 2],
                      "deals": [10, 30, 10, 30, 10, 30], "games": [40, 120, 40, 120, 40, 120],
                      "win_share": [0.24, 0.26, 0.2, 0.25, 0.22, 0.27],
                      "state": ["complete", "complete", "pruned", "complete", "pruned", "budget"],
                      "games_so_far": [40, 160, 200, 320, 360, 480]})
    res = SimpleNamespace(history=h, best_values={"p": 0.31, "q": 2}, best_win_share=0.27,
                          best_win_share_ci=(0.26, 0.28), start="balanced")
    fig = progress_figure(res)
    axes = fig.axes
    assert len(axes) == 3
    assert [ax.get_ylabel() for ax in axes] == ["win share", "p", "q"]
    for ax, key in zip(axes[1:], ("p", "q")):
        tried = np.concatenate([c.get_offsets()[:, 1] for c in ax.collections])
        assert sorted(tried) == sorted(h[key])  # every candidate's value is drawn
        assert any(np.allclose(ln.get_ydata(), res.best_values[key]) for ln in ax.get_lines())


def test_tournament_seat_plot_and_tables_number_seats_from_1():
    rows = []
    for s in range(4):
        rows.append({"seat": s, "strategy": "all", "games": 100, "win_share": 0.25,
                     "win_share_ci_lo": 0.2, "win_share_ci_hi": 0.3, "mean_vp": 50.0,
                     "mean_vp_ci_lo": 49.0, "mean_vp_ci_hi": 51.0})
    seats = pd.DataFrame(rows)
    seats["strategy"] = seats["strategy"].astype("category")
    fig = plot_seats(seats)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["seat 1", "seat 2", "seat 3", "seat 4"]
    assert any(np.allclose(ln.get_ydata(), 0.25) for ln in ax.get_lines())
    _, body = seat_rows(seats)
    assert [r[0] for r in body] == ["1", "2", "3", "4"]
    assert seat_label(0) == "seat 1"
    assert metric_label("seat_0") == "seat 1 win share"
    assert metric_label("first_seat_excess") == "seat 1 win share - 1/n"


# --- what each plot shows, said on the plot (issue 43, item 8) --------------------------------

def _effects(part: str) -> pd.DataFrame:
    """A hand-made effects table of a balance part, columns as the part writes them."""
    from sim.study.balance.plots import EFFECT_AXES, EFFECT_PLOTS

    _, label, _ = EFFECT_PLOTS[part]
    rows = []
    for i in range(4):
        row = {label: f"{part}-{i}", "games": 400, "deals": 100}
        for c in EFFECT_AXES[part]:
            row.update({c: 0.1 * i - 0.1, f"{c}_lo": 0.1 * i - 0.2, f"{c}_hi": 0.1 * i})
        rows.append(row)
    return pd.DataFrame(rows)


@pytest.mark.parametrize("part", ["cards", "witches", "books"])
def test_balance_effect_plots_say_what_is_plotted_and_which_sign_is_good(part):
    from sim.study.balance.plots import EFFECT_AXES, plot_effects

    fig = plot_effects(_effects(part), part)
    title = fig.get_suptitle()
    assert "paired effect with its 95% interval" in title and "ranked by" in title
    assert "n = 400 games (100 deals, paired)" in title  # the games behind every point
    axes = [ax for ax in fig.axes if ax.get_xlabel()]
    assert len(axes) == len(EFFECT_AXES[part])
    for ax, (name, sign) in zip(axes, EFFECT_AXES[part].values()):
        label = ax.get_xlabel()
        assert label.startswith(name)
        if sign is None:  # a share, not a difference: no sign and no zero line
            assert "0:" not in label
        else:
            assert sign in label and sign[:4] in ("> 0:", "< 0:")
            assert any(np.allclose(ln.get_xdata(), 0) for ln in ax.get_lines())
    assert axes[0].get_ylabel() in ("card", "witch", "colour")


def test_stop_curve_legend_uses_each_rules_notation_and_whole_white_ticks():
    from sim.rules.ruleset import load_ruleset
    from sim.study.thresholds.compute import compute_thresholds
    from sim.study.thresholds.figures import stop_curve_figure

    res = compute_thresholds("o1x2,w3x3", ruleset=load_ruleset("base"), white=[4, 5, 6, 7],
                             risk=[0.3, 0.5])
    fig = stop_curve_figure(res)
    legends = {ax.get_xlabel().split()[0]: [t.get_text() for t in ax.get_legend().get_texts()]
               for ax in fig.axes}
    assert "white:T rule" in legends["white-total"] and "risk:P rule" in legends["risk"]
    assert not any("risk:T" in t for ts in legends.values() for t in ts)
    white = [ax for ax in fig.axes if ax.get_xlabel().startswith("white")]
    for ax in white:
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_integer_parameters_get_integer_ticks():
    h = pd.DataFrame({"trial": range(4), "spec": [f"s{i}" for i in range(4)],
                      "p": [0.2, 0.3, 0.1, 0.25], "q": [4, 5, 4, 5], "deals": [10, 30, 10, 30],
                      "games": [40, 120, 40, 120], "win_share": [0.24, 0.26, 0.2, 0.25],
                      "state": ["complete"] * 4, "games_so_far": [40, 160, 200, 320]})
    res = SimpleNamespace(history=h, best_values={"p": 0.25, "q": 5}, best_win_share=0.26,
                          best_win_share_ci=(0.25, 0.27), start="balanced")
    fig = progress_figure(res)
    fig.canvas.draw()
    q = fig.axes[2]
    assert q.get_ylabel() == "q"
    shown = [t for t in q.get_yticks() if q.get_ylim()[0] <= t <= q.get_ylim()[1]]
    assert shown and all(float(t).is_integer() for t in shown), shown  # no tick at 4.5
    table = pd.DataFrame([{"value": v, "strategy": f"threshold:t={v}", "games": 100,
                           "baseline": v == 5,
                           **{f"{k}{s}": 0.25 for k in ("win_share", "mean_vp",
                                                         "win_share_diff", "vp_diff")
                              for s in ("", "_ci_lo", "_ci_hi")}} for v in (4, 5)])
    fig = plot_sweep(table, {"key": "t", "keys": ["t"], "vs": ["balanced"], "players": 4,
                             "strategy": "threshold", "baseline_spec": "threshold:t=5"})
    fig.canvas.draw()
    bottom = [ax for ax in fig.axes if ax.get_xlabel()]
    for ax in bottom:
        shown = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert shown and all(float(t).is_integer() for t in shown), shown
