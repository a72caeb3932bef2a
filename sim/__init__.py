"""quacks-sim: a rules-exact, Numba-fast simulator for The Quacks of Quedlinburg."""


def _quiet_start_up_interrupt() -> None:
    """In the ``quacks`` command only: Ctrl-C during start-up (the imports take seconds) prints
    one line and exits 130 instead of a traceback from the middle of an import;
    ``sim.cli.main.main`` gives Ctrl-C back to Python (KeyboardInterrupt) as soon as it runs."""
    import os
    import signal
    import sys

    argv0 = os.path.basename(sys.argv[0]) if getattr(sys, "argv", None) else ""
    if argv0 not in ("quacks", "quacks.exe", "quacks-script.py"):
        return

    def handler(signum, frame):
        os.write(2, b"interrupted\n")
        os._exit(130)

    try:
        signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        pass


_quiet_start_up_interrupt()

from sim.numba_cache import configure as _configure_numba_cache  # noqa: E402
from sim.release import __version__  # noqa: E402,F401 - sim.__version__

NUMBA_CACHE_DIR = _configure_numba_cache()  # the folder of the compiled kernels


def __getattr__(name: str):
    """The Python API (``sim.potion``, ``sim.tournament``, ...; see :mod:`sim.questions`),
    imported on first use so that ``import sim`` stays light."""
    import sim.questions as questions

    if name in questions.FUNCTIONS:
        return getattr(questions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    import sim.questions as questions

    return sorted(set(globals()) | set(questions.FUNCTIONS))
