"""The one line ``quacks --version`` prints, from the package metadata."""

from __future__ import annotations


def version_text() -> str:
    """``quacks-sim 0.1.0``: the installed package's version (or the source tree's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("quacks-sim")
    except PackageNotFoundError:  # run from a source tree that is not installed
        from sim.release import __version__ as v
    return f"quacks-sim {v}"
