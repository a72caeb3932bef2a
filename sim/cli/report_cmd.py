"""The ``report`` command: ``register(app)`` adds it to a Typer app.

``quacks report DIR`` writes ``DIR/report.html``, the one-page view of a report folder
(``sim.study.reports.html``), for a folder any report-writing command made (tournament, sweep,
tune, compare, thresholds, experiment run), e.g. one written before there were pages, or after
``quacks plot`` re-drew its figures. A DIR that does not exist, holds no report or only an empty
manifest is one line ``error: ...`` with exit status 2, and nothing is written.
"""

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import fail


def register(app: typer.Typer) -> None:
    """Add ``quacks report`` to the app."""

    @app.command()
    def report(
        directory: Annotated[Path, typer.Argument(
            help="A report folder: the --out of quacks tournament, sweep, tune, compare, "
                 "balance, thresholds or experiment run.")],
    ) -> None:
        """Write report.html in a report folder: one self-contained page with its command, seed
        and versions, every table, every figure and the summary (readable from disk, nothing
        loaded from the network)."""
        from sim.study.reports.html import write_html
        from sim.study.reports.schema import ReportError

        try:
            path = write_html(directory)
        except ReportError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{directory}: cannot write report.html ({e.strerror or e})")
        typer.echo(f"wrote {path}")
