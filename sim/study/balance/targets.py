"""A designer's target bands for the balance figures, and the check of each figure against its
band.

A targets file is TOML with one key per figure, the metric names of ``quacks balance --json``
(the game's and skill's figures), and as value the band ``[low, high]``::

    seat0_win_share = [0.23, 0.27]
    last_after_round_6_wins = [0.05, 0.20]

A figure **passes** when its whole 95% interval lies inside the band, **fails** when the whole
interval lies outside it, and is **undecided** when the interval straddles a band edge (more
games may decide it). A figure the run did not measure (a part left out) is ``not measured``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from sim.rules.input_files import TOMLDecodeError, load_toml, not_a_file

PASS, FAIL, UNDECIDED, NOT_MEASURED = "pass", "fail", "undecided", "not measured"
VERDICTS = (PASS, FAIL, UNDECIDED, NOT_MEASURED)
TABLE_COLUMNS = ("metric", "label", "band_lo", "band_hi", "value", "ci_lo", "ci_hi", "verdict")


class TargetsError(ValueError):
    """A targets file that cannot be used; the message (one line) names the file and the key."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def parse_bands(table: Mapping, where: str) -> dict[str, tuple[float, float]]:
    """The bands of a parsed TOML table ({metric: [low, high]}); TargetsError naming ``where``
    and the key for a band that is not two finite numbers with low < high."""
    bands = {}
    for key, v in table.items():
        if not (isinstance(v, list) and len(v) == 2 and all(_number(x) for x in v)
                and v[0] < v[1]):
            raise TargetsError(f"{where}: {key} = {_one_line(repr(v))}: expected a band [low, "
                               "high] of two numbers with low < high, e.g. [0.23, 0.27]")
        bands[str(key)] = (float(v[0]), float(v[1]))
    return bands


def load_targets(path: str | Path) -> dict[str, tuple[float, float]]:
    """Read a targets file (TargetsError, one line, for a missing, unreadable or malformed
    file)."""
    p = Path(path)
    why = not_a_file(path)
    if why is not None:
        raise TargetsError(f"--targets {path}: {why}")
    try:
        data = load_toml(p)
    except (TOMLDecodeError, UnicodeDecodeError) as e:
        raise TargetsError(f"{p}: not valid TOML: {_one_line(e)}") from None
    except OSError as e:
        raise TargetsError(f"--targets {p}: cannot be read ({e.strerror or e})") from None
    return parse_bands(data, str(p))


def check_names(bands: Mapping[str, tuple[float, float]], known: Sequence[str], where: str,
                patterns: Sequence[str] = ()) -> None:
    """TargetsError for the first band whose metric is not one of ``known`` (the message
    suggests the closest name and lists ``patterns``, the metric families)."""
    import difflib

    for key in bands:
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise TargetsError(f"{where}: unknown metric '{key}'; {hint}the metrics are "
                               f"{', '.join(patterns or known)}")


def check_decided(bands: Mapping[str, tuple[float, float]], decided: Mapping[str, str],
                  where: str) -> None:
    """TargetsError for the first band on a figure the rules decide by definition (``decided``:
    metric -> why; such figures are not measured)."""
    for key in bands:
        if key in decided:
            raise TargetsError(f"{where}: {key} is decided by definition, not measured "
                               f"({decided[key]}); remove its band")


def verdict(ci_lo: float, ci_hi: float, lo: float, hi: float) -> str:
    """``pass`` (the interval inside the band, edges included), ``fail`` (wholly outside) or
    ``undecided`` (it straddles an edge, or is not known)."""
    if not (math.isfinite(ci_lo) and math.isfinite(ci_hi)):
        return UNDECIDED
    if lo <= ci_lo and ci_hi <= hi:
        return PASS
    if ci_hi < lo or ci_lo > hi:
        return FAIL
    return UNDECIDED


def check_targets(bands: Mapping[str, tuple[float, float]], figures: pd.DataFrame) -> pd.DataFrame:
    """One row per band (``TABLE_COLUMNS``), in the file's order: the figure (rows of
    ``figures`` with ``metric``, ``label``, ``value``, ``ci_lo``, ``ci_hi``) and its verdict."""
    by = {r["metric"]: r for r in figures.to_dict(orient="records")} if len(figures) else {}
    rows = []
    for key, (lo, hi) in bands.items():
        r = by.get(key)
        if r is None:
            rows.append({"metric": key, "label": "", "band_lo": lo, "band_hi": hi,
                         "value": math.nan, "ci_lo": math.nan, "ci_hi": math.nan,
                         "verdict": NOT_MEASURED})
            continue
        rows.append({"metric": key, "label": r["label"], "band_lo": lo, "band_hi": hi,
                     "value": r["value"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"],
                     "verdict": verdict(float(r["ci_lo"]), float(r["ci_hi"]), lo, hi)})
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
