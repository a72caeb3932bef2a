"""A tournament's summary tables straight from its saved games (and rounds) tables, for notebooks
and re-analysis: the same ``Accumulator`` the run used, fed from the parquet frames."""

from __future__ import annotations

import pandas as pd

from sim.study.tournament.statistics import Accumulator
from sim.study.tournament.summary import Summary


def summarize_games(games: pd.DataFrame, rounds_df: pd.DataFrame | None = None, *,
                    rounds: int = 9) -> Summary:
    """Summary tables straight from a ``games.parquet`` frame (and optionally ``rounds.parquet``).

    For a notebook: ``summarize_games(pd.read_parquet(DIR / "games.parquet"))`` gives the same
    tables the run wrote (the rows must be whole deals).
    """
    strat = games["strategy"]
    if not isinstance(strat.dtype, pd.CategoricalDtype):
        strat = strat.astype("category")
    names = [str(c) for c in strat.cat.categories]
    players = int(games["seat"].max()) + 1
    tables = games["combo"].nunique() if "combo" in games.columns else 1
    acc = Accumulator(names, players, rounds, head_to_head=tables > 1)
    cols = {c: games[c].to_numpy() for c in games.columns if c != "strategy"}
    cols["strategy"] = strat.cat.codes.to_numpy()
    acc.add_games(cols)
    if rounds_df is not None and len(rounds_df):
        rc = {c: rounds_df[c].to_numpy() for c in rounds_df.columns if c != "strategy"}
        rc["strategy"] = rounds_df["strategy"].astype(
            pd.CategoricalDtype(names)).cat.codes.to_numpy()
        acc.add_rounds(rc)
    return acc.summary()
