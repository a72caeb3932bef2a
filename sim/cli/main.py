"""The ``quacks`` command line: a thin Typer layer over the Python API.

Results go to stdout (a table, or JSON with ``--json``); errors are one line on stderr with exit
status 2, never a traceback.

This module is the entry point and stays light: ``quacks --version`` answers from the package
metadata, and the Typer app (``sim.cli.app``, also reachable as ``sim.cli.main.app``) is built
only when a command or help is asked for. The command modules import the simulation (Numba,
NumPy, pandas, ...) inside their commands, so ``--help`` starts at once.
"""

from __future__ import annotations

import sys

from sim.cli.version import version_text


def __getattr__(name: str):
    """``sim.cli.main.app``: the Typer app, built on first use."""
    if name == "app":
        from sim.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console entry point: usage errors are one line with exit status 2, Ctrl-C one line with
    130 (see ``QuacksGroup``)."""
    import signal

    if sys.argv[1:] == ["--version"]:  # no app, no command modules
        print(version_text())
        return
    # Ctrl-C raises KeyboardInterrupt again from here on (during start-up, sim/__init__.py
    # exits at once with one line instead of a traceback from the middle of an import)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        from sim.cli.app import app

        app()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # Numba cannot compile a user's rules file: one line, exit 2
        from sim.cli.user_input import rules_file_compile_error

        line = rules_file_compile_error(e)
        if line is None:
            raise
        print(f"error: {line}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
