"""Ctrl-C around a unit of work that must not be cut in half (a tournament chunk)."""

from __future__ import annotations

import signal
import threading


class DeferInterrupt:
    """Let a chunk finish when Ctrl-C arrives, then raise KeyboardInterrupt (unless ``reraise``
    is false: then the interrupt is dropped); a second Ctrl-C raises at once. Only in the main
    thread (elsewhere it does nothing)."""

    def __init__(self, reraise: bool = True):
        self.reraise = reraise

    def __enter__(self):
        self.hit = False
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.getsignal(signal.SIGINT)

            def handler(signum, frame):
                if self.hit:
                    raise KeyboardInterrupt
                self.hit = True

            signal.signal(signal.SIGINT, handler)
        return self

    def __exit__(self, et, ev, tb):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        if self.hit and et is None and self.reraise:
            raise KeyboardInterrupt
        return False
