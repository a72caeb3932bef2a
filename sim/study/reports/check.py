"""The files of a saved report checked before ``quacks plot`` re-draws from them.

:func:`check_report_files` reads every table file a tournament or sweep report holds (the
summary CSVs the plots are drawn from, and the footer of ``games.parquet`` / ``rounds.parquet``,
the per-game record the CSVs were made from), refuses a corrupt one with a
:class:`~sim.study.reports.schema.ReportError` naming it, and says which files the plots come from.
"""

from __future__ import annotations

from pathlib import Path

from sim.study.reports.files import RUN_FILE, TABLE_FILES
from sim.study.reports.schema import ReportError

GAME_TABLES = ("games.parquet", "rounds.parquet")


def check_report_files(path: str | Path) -> list[str]:
    """The file names the plots of the report in ``path`` are drawn from; ReportError for a
    table file there that cannot be read."""
    import pandas as pd
    import pyarrow.parquet as pq

    p = Path(path)
    for name in GAME_TABLES:
        f = p / name
        if f.is_file():
            try:
                pq.read_metadata(f)
            except Exception as e:  # noqa: BLE001 - pyarrow raises several kinds for a bad file
                raise ReportError(f"{f}: not a readable parquet file ({_short(e)}); the report "
                                  "is damaged: play it again") from None
    csvs = ["sweep.csv"] if (p / "sweep.csv").is_file() else [
        n for n in TABLE_FILES.values() if (p / n).is_file()]
    for name in csvs:
        try:
            pd.read_csv(p / name)
        except (ValueError, UnicodeDecodeError, OSError) as e:
            raise ReportError(f"{p / name}: not a readable table ({_short(e)}); the report is "
                              "damaged: play it again") from None
    return [*csvs, *([RUN_FILE] if (p / RUN_FILE).is_file() else [])]


def _short(e: Exception) -> str:
    return " ".join(str(e).split())[:120] or type(e).__name__
