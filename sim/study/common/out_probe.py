"""Whether a report folder can be written, asked before any work and leaving nothing behind.

``--out /proc/x``, ``--out /sys/x`` or ``--out FILE/x`` (a path under a regular file) would
otherwise fail only when the first file is written, after the games; :func:`probe_writable`
makes the missing folders, writes and removes a small file there, and removes the folders it
made, so a refused run and a checked one both leave the disk as they found it.
"""

from __future__ import annotations

import os
from pathlib import Path


class OutDirError(ValueError):
    """A report folder that cannot be made or written; the message names the option and path."""


def probe_writable(path: str | Path, flag: str = "--out") -> None:
    """Raise OutDirError unless a report can be written into the folder ``path`` (made if
    missing); nothing is left behind either way."""
    path = Path(path)
    made: list[Path] = []
    try:
        if path.exists() and not path.is_dir():
            raise OutDirError(f"{flag} {path}: exists and is not a directory")
        missing, q = [], path
        while not q.exists() and q != q.parent:
            missing.append(q)
            q = q.parent
        if not q.is_dir():
            raise OutDirError(f"{flag} {path}: {q} is a file, not a directory")
        for d in reversed(missing):
            d.mkdir()
            made.append(d)
        probe = path / f".quacks-write-test-{os.getpid()}"
        with open(probe, "w") as f:
            f.write("ok")
        probe.unlink()
    except OSError as e:
        raise OutDirError(f"{flag} {path}: cannot write there ({e.strerror or e})") from None
    finally:
        for d in reversed(made):
            try:
                d.rmdir()
            except OSError:
                pass
