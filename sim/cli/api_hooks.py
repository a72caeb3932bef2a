"""What a command hands the Python API (``sim.questions``) as hooks: its progress bar, entered
when the work reports its first progress (after the checks and the compile), as the commands
entered it before the API did the work."""

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, contextmanager


@contextmanager
def bar_on_first_update(make: Callable[[], AbstractContextManager]):
    """``update(done, total)`` that enters ``make()`` (a progress bar context yielding its own
    ``update``, or None for no bar) on its first call and forwards every call to it; the bar is
    taken down when the block ends."""
    with ExitStack() as stack:
        state: dict = {}

        def update(done: int, total: int) -> None:
            if "bar" not in state:
                state["bar"] = stack.enter_context(make())
            if state["bar"] is not None:
                state["bar"](done, total)

        yield update
