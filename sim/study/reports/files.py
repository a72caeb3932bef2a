"""A report folder's file names and the file helpers every study shares: JSON that keeps
NaN out, atomic writes, package versions, the saved settings of a run and its command line."""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import shlex
import shutil
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from sim.study.reports.saved import (  # noqa: F401 (this module's names too)
    RUN_FILE,
    STATE_FILE,
    SWEEP_STATE,
    read_saved_settings,
)
from sim.study.reports.schema import (
    ReportError,
)

GAMES_FILE = "games.parquet"
ROUNDS_FILE = "rounds.parquet"
REPORT_HTML = "report.html"  # the page of every report folder (sim.study.reports.html)
MD_FILE = "summary.md"
REPORT_MD = "report.md"  # the markdown of the study reports (balance, sensitivity, design)
TABLE_FILES = {"strategies": "summary.csv", "pairs": "pairs.csv", "seats": "seats.csv",
               "bought": "bought.csv", "vp_hist": "vp_hist.csv", "rounds": "rounds_summary.csv",
               "head_to_head": "head_to_head.csv", "nash": "nash.csv"}
STAGING = ".staging"
PLOT_FILES = ("win_share.png", "vp_distribution.png", "rounds.png", "bag_by_round.png",
              "seats.png", "chips_bought.png", "pairs.png", "head_to_head.png")
SWEEP_FILES = ("sweep.csv", "sweep.md", "sweep.png")
COMPRESSION = "lz4"  # fast to write; pandas, pyarrow, polars and duckdb read it
VERSION_PACKAGES = ("quacks-sim", "numpy", "numba", "pandas", "pyarrow", "matplotlib", "typer",
                    "rich", "scipy")


def partial(name: str) -> str:
    """Hidden in-progress name of a report file."""
    return f".{name}.partial"


def resume_name(name: str) -> str:
    """Hidden name of a partial file being copied by --resume."""
    return f".{name}.resume"


def known_files() -> list[str]:
    """Every file name a tournament report may contain (for --force and the empty-DIR check)."""
    names = [GAMES_FILE, ROUNDS_FILE, RUN_FILE, REPORT_HTML, MD_FILE, *TABLE_FILES.values(),
             *PLOT_FILES, "witches.csv", *SWEEP_FILES, STATE_FILE, SWEEP_STATE]
    for n in (GAMES_FILE, ROUNDS_FILE):
        names += [partial(n), resume_name(n)]
    return names


@contextlib.contextmanager
def staging_folder(p: Path):
    """``p/.staging``, fresh, for a report to be written into before its files are moved into
    ``p``; on any error (Ctrl-C too) the staging folder goes, and ``p`` with it if this made
    ``p``."""
    stage = p / STAGING
    created = not p.exists()
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):
                p.rmdir()
        raise


