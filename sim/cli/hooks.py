"""The commands' side of the Python API's hooks (``sim.questions``): a command calls its
question's function once and hands it its progress bar, its notes and its compile notice.

The bar cannot be on the terminal while a kernel compiles (the compile notice has its own live
line, and rich shows one at a time), so :func:`when_work_starts` opens it at the function's
first ``progress`` call, which every question makes when its work starts (after any compile).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager

import typer


class Progress:
    """The ``progress`` hook :func:`when_work_starts` yields; ``started`` once it was called."""

    def __init__(self, contexts: tuple[Callable[[], AbstractContextManager], ...],
                 stack: ExitStack):
        self._contexts = contexts
        self._stack = stack
        self._lock = threading.Lock()
        self._update = None
        self.started = False

    def __call__(self, *args) -> None:
        with self._lock:
            if not self.started:
                for make in self._contexts:
                    self._update = self._stack.enter_context(make())
                self.started = True
        if self._update is not None:
            self._update(*args)


@contextmanager
def when_work_starts(*contexts: Callable[[], AbstractContextManager]) -> Iterator[Progress]:
    """``progress(*args)`` for a question's ``progress`` hook: its first call enters
    ``contexts`` (factories, in order: e.g. the hard Ctrl-C exit, then the progress bar), and
    every call goes on to the last one's value (the bar's update function; None: dropped).
    They are left when the block ends; ``progress.started`` says whether the work started."""
    with ExitStack() as stack:
        yield Progress(contexts, stack)


def note_line(quiet: bool = False) -> Callable[[str], None] | None:
    """The ``on_note`` hook: ``note: ...`` on stderr (None when quiet)."""
    if quiet:
        return None
    return lambda message: typer.echo(f"note: {message}", err=True)
