"""Running a command on a pseudo-terminal and pressing Ctrl-C once it shows its progress bar."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass


def strip_ansi(b: bytes) -> str:
    """Terminal output as text, without escape sequences."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b.decode("utf-8", "replace"))


@dataclass
class Interrupted:
    returncode: int
    seconds: float  # from SIGINT to the exit
    terminal: bytes  # what the command wrote to the terminal (stderr)
    stdout: bytes

    @property
    def text(self) -> str:
        return strip_ansi(self.terminal)

    @property
    def last_line(self) -> str:
        return re.split(r"[\r\n]+", self.text.strip())[-1].strip()


def ctrl_c_after_progress(args: list[str], marker: bytes, timeout: float = 600) -> Interrupted:
    """Run ``python -m sim.cli.main ARGS`` with stderr on a pseudo-terminal; once ``marker`` (a
    word of its progress bar) appears, send SIGINT and time how long the command takes to end."""
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "sim.cli.main", *args],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""

    def drain(wait: float) -> None:
        nonlocal seen
        while select.select([master], [], [], wait)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child is gone and the terminal closed
                return
            if not chunk:
                return
            seen += chunk
            wait = 0.05

    try:
        deadline = time.monotonic() + timeout
        while marker not in seen:
            assert p.poll() is None, strip_ansi(seen)
            assert time.monotonic() < deadline, "no progress bar"
            drain(0.5)
        t = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
        took = time.monotonic() - t
        drain(0.5)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    return Interrupted(p.returncode, took, seen, p.stdout.read())
