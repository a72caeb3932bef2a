"""How often each strategy calls each herb witch (Herb Witches), from a tournament's games rows.

``games.parquet`` holds, for a ruleset with the witches, a ``witches`` column per game and seat:
bit w set if the seat called witch w (her number: 1-12 shipped, 14 a rules file's) that game,
bit 16 + w if witch w was in play; the witches are every one declared (``sim.rules.witches``,
a rules file's once loaded). The
use rate of (strategy, witch) is the share of that strategy's games with the witch in play in
which it called her, with a Wilson interval at the cluster effective sample size over deals
(the deal is the independent unit, as for every rate in a report).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.rules.witches import WITCHES
from sim.stats.clusters import ClusterSums

WITCH_FILE = "witches.csv"
IN_PLAY_BIT = 16  # bit IN_PLAY_BIT + w: witch w was in play


def witch_numbers() -> np.ndarray:
    """Every known witch's number, in ``WITCHES`` order (a rules file's included once loaded)."""
    return np.array([w.number for w in WITCHES], np.int64)


def called_bits(col: np.ndarray) -> np.ndarray:
    """(rows, witches) 0/1: the seat called each known witch (``witch_numbers`` order)."""
    col = np.asarray(col, np.int64)
    return ((col[:, None] >> witch_numbers()) & 1).astype(np.int64)


def in_play_bits(col: np.ndarray) -> np.ndarray:
    """(rows, witches) 0/1: each known witch was in play (``witch_numbers`` order)."""
    col = np.asarray(col, np.int64)
    return ((col[:, None] >> (IN_PLAY_BIT + witch_numbers())) & 1).astype(np.int64)


def witch_use_table(deal: np.ndarray, strategy: np.ndarray, witches: np.ndarray,
                    names: Sequence[str]) -> pd.DataFrame:
    """One row per (strategy, witch) that was ever in play: games with her in play, the share
    in which the strategy called her, and its 95% interval (deals as the unit)."""
    deal = np.asarray(deal, np.int64)
    strategy = np.asarray(strategy, np.int64)
    S, nw = len(names), len(WITCHES)
    dl = np.unique(deal, return_inverse=True)[1]
    nd = int(dl.max()) + 1 if len(dl) else 0
    called, play = called_bits(witches), in_play_bits(witches)
    idx = (dl * S + strategy)
    X = np.zeros((nd * S, nw), np.int64)
    N = np.zeros((nd * S, nw), np.int64)
    np.add.at(X, idx, called * play)
    np.add.at(N, idx, play)
    cs = ClusterSums(S * nw)
    cs.add_totals(X.reshape(nd, S * nw), N.reshape(nd, S * nw))
    share, (lo, hi) = (cs.share_ci(nd) if nd
                       else (np.zeros(S * nw), (np.zeros(0), np.zeros(0))))
    rows = []
    for s in range(S):
        for w in range(nw):
            c = s * nw + w
            if cs.sn[c] == 0:
                continue
            rows.append({"strategy": names[s], "witch": WITCHES[w].id, "group": WITCHES[w].group,
                         "games_in_play": int(cs.sn[c]), "called": int(cs.sx[c]),
                         "use_rate": float(share[c]), "use_rate_ci_lo": float(lo[c]),
                         "use_rate_ci_hi": float(hi[c]), "deals": nd})
    cols = ["strategy", "witch", "group", "games_in_play", "called", "use_rate", "use_rate_ci_lo",
            "use_rate_ci_hi", "deals"]
    return pd.DataFrame(rows, columns=cols)


def witch_use_from_parquet(path, names: Sequence[str]) -> pd.DataFrame | None:
    """The table from a games.parquet file (None if it has no ``witches`` column)."""
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)
    if "witches" not in schema.names:
        return None
    t = pq.read_table(path, columns=["deal", "strategy", "witches"]).to_pandas()
    strat = t["strategy"]
    codes = (strat.cat.codes.to_numpy() if isinstance(strat.dtype, pd.CategoricalDtype)
             else strat.to_numpy())
    if isinstance(strat.dtype, pd.CategoricalDtype):  # map the file's categories onto ``names``
        lookup = np.array([list(names).index(str(c)) for c in strat.cat.categories], np.int64)
        codes = lookup[codes]
    return witch_use_table(t["deal"].to_numpy(), codes, t["witches"].to_numpy(), names)


def witch_use_markdown(df: pd.DataFrame) -> list[str]:
    """The summary.md section for the table."""
    from sim.study.reports.markdown import md_table

    rows = [[r.strategy, r.witch, r.group, f"{r.games_in_play:,}", f"{r.use_rate:.3f}",
             f"[{r.use_rate_ci_lo:.3f}, {r.use_rate_ci_hi:.3f}]"] for r in df.itertuples()]
    return ["## Herb witches called", "",
            "Share of each strategy's games with the witch in play in which it called her (95% "
            "Wilson interval over deals).", "",
            md_table(["strategy", "witch", "group", "games in play", "use rate", "95% CI"], rows,
                     [False, False, False, True, True, True]), ""]


def write_witch_use(games_path, names: Sequence[str], outdir) -> list[str]:
    """With the witches in the run: write ``witches.csv`` into ``outdir`` and append its section
    to the ``summary.md`` there; return the file names written (none without the witches)."""
    from pathlib import Path

    df = witch_use_from_parquet(games_path, names)
    if df is None:
        return []
    outdir = Path(outdir)
    df.to_csv(outdir / WITCH_FILE, index=False)
    md = outdir / "summary.md"
    if md.is_file():
        md.write_text(md.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                      + "\n".join(witch_use_markdown(df)), encoding="utf-8")
    return [WITCH_FILE]