def atomic_write(path: Path, write) -> None:
    """``write(tmp)`` to a hidden temporary name next to ``path``, then rename it into place;
    on any error (Ctrl-C too) the temporary file goes and ``path`` is as it was."""
    path = Path(path)
    tmp = path.with_name(partial(path.name))
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write text to a hidden temporary name next to ``path``, then rename it into place."""
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def package_versions() -> dict[str, str]:
    """Versions of Python and the packages a report depends on."""
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for p in VERSION_PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            out[p] = "unknown"
    return out


def sha256_of(path: str) -> str | None:
    """The SHA-256 of a file, or None if it cannot be read."""
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        f = float(o)
        return f if math.isfinite(f) else None
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (tuple, set)):
        return list(o)
    if isinstance(o, Path):
        return str(o)
    return str(o)


def dumps(obj) -> str:
    """JSON text with NaN and infinities as null."""
    return json.dumps(_nan_to_none(obj), default=_json_default, allow_nan=False)


def _nan_to_none(o):
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _nan_to_none(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_nan_to_none(v) for v in o]
    return o


# --- schemas and tables -----------------------------------------------------------------------

# --- the directory ----------------------------------------------------------------------------

def dir_entries(path: Path) -> list[str]:
    return sorted(os.listdir(path)) if path.is_dir() else []


def check_out_free(path: str | Path, *, resume: bool, force: bool, state_file: str,
                   what: str = "run") -> None:
    """Raise ReportError unless ``path`` can take a report: a new or empty directory, or one
    holding anything with ``force`` or ``resume`` (a resume's own checks come later). Changes
    nothing on disk, so a command can check its ``--out`` before minutes of compiling;
    ``state_file`` marks an interrupted ``what`` ("run", "sweep")."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ReportError(f"--out {p}: exists and is not a directory")
    if not dir_entries(p) or force or resume:
        return
    hint = (f"holds an interrupted {what}; add --resume to continue it or --force to start over"
            if (p / state_file).exists() else
            "is not empty; use --force to overwrite the report there")
    raise ReportError(f"--out {p}: the directory {hint}")


def check_writable(path: Path, flag: str = "--out") -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".quacks-write-test"
        with open(probe, "w") as f:
            f.write("ok")
        probe.unlink()
    except OSError as e:
        raise ReportError(f"{flag} {path}: cannot write there ({e.strerror or e})") from None


def remove_known(path: Path, extra_dirs: Sequence[str] = ()) -> None:
    for name in [*known_files(), STAGING, *extra_dirs]:
        p = path / name
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists() or p.is_symlink():
            p.unlink()
    for name in dir_entries(path):  # temporary names of atomic writes
        if name.startswith(".") and name.endswith(".partial") and (path / name).is_file():
            (path / name).unlink()


def open_out(path: Path, *, resume: bool, force: bool, state_file: str, what: str = "run",
             extra_dirs: Sequence[str] = ()) -> bool:
    """The first step of writing a resumable ``what``'s report into ``path``: refused unless it
    is free (:func:`check_out_free`); with ``force``, a previous report's files (and
    ``extra_dirs``) removed once the folder is known writable. True when ``resume`` finds
    something there to continue (what it holds is the caller's to check)."""
    check_out_free(path, resume=resume, force=force, state_file=state_file, what=what)
    if not dir_entries(path):
        return False
    if force:
        check_writable(path)
        remove_known(path, extra_dirs)
        return False
    return resume


def settings_diff(saved: dict, new: dict) -> str | None:
    for k in sorted(set(saved) | set(new)):
        if json.loads(dumps(saved.get(k))) != json.loads(dumps(new.get(k))):
            return f"{k} = {saved.get(k)!r} there, {new.get(k)!r} now"
    return None


def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ReportError(f"{path}: cannot be read ({e}); use --force to start over") from None


def rules_and_files(settings: dict) -> list[str]:
    """The options of a run's command line that change its rules and strategies beside
    ``--rules``: each ``--set``, ``--strategy-file`` and ``--rules-file`` it was given."""
    parts: list[str] = []
    for option, key in (("--set", "overrides"), ("--strategy-file", "strategy_files"),
                        ("--rules-file", "rules_files")):
        for value in settings.get(key, []):
            parts += [option, value]
    return parts


def canonical_command(settings: dict) -> str:
    """A ``quacks tournament`` command line that reproduces a run with these settings."""
    parts = ["quacks", "tournament", "--strategies", ",".join(settings["strategies"]),
             "--players", str(settings["players"]), "--games", str(settings["games"]),
             "--seed", str(settings["seed"]), "--rules", settings["rules"]]
    parts += rules_and_files(settings)
    parts += ["--format", settings["format"]]
    if settings.get("until_ci") is not None:
        parts += ["--until-ci", repr(settings["until_ci"])]
    if settings.get("sequential"):
        parts += ["--sequential"]
    parts += ["--detail", settings["detail"]]
    return shlex.join(parts)


def sweep_command(settings: dict) -> str:
    """A ``quacks sweep`` command line that reproduces a sweep with these settings."""
    parts = ["quacks", "sweep", "--strategy", settings["strategy"]]
    for p in settings.get("params") or [settings["param"]]:
        parts += ["--param", p]
    if settings.get("baseline") is not None:
        parts += ["--baseline", str(settings["baseline"])]
    parts += ["--vs", ",".join(settings["vs"]), "--players", str(settings["players"]),
              "--games", str(settings["games"]), "--seed", str(settings["seed"]),
              "--rules", settings["rules"]]
    parts += rules_and_files(settings)
    if settings.get("until_ci") is not None:
        parts += ["--until-ci", repr(settings["until_ci"])]
    if settings.get("sequential"):
        parts += ["--sequential"] + (["--width", repr(settings["width"])]
                                     if settings.get("width") is not None else [])
    parts += ["--detail", settings["detail"]]
    return shlex.join(parts)

