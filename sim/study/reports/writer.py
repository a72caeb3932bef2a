"""Report directories: parquet game records, summary tables, the run manifest, atomically.

A finished tournament report ``DIR`` holds:

- ``games.parquet``: one row per game and seat (``game, deal, seed, combo, rotation, seat,
  strategy, vp, rank, win_share, explosions, rubies, droplet, final_position, chips, illegal,
  bought_<colour>``). ``strategy`` is dictionary-encoded (a pandas categorical). To replay a
  game: ``quacks replay DIR --row N`` (or ``--game G --seat S``; see ``sim.study.replay_report``).
- ``rounds.parquet`` (``--detail rounds``): one row per game, round and seat, with the round
  record (reward space, exploded, VP gained, coins, white total, rat, score, rubies, droplet,
  chips in the bag and in the pot, and the bag by colour after the round).
- ``summary.csv`` (per strategy), ``pairs.csv`` (paired differences), ``seats.csv`` (win share
  by seat), ``bought.csv`` (chips bought by colour), ``vp_hist.csv`` (VP distribution),
  ``rounds_summary.csv`` (per-round means, with rounds detail), ``head_to_head.csv`` (round-robin
  with more strategies than seats: A's win share at the tables A shares with B, every ordered
  pair), ``summary.md`` (all tables).
- ``run.json``: command line, settings, resolved ruleset and its hash, strategy specs with
  parameters, seed, game count, package versions, wall time and the per-strategy results.
- the PNG plots (see ``sim.study.plots``).

Atomicity and resume. While a run goes, the parquet data go to ``.games.parquet.partial`` and
``.rounds.parquet.partial`` (one write per chunk: a chunk's rounds rows first, then its games
rows, which commit the chunk), and ``.run.json.partial`` holds the settings. Ctrl-C lets the
current chunk finish and closes the partial files, so they are valid parquet holding every
finished chunk. Tables, plots and ``run.json`` are written into ``.staging/`` and moved into
place only when everything is done (``run.json`` last: its presence marks a complete report), so
an interrupted run never leaves a visible, half-written file.

``--resume`` reads the settings from ``.run.json.partial`` (they must match), renames the partial
files to ``.*.resume``, copies their complete chunks (rows of games before the last chunk
boundary both files reach) into fresh partial files while rebuilding the statistics from them,
deletes the ``.resume`` files and plays on. If that copy is itself interrupted, the ``.resume``
files are still there and the next ``--resume`` starts from them again. A partial file that
cannot be read (the process was killed before it could close it) is noted and the run starts
over. ``--force`` removes the files a previous run wrote (known names only) and starts over.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.study.report_markdown import summary_markdown
from sim.study.report_schema import (
    ROUND_TYPES,
    ReportError,
    arrow_schema,
    arrow_table,
    game_types,
    numpy_columns,
)
from sim.study.report_stats import Accumulator, Summary

GAMES_FILE = "games.parquet"
ROUNDS_FILE = "rounds.parquet"
RUN_FILE = "run.json"
MD_FILE = "summary.md"
TABLE_FILES = {"strategies": "summary.csv", "pairs": "pairs.csv", "seats": "seats.csv",
               "bought": "bought.csv", "vp_hist": "vp_hist.csv", "rounds": "rounds_summary.csv",
               "head_to_head": "head_to_head.csv"}
STATE_FILE = ".run.json.partial"
STAGING = ".staging"
SWEEP_FILES = ("sweep.csv", "sweep.md", "sweep.png")
SWEEP_STATE = ".sweep.json.partial"
COMPRESSION = "lz4"  # fast to write; pandas, pyarrow, polars and duckdb read it
VERSION_PACKAGES = ("quacks-sim", "numpy", "numba", "pandas", "pyarrow", "matplotlib", "typer", "rich")


def partial(name: str) -> str:
    """Hidden in-progress name of a report file."""
    return f".{name}.partial"


def resume_name(name: str) -> str:
    """Hidden name of a partial file being copied by --resume."""
    return f".{name}.resume"


def known_files() -> list[str]:
    """Every file name a tournament report may contain (for --force and the empty-DIR check)."""
    from sim.study.plots import PLOT_FILES

    names = [GAMES_FILE, ROUNDS_FILE, RUN_FILE, MD_FILE, *TABLE_FILES.values(), *PLOT_FILES, "witches.csv",
             *SWEEP_FILES, STATE_FILE, SWEEP_STATE]
    for n in (GAMES_FILE, ROUNDS_FILE):
        names += [partial(n), resume_name(n)]
    return names


def atomic_write_text(path: Path, text: str) -> None:
    """Write text to a hidden temporary name next to ``path``, then rename it into place."""
    tmp = path.with_name(partial(path.name))
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


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


def read_saved_settings(path: str | Path) -> dict | None:
    """Settings of the run in a report directory (interrupted or complete), or None."""
    p = Path(path)
    for name, key in ((STATE_FILE, "settings"), (SWEEP_STATE, "settings"), (RUN_FILE, "settings")):
        f = p / name
        if f.is_file():
            try:
                return json.loads(f.read_text())[key]
            except (OSError, ValueError, KeyError):
                return None
    return None


def canonical_command(settings: dict) -> str:
    """A ``quacks tournament`` command line that reproduces a run with these settings."""
    parts = ["quacks", "tournament", "--strategies", ",".join(settings["strategies"]),
             "--players", str(settings["players"]), "--games", str(settings["games"]),
             "--seed", str(settings["seed"]), "--rules", settings["rules"]]
    for o in settings.get("overrides", []):
        parts += ["--set", o]
    for f in settings.get("strategy_files", []):
        parts += ["--strategy-file", f]
    parts += ["--format", settings["format"]]
    if settings.get("until_ci") is not None:
        parts += ["--until-ci", repr(settings["until_ci"])]
    parts += ["--detail", settings["detail"]]
    return shlex.join(parts)


class ReportWriter:
    """Owns one tournament report directory for one run (fresh, resumed or already complete)."""

    def __init__(self, path: Path, plan, *, resume: bool = False, force: bool = False,
                 argv: Sequence[str] | None = None, note: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.plan = plan
        self.argv = list(argv) if argv is not None else list(sys.argv)
        self.note = note or (lambda m: None)
        self.complete_result = None
        self.seconds_before = 0.0
        self.kept_games = 0  # games an interrupted run had kept (known once open() has looked)
        self.started = now_iso()
        self._gw: pq.ParquetWriter | None = None
        self._rw: pq.ParquetWriter | None = None
        self._names = pa.array(plan.names, pa.string())
        meta = {"settings": plan.settings(), "names": plan.names}
        witches = bool(plan.ruleset.data["witches"]["enabled"])
        self._gschema = arrow_schema(game_types(witches), dumps(meta))
        self._rschema = arrow_schema(ROUND_TYPES, dumps(meta))
        self.mode = self._prepare(resume, force)

    # -- set-up ----------------------------------------------------------------------------

    def _prepare(self, resume: bool, force: bool) -> str:
        p = self.path
        if p.exists() and not p.is_dir():
            raise ReportError(f"--out {p}: exists and is not a directory")
        entries = dir_entries(p)
        mode = "fresh"
        if entries:
            if force:
                check_writable(p)
                remove_known(p)
            elif resume:
                state = p / STATE_FILE
                if (p / RUN_FILE).is_file():
                    saved = read_json(p / RUN_FILE)
                    self._check_same(saved.get("settings", {}))
                    state.unlink(missing_ok=True)  # stopped after run.json was in place
                    mode = "complete"
                elif state.is_file():
                    saved = read_json(state)
                    self._check_same(saved.get("settings", {}))
                    self.seconds_before = float(saved.get("seconds_before", 0.0))
                    self.started = saved.get("started", self.started)
                    mode = "resume"
                else:
                    raise ReportError(f"--resume: {p} holds no interrupted quacks tournament to resume")
            else:
                hint = ("holds an interrupted run; add --resume to continue it or --force to start over"
                        if (p / STATE_FILE).exists() else
                        "is not empty; use --force to overwrite the report there")
                raise ReportError(f"--out {p}: the directory {hint}")
        check_writable(p)
        if mode == "complete":
            from sim.study.report_load import load_result  # it reads this module's file names

            self.complete_result = load_result(p, self.plan)
        return mode

    def _check_same(self, saved: dict) -> None:
        d = settings_diff(saved, self.plan.settings())
        if d:
            raise ReportError(f"--resume: {self.path} holds a run with other settings ({d}); "
                              "repeat its command with --resume, or use --force to start over")

    def _write_state(self, seconds_before: float) -> None:
        state = {"settings": self.plan.settings(), "names": self.plan.names, "argv": self.argv,
                 "command": canonical_command(self.plan.settings()), "started": self.started,
                 "seconds_before": seconds_before}
        atomic_write_text(self.path / STATE_FILE, dumps(state))

    def _open_writers(self) -> None:
        opts = dict(compression=COMPRESSION, use_dictionary=["strategy", "seed"],
                    write_statistics=["game"], column_encoding={"game": "DELTA_BINARY_PACKED"})
        self._gw = pq.ParquetWriter(self.path / partial(GAMES_FILE), self._gschema, **opts)
        if self.plan.config.detail == "rounds":
            self._rw = pq.ParquetWriter(self.path / partial(ROUNDS_FILE), self._rschema, **opts)

    def open(self, acc: Accumulator) -> int:
        """Open the partial files (copying an interrupted run's complete chunks into them and
        into ``acc``); return the number of chunks already done."""
        shutil.rmtree(self.path / STAGING, ignore_errors=True)
        if self.mode != "resume":
            self._write_state(0.0)
            self._open_writers()
            return 0
        return self._resume(acc)

    def _source(self, name: str) -> Path | None:
        res, part, final = (self.path / resume_name(name), self.path / partial(name), self.path / name)
        if res.exists():
            return res
        if part.exists():
            os.replace(part, res)
            return res
        if final.exists():  # finishing was interrupted after the parquet files were renamed
            os.replace(final, res)
            return res
        return None

    def _resume(self, acc: Accumulator) -> int:
        plan = self.plan
        n, R = plan.players, plan.rounds
        detail = plan.config.detail == "rounds"
        gsrc = self._source(GAMES_FILE)
        rsrc = self._source(ROUNDS_FILE) if detail else None
        try:
            gpf = pq.ParquetFile(gsrc) if gsrc else None
            rpf = pq.ParquetFile(rsrc) if rsrc else None
        except (OSError, pa.ArrowException):
            self.note(f"the partial results in {self.path} cannot be read (the run was stopped "
                      "before it could close its files); starting over")
            gpf = rpf = None
        grows = gpf.metadata.num_rows if gpf else 0
        rrows = rpf.metadata.num_rows if rpf else 0
        k = 0
        while (k + 1 < len(plan.chunk_bounds) and plan.games_after(k + 1) * n <= grows
               and (not detail or plan.games_after(k + 1) * R * n <= rrows)):
            k += 1
        boundary = plan.games_after(k)
        self.kept_games = boundary
        self._open_writers()
        for pf, writer, feed in ((rpf, self._rw, acc.add_rounds), (gpf, self._gw, acc.add_games)):
            if pf is None or boundary == 0:
                continue
            for i in range(pf.num_row_groups):
                t = pf.read_row_group(i)
                games = t.column("game").to_numpy()
                keep = games < boundary
                if not keep.all():
                    t = t.filter(pa.array(keep))
                if t.num_rows == 0:
                    continue
                t = t.replace_schema_metadata(writer.schema.metadata).cast(writer.schema)
                writer.write_table(t, row_group_size=max(1, t.num_rows))
                feed(numpy_columns(t, plan.names))
        for src in (gsrc, rsrc):
            if src is not None and src.exists():
                src.unlink()
        if k:
            self.note(f"resuming after {boundary:,} games kept in {self.path}")
        return k

    # -- during the run --------------------------------------------------------------------

    def write_rounds(self, cols: dict[str, np.ndarray]) -> None:
        """Append a block of rounds rows (they precede the games rows of their chunk)."""
        if self._rw is not None:
            t = arrow_table(cols, self._rschema, self._names)
            self._rw.write_table(t, row_group_size=max(1, t.num_rows))

    def write_chunk(self, rows) -> None:
        """Append one chunk's games rows: this commits the chunk (its rounds rows, if any, are
        already written, see ``write_rounds``)."""
        if rows.rounds is not None:
            self.write_rounds(rows.rounds)
        t = arrow_table(rows.games, self._gschema, self._names)
        self._gw.write_table(t, row_group_size=max(1, t.num_rows))

    def close(self) -> None:
        """Close the partial files (they stay valid parquet); idempotent."""
        for w in (self._gw, self._rw):
            if w is not None:
                try:
                    w.close()
                except Exception:  # noqa: BLE001 - closing after a failure is best effort
                    pass
        self._gw = self._rw = None

    def interrupted(self, seconds: float) -> None:
        """Keep the finished chunks: close the files and record the time spent so far."""
        self.close()
        try:
            self._write_state(self.seconds_before + seconds)
        except OSError:
            pass

    # -- the end ---------------------------------------------------------------------------

    def finish(self, result, *, plots: bool = True) -> list[str]:
        """Write tables, plots and run.json, then move everything into place; return the names."""
        from sim.study import plots as P
        from sim.study.witch_use import write_witch_use

        t_finish = time.perf_counter()
        self.close()
        p = self.path
        stage = p / STAGING
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir()
        files = write_tables(result.summary, stage)
        files.append(MD_FILE)
        (stage / MD_FILE).write_text(summary_markdown(result), encoding="utf-8")
        files += write_witch_use(p / partial(GAMES_FILE), self.plan.names, stage)
        if plots:
            written, notes = P.render(result.summary, stage)
            files += written
            for n in notes:
                self.note(n)
        data = [GAMES_FILE] + ([ROUNDS_FILE] if self.plan.config.detail == "rounds" else [])
        result.files = sorted(data + files + [RUN_FILE])
        spent = time.perf_counter() - t_finish  # the wall time counts the writing of the report
        result.seconds += spent
        result.seconds_total += spent
        result.report_seconds = spent
        (stage / RUN_FILE).write_text(dumps(self.manifest(result)), encoding="utf-8")
        for name in data:
            os.replace(p / partial(name), p / name)
        for name in files:
            os.replace(stage / name, p / name)
        os.replace(stage / RUN_FILE, p / RUN_FILE)
        stage.rmdir()
        (p / STATE_FILE).unlink(missing_ok=True)
        return result.files

    def manifest(self, result) -> dict:
        """The run.json object."""
        plan = self.plan
        rs = plan.ruleset
        d = result.to_json()
        d.update({
            "command": canonical_command(plan.settings()),
            "argv": self.argv,
            "settings": plan.settings(),
            "ruleset": {"name": rs.name, "source": rs.source, "hash": rs.hash, "data": rs.data},
            "strategy_specs": [{"name": nm, "spec": s.spec, "strategy": s.name, "params": s.values}
                               for nm, s in zip(plan.names, plan.strategies)],
            "tables": [[plan.names[i] for i in t] for t in plan.tables],
            "layout": {"games_per_deal": plan.games_per_deal, "rotations": plan.rotations,
                       "tables": len(plan.tables), "chunks": len(plan.chunk_bounds) - 1,
                       "game_index": "game g: deal g // games_per_deal, table (g % games_per_deal)"
                                     " // rotations, rotation g % rotations"},
            "strategy_files": [{"path": f, "sha256": sha256_of(f)} for f in plan.config.strategy_files],
            "versions": package_versions(),
            "started": self.started, "finished": now_iso(),
            "wall_seconds": round(result.seconds, 3),
            "wall_seconds_total": round(result.seconds_total, 3),
            "files": result.files,
        })
        return d


# --- tables -----------------------------------------------------------------------------------

def write_tables(summary: Summary, outdir: Path) -> list[str]:
    """Write the CSV tables of a summary into ``outdir``; return their names."""
    names = []
    for attr, fname in TABLE_FILES.items():
        df = getattr(summary, attr)
        if df is None:
            continue
        df.to_csv(outdir / fname, index=False)
        names.append(fname)
    return names
