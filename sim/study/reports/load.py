"""Reading a saved report back: its summary tables and a finished run's result."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.study.reports.files import RUN_FILE, TABLE_FILES, read_json
from sim.study.reports.schema import ReportError
from sim.study.tournament.result import TournamentResult
from sim.study.tournament.statistics import ROUND_METRIC_NAMES, Summary


def load_summary(path: str | Path) -> Summary:
    """The summary tables of a finished report, read from its CSV files (categoricals restored)."""
    p = Path(path)
    if not (p / TABLE_FILES["strategies"]).is_file():
        raise ReportError(f"{p}: no {TABLE_FILES['strategies']} here; is this a quacks tournament "
                          "report?")
    run = read_json(p / RUN_FILE) if (p / RUN_FILE).is_file() else {}
    strategies = pd.read_csv(p / TABLE_FILES["strategies"])
    names = [str(x) for x in strategies["strategy"]]
    cat = pd.CategoricalDtype(names, ordered=True)

    def read(key, cols=("strategy",), cats=None):
        f = p / TABLE_FILES[key]
        if not f.is_file():
            return None
        df = pd.read_csv(f, dtype={c: str for c in cols})
        for c in cols:
            df[c] = df[c].astype(cats or cat)
        return df

    strategies["strategy"] = strategies["strategy"].astype(str).astype(cat)
    seats = read("seats", cats=pd.CategoricalDtype(["all", *names], ordered=True))
    bought = read("bought")
    if bought is not None:
        from sim.rules.chips import COLOUR_NAMES

        bought["colour"] = bought["colour"].astype(pd.CategoricalDtype(COLOUR_NAMES, ordered=True))
    pairs = read("pairs", ("strategy_a", "strategy_b"))
    rounds = read("rounds")
    if rounds is not None:
        rounds["metric"] = rounds["metric"].astype(pd.CategoricalDtype(list(ROUND_METRIC_NAMES)))
    info = {"games": run.get("games"), "deals": run.get("deals"), "players": run.get("players"),
            "rounds": (run.get("ruleset", {}).get("data", {}).get("game", {}).get("rounds")),
            "rating_note": run.get("rating_note", ""), "format": run.get("format"),
            "detail": run.get("detail")}
    return Summary(strategies, pairs if pairs is not None else pd.DataFrame(), seats, bought,
                   read("vp_hist"), rounds, info, head_to_head=read("head_to_head", ("a", "b")),
                   nash=read("nash"))


def load_result(path: str | Path, plan):
    """A finished report as a TournamentResult (tables from the CSVs, facts from run.json)."""
    p = Path(path)
    run = read_json(p / RUN_FILE)
    return TournamentResult(plan, load_summary(p), int(run["games"]), int(run["deals"]),
                            run.get("stopped", "games"),
                            float(run["max_win_share_halfwidth"]
                                  if run.get("max_win_share_halfwidth") is not None else "nan"),
                            0.0, float(run.get("wall_seconds_total", 0.0)), p,
                            ["the run in this directory was already complete"],
                            run.get("files", []))


# --- sweeps -------------------------------------------------------------------------------------
