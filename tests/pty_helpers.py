"""Running a command on a pseudo-terminal and pressing Ctrl-C once it shows its progress bar.

What "Ctrl-C stops it at once" means is counted, not timed (the machine may be loaded): the
child logs each call of the function that plays one piece (``counted``), and the test checks
that at most the piece already under way when the signal came was started after it. The only
clock is a generous hang guard (``HANG_GUARD`` seconds to end after the signal), which is no
speed target."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


def strip_ansi(b: bytes) -> str:
    """Terminal output as text, without escape sequences."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b.decode("utf-8", "replace"))


HANG_GUARD = 60  # seconds after SIGINT before the command counts as hung (not a speed target)

# the child: ``python -c CHILD``; wraps module.name to log one line per call, then runs quacks
CHILD = """
import importlib, sys
module, name, log, *args = sys.argv[1:]
sys.argv = ["quacks", *args]
mod = importlib.import_module(module)
real = getattr(mod, name)
out = open(log, "a", buffering=1)

def counted(*a, **k):
    out.write("call\\n")
    return real(*a, **k)

setattr(mod, name, counted)
from sim.cli.main import main
main()
"""


@dataclass
class Interrupted:
    returncode: int
    calls_before: int  # pieces started when SIGINT was sent
    calls: int  # pieces started in all
    terminal: bytes  # what the command wrote to the terminal (stderr)
    stdout: bytes

    @property
    def text(self) -> str:
        return strip_ansi(self.terminal)

    @property
    def last_line(self) -> str:
        return re.split(r"[\r\n]+", self.text.strip())[-1].strip()


def ctrl_c_after_progress(args: list[str], marker: bytes, counted: str, log: Path,
                          timeout: float = 600) -> Interrupted:
    """Run ``quacks ARGS`` (``sim.cli.main.main``) with stderr on a pseudo-terminal, counting the
    calls of ``counted`` (``"module:function"``, the function that plays one piece) in the file
    ``log``; once ``marker`` (a word of its progress bar) appears, send SIGINT and wait for the
    command to end (at most ``HANG_GUARD`` seconds)."""
    import pty

    module, name = counted.split(":")
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-c", CHILD, module, name, str(log), *args],
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
        before = _calls(log)
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {HANG_GUARD} s after Ctrl-C (hung)") from None
        drain(0.5)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    return Interrupted(p.returncode, before, _calls(log), seen, p.stdout.read())


def _calls(log: Path) -> int:
    return log.read_text().count("call\n") if log.exists() else 0
