"""Helpers every CLI command shares: the one-line error exit and the thread count."""

from __future__ import annotations

import typer


def fail(msg: str) -> None:
    """One clear line on stderr and exit status 2."""
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def set_threads(n: int | None) -> None:
    """Set Numba's thread count (results never depend on it), or fail with exit 2."""
    if n is not None:
        import numba

        if not 1 <= n <= numba.config.NUMBA_NUM_THREADS:
            fail(f"--threads {n}: expected 1 to {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(n)
