"""Whether a report folder or an output file can be written, asked before any work and leaving
nothing behind, and the one way an output file is written (through a temporary name that no
error leaves behind).

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


def probe_file_writable(path: str | Path, flag: str, *, force: bool | None = None) -> None:
    """Raise OutDirError unless an output file can be written at ``path``: not a folder, in a
    folder that exists and takes a new file (a small file is written and removed there), and,
    when the command has a ``--force`` (``force`` not None), not there already unless
    ``force``. Nothing is left behind either way."""
    p = Path(path)
    if not str(path).strip():
        raise OutDirError(f"{flag} '': empty; give a file name")
    if p.is_dir():
        raise OutDirError(f"{flag} {path}: a folder, not a file; give a file name")
    parent = p.parent
    if not parent.is_dir():
        what = "is a file, not a folder" if parent.exists() else "does not exist"
        raise OutDirError(f"{flag} {path}: the folder {parent} {what}")
    if force is False and p.exists():
        raise OutDirError(f"{flag} {path}: exists; use --force to replace it")
    probe = parent / f".quacks-write-test-{os.getpid()}"
    try:
        with open(probe, "w") as f:
            f.write("ok")
        probe.unlink()
    except OSError as e:
        raise OutDirError(f"{flag} {path}: cannot write there ({e.strerror or e})") from None


def atomic_write(path: str | Path, write) -> None:
    """``write(tmp)`` to a hidden temporary name beside ``path``, then rename it into place. On
    any error (Ctrl-C too) the temporary file goes and ``path`` is as it was; an OSError names
    ``path``, the user's file, never the temporary one."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.partial")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        if isinstance(e, OSError) and e.filename is not None and Path(e.filename) == tmp:
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise
