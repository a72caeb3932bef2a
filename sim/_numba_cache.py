"""Point Numba's on-disk cache at a directory named by a hash of every kernel source file.

Numba invalidates a cached function when its own file changes, but not when a function it calls
in another file changes; a stale cache would then run old rules. Keying the whole cache by the
hash of all kernel sources makes any change start from a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_KERNEL_GLOBS = (
    "sim/kernel/*.py", "sim/kernel/effects/*.py", "sim/rules/chips.py", "strategies/*_nb.py",
    "strategies/slots.py",
)


def kernel_source_hash() -> str:
    """Short SHA-256 of the kernel modules and the constants they compile in."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for pattern in _KERNEL_GLOBS:
        for p in sorted(root.glob(pattern)):
            h.update(p.relative_to(root).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def configure() -> str:
    """Set numba.config.CACHE_DIR (before any kernel module is imported); return the directory."""
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "quacks-sim",
    )
    path = os.path.join(base, kernel_source_hash())
    numba.config.CACHE_DIR = path
    return path


def is_cached(entry: str) -> bool:
    """True when the on-disk cache for these kernel sources holds the compiled function ``entry``
    (``path/module.function`` relative to the project root, e.g. ``"sim/kernel/game.play_games"``)
    for this source tree, so calling it loads instead of compiling."""
    import numba

    path, func = entry.rsplit(".", 1)
    root = Path(__file__).resolve().parent.parent
    source = root / f"{path}.py"
    if not source.is_file():
        return False
    folder = str(source.parent)
    # the sub-folder Numba's cache locator gives the folder of a module
    sub = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    return any(Path(numba.config.CACHE_DIR or "", sub).glob(f"{source.stem}.{func}-*.nbi"))
