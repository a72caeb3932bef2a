"""Report directories: parquet game records, summary tables, the run manifest, atomically.

A finished tournament report ``DIR`` holds:

- ``games.parquet``: one row per game and seat (``game, deal, seed, combo, rotation, seat,
  strategy, vp, rank, win_share, explosions, rubies, droplet, final_position, chips, illegal,
  bought_<colour>``). ``strategy`` is dictionary-encoded (a pandas categorical). To replay a
  game: ``quacks replay DIR --row N`` (or ``--game G --seat S``; see ``sim.replay_report``).
- ``rounds.parquet`` (``--detail rounds``): one row per game, round and seat, with the round
  record (reward space, exploded, VP gained, coins, white total, rat, score, rubies, droplet,
  chips in the bag and in the pot, and the bag by colour after the round).
- ``summary.csv`` (per strategy), ``pairs.csv`` (paired differences), ``seats.csv`` (win share
  by seat), ``bought.csv`` (chips bought by colour), ``vp_hist.csv`` (VP distribution),
  ``rounds_summary.csv`` (per-round means, with rounds detail), ``summary.md`` (all tables).
- ``run.json``: command line, settings, resolved ruleset and its hash, strategy specs with
  parameters, seed, game count, package versions, wall time and the per-strategy results.
- the PNG plots (see ``sim.plots``).

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
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.report_stats import BOUGHT_COLUMNS, ROUND_METRIC_NAMES, Accumulator, Summary
from sim.ruleset import rules_label

GAMES_FILE = "games.parquet"
ROUNDS_FILE = "rounds.parquet"
RUN_FILE = "run.json"
MD_FILE = "summary.md"
TABLE_FILES = {"strategies": "summary.csv", "pairs": "pairs.csv", "seats": "seats.csv",
               "bought": "bought.csv", "vp_hist": "vp_hist.csv", "rounds": "rounds_summary.csv"}
STATE_FILE = ".run.json.partial"
STAGING = ".staging"
SWEEP_FILES = ("sweep.csv", "sweep.md", "sweep.png")
SWEEP_STATE = ".sweep.json.partial"
COMPRESSION = "lz4"  # fast to write; pandas, pyarrow, polars and duckdb read it
VERSION_PACKAGES = ("quacks-sim", "numpy", "numba", "pandas", "pyarrow", "matplotlib", "typer", "rich")


class ReportError(ValueError):
    """A report directory that cannot be used; the message says why and what to do."""


def partial(name: str) -> str:
    """Hidden in-progress name of a report file."""
    return f".{name}.partial"


def resume_name(name: str) -> str:
    """Hidden name of a partial file being copied by --resume."""
    return f".{name}.resume"


def known_files() -> list[str]:
    """Every file name a tournament report may contain (for --force and the empty-DIR check)."""
    from sim.plots import PLOT_FILES

    names = [GAMES_FILE, ROUNDS_FILE, RUN_FILE, MD_FILE, *TABLE_FILES.values(), *PLOT_FILES,
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


def _sha256(path: str) -> str | None:
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _now() -> str:
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

_GAME_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "seed": pa.int64(), "combo": pa.int16(),
    "rotation": pa.int8(), "seat": pa.int8(), "strategy": pa.dictionary(pa.int16(), pa.string()),
    "vp": pa.int16(), "rank": pa.int8(), "win_share": pa.float64(), "explosions": pa.int8(),
    "rubies": pa.int16(), "droplet": pa.int16(), "final_position": pa.int16(), "chips": pa.int16(),
    "illegal": pa.int8(), **{b: pa.int8() for b in BOUGHT_COLUMNS},
}
_ROUND_TYPES = {
    "game": pa.int64(), "deal": pa.int64(), "round": pa.int8(), "seat": pa.int8(),
    "strategy": pa.dictionary(pa.int16(), pa.string()),
    **{m: pa.int16() for m in ROUND_METRIC_NAMES},
}


def _schema(types: dict, meta: dict) -> pa.Schema:
    return pa.schema([pa.field(k, t, nullable=False) for k, t in types.items()],
                     metadata={"quacks": dumps(meta)})


def _arrow(cols: dict[str, np.ndarray], schema: pa.Schema, names: pa.Array) -> pa.Table:
    arrays = []
    for f in schema:
        if f.name == "strategy":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(cols["strategy"], pa.int16()), names))
        else:
            arrays.append(pa.array(cols[f.name], f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _numpy_cols(table: pa.Table, names: list[str]) -> dict[str, np.ndarray]:
    out = {}
    for name in table.column_names:
        col = table.column(name)
        if name == "strategy":
            arr = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
            dictionary = arr.dictionary.to_pylist()
            try:
                lut = np.array([names.index(x) for x in dictionary], dtype=np.int64)
            except ValueError as e:
                raise ReportError(f"the partial results name a strategy not in this run ({e})") from None
            idx = arr.indices.to_numpy(zero_copy_only=False)
            out[name] = lut[idx] if len(lut) else idx.astype(np.int64)
        else:
            out[name] = col.to_numpy()
    return out


# --- the directory ----------------------------------------------------------------------------

def _entries(path: Path) -> list[str]:
    return sorted(os.listdir(path)) if path.is_dir() else []


def _check_writable(path: Path, flag: str = "--out") -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".quacks-write-test"
        with open(probe, "w") as f:
            f.write("ok")
        probe.unlink()
    except OSError as e:
        raise ReportError(f"{flag} {path}: cannot write there ({e.strerror or e})") from None


def _remove_known(path: Path, extra_dirs: Sequence[str] = ()) -> None:
    for name in [*known_files(), STAGING, *extra_dirs]:
        p = path / name
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        elif p.exists() or p.is_symlink():
            p.unlink()
    for name in _entries(path):  # temporary names of atomic writes
        if name.startswith(".") and name.endswith(".partial") and (path / name).is_file():
            (path / name).unlink()


def _diff(saved: dict, new: dict) -> str | None:
    for k in sorted(set(saved) | set(new)):
        if json.loads(dumps(saved.get(k))) != json.loads(dumps(new.get(k))):
            return f"{k} = {saved.get(k)!r} there, {new.get(k)!r} now"
    return None


def _read_json(path: Path) -> dict:
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
        self.started = _now()
        self._gw: pq.ParquetWriter | None = None
        self._rw: pq.ParquetWriter | None = None
        self._names = pa.array(plan.names, pa.string())
        meta = {"settings": plan.settings(), "names": plan.names}
        self._gschema = _schema(_GAME_TYPES, meta)
        self._rschema = _schema(_ROUND_TYPES, meta)
        self.mode = self._prepare(resume, force)

    # -- set-up ----------------------------------------------------------------------------

    def _prepare(self, resume: bool, force: bool) -> str:
        p = self.path
        if p.exists() and not p.is_dir():
            raise ReportError(f"--out {p}: exists and is not a directory")
        entries = _entries(p)
        mode = "fresh"
        if entries:
            if force:
                _check_writable(p)
                _remove_known(p)
            elif resume:
                state = p / STATE_FILE
                if (p / RUN_FILE).is_file():
                    saved = _read_json(p / RUN_FILE)
                    self._check_same(saved.get("settings", {}))
                    state.unlink(missing_ok=True)  # stopped after run.json was in place
                    mode = "complete"
                elif state.is_file():
                    saved = _read_json(state)
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
        _check_writable(p)
        if mode == "complete":
            self.complete_result = load_result(p, self.plan)
        return mode

    def _check_same(self, saved: dict) -> None:
        d = _diff(saved, self.plan.settings())
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
                feed(_numpy_cols(t, plan.names))
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
            t = _arrow(cols, self._rschema, self._names)
            self._rw.write_table(t, row_group_size=max(1, t.num_rows))

    def write_chunk(self, rows) -> None:
        """Append one chunk's games rows: this commits the chunk (its rounds rows, if any, are
        already written, see ``write_rounds``)."""
        if rows.rounds is not None:
            self.write_rounds(rows.rounds)
        t = _arrow(rows.games, self._gschema, self._names)
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
        from sim import plots as P

        t_finish = time.perf_counter()
        self.close()
        p = self.path
        stage = p / STAGING
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir()
        files = write_tables(result.summary, stage)
        files.append(MD_FILE)
        (stage / MD_FILE).write_text(summary_markdown(result), encoding="utf-8")
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
            "strategy_files": [{"path": f, "sha256": _sha256(f)} for f in plan.config.strategy_files],
            "versions": package_versions(),
            "started": self.started, "finished": _now(),
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


def _fmt(x, digits: int) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _ci(lo, hi, digits: int) -> str:
    return f"[{_fmt(lo, digits)}, {_fmt(hi, digits)}]"


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None) -> str:
    """A GitHub-flavoured markdown table."""
    right = right or [i > 0 for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if r else ":---" for r in right) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def strategy_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of the per-strategy table (shared by markdown and console)."""
    header = ["strategy", "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank [95% CI]",
              "explosions/potion [95% CI]", "rating [95% CI]"]
    rows = []
    for r in df.to_dict(orient="records"):
        rows.append([
            str(r["strategy"]), f"{int(r['games']):,}",
            f"{_fmt(r['win_share'], 4)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
            f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}",
            f"{_fmt(r['mean_rank'], 3)} {_ci(r['mean_rank_ci_lo'], r['mean_rank_ci_hi'], 3)}",
            f"{_fmt(r['explosion_rate'], 4)} {_ci(r['explosion_rate_ci_lo'], r['explosion_rate_ci_hi'], 4)}",
            f"{_fmt(r['rating'], 0)} {_ci(r['rating_ci_lo'], r['rating_ci_hi'], 0)}",
        ])
    return header, rows


def pair_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of the paired-difference table."""
    header = ["A", "B", "deals", "VP A-B [95% CI]", "(if unpaired)", "win share A-B [95% CI]",
              "(if unpaired)"]
    rows = [[str(r["strategy_a"]), str(r["strategy_b"]), f"{int(r['deals']):,}",
             f"{_fmt(r['vp_diff'], 2)} {_ci(r['vp_diff_ci_lo'], r['vp_diff_ci_hi'], 2)}",
             _ci(r["vp_diff_ci_unpaired_lo"], r["vp_diff_ci_unpaired_hi"], 2),
             f"{_fmt(r['win_share_diff'], 4)} {_ci(r['win_share_diff_ci_lo'], r['win_share_diff_ci_hi'], 4)}",
             _ci(r["win_share_diff_ci_unpaired_lo"], r["win_share_diff_ci_unpaired_hi"], 4)]
            for r in df.to_dict(orient="records")]
    return header, rows


def seat_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the seat table (pooled over strategies)."""
    header = ["seat", "games", "win share [95% CI]", "mean VP [95% CI]"]
    sub = df[df["strategy"] == "all"]
    rows = [[str(int(r["seat"])), f"{int(r['games']):,}",
             f"{_fmt(r['win_share'], 4)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
             f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}"]
            for r in sub.to_dict(orient="records")]
    return header, rows


def interval_methods_md(methods: dict) -> str:
    """A markdown list of which interval each statistic uses."""
    if not methods:
        return ""
    lines = ["Interval methods:", ""] + [f"- {k}: {v}" for k, v in methods.items()]
    return "\n".join(lines) + "\n"


def summary_markdown(result) -> str:
    """``summary.md``: the run in one paragraph, then every table."""
    s = result.summary
    st = result.plan.settings()
    out = [f"# Tournament: {result.games:,} games ({result.deals:,} deals), {st['players']} players",
           "",
           f"Format `{st['format']}`{' (duplicate: every deal in every seat rotation)' if st['duplicate'] else ''}, "
           f"seed {st['seed']}, rules `{result.plan.ruleset.display}` (hash `{st['rules_hash'][:12]}`), "
           f"stopped: {result.stopped}"
           + (f" (until-ci {st['until_ci']}, widest win-share half-width {result.max_halfwidth:.4f})"
              if st["until_ci"] is not None else "") + ".",
           "",
           "Every interval is 95% and treats the **deal** (one game seed, whose random streams every "
           "rotation and table of the deal share) as the independent unit, never the game. Win share "
           "(a k-way shared win counts 1/k) and explosions per potion: Wilson intervals at the "
           "cluster effective sample size, with the t quantile over deals (they stay inside [0, 1]). "
           "Mean VP and mean rank: cluster-robust t intervals over deals. Rating: Plackett-Luce "
           "maximum likelihood on the finishing orders (Elo scale, centred on 0; ties split), with "
           "a cluster-robust sandwich covariance over deals.",
           "", interval_methods_md(s.info.get("interval_methods", {})),
           "", "## Strategies", ""]
    h, rows = strategy_rows(s.strategies)
    out += [md_table(h, rows, [False] + [True] * (len(h) - 1)), ""]
    note = s.info.get("rating_note")
    if note:
        out += [f"Rating note: {note}.", ""]
    if len(s.pairs):
        out += ["## Paired differences (per deal)", "",
                "Mean over deals of the difference of the two strategies' per-deal averages (VP "
                "and win share), with a t-interval over deals: this is the interval for the "
                "difference. The *(if unpaired)* columns are not an interval for this run's "
                "difference: they show, for comparison, how wide it would be if the two strategies' "
                "means (each clustered over deals) had been measured on independent deals, i.e. "
                "what pairing buys. Pairing removes the luck of the deal, which narrows the VP "
                "difference; a win-share difference between two strategies at the same table also "
                "carries their head-to-head (when one wins the other does not), which pairing "
                "rightly counts, so it can come out wider than the unpaired figure.", ""]
        h, rows = pair_rows(s.pairs)
        out += [md_table(h, rows, [False, False, True, True, True, True, True]), ""]
    out += ["## Seats", "", "Win share by seat, pooled over strategies (the seat advantage the "
            "rotation balances out).", ""]
    h, rows = seat_rows(s.seats)
    out += [md_table(h, rows), ""]
    per = s.seats[s.seats["strategy"] != "all"]
    if len(per):
        seats = sorted(per["seat"].unique())
        rows = []
        for name, g in per.groupby("strategy", observed=True):
            cells = {int(r["seat"]): f"{_fmt(r['win_share'], 3)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 3)}"
                     for r in g.to_dict(orient="records")}
            rows.append([str(name)] + [cells.get(int(x), "") for x in seats])
        out += ["Win share by strategy and seat [95% CI]:", "",
                md_table(["strategy", *[f"seat {int(x)}" for x in seats]], rows), ""]
    b = s.bought
    if len(b):
        colours = [c for c in b["colour"].cat.categories if b.loc[b["colour"] == c, "mean"].max() > 0]
        rows = []
        for name, g in b.groupby("strategy", observed=True):
            cells = {r["colour"]: f"{_fmt(r['mean'], 2)} {_ci(r['ci_lo'], r['ci_hi'], 2)}"
                     for r in g.to_dict(orient="records")}
            rows.append([str(name), f"{int(g['games'].iloc[0]):,}", *[cells.get(c, "") for c in colours]])
        out += ["## Chips bought per game (mean [95% CI])", "",
                md_table(["strategy", "games", *colours], rows), ""]
    if s.rounds is not None:
        r = s.rounds
        out += ["## By round (mean [95% CI]; every metric in rounds_summary.csv)", ""]
        for metric, title, digits in (("exploded", "Explosion rate", 3), ("reward_space", "Reward space", 2)):
            sub = r[r["metric"] == metric]
            rounds = sorted(sub["round"].unique())
            rows = []
            for name, g in sub.groupby("strategy", observed=True):
                cells = {int(x["round"]): f"{_fmt(x['mean'], digits)} {_ci(x['ci_lo'], x['ci_hi'], digits)}"
                         for x in g.to_dict(orient="records")}
                rows.append([str(name), f"{int(g['n'].iloc[0]):,}", *[cells.get(int(k), "") for k in rounds]])
            out += [f"{title} by round:", "",
                    md_table(["strategy", "games", *[f"round {int(k)}" for k in rounds]], rows), ""]
    if result.notes:
        out += ["## Notes", "", *[f"- {n}" for n in result.notes], ""]
    return "\n".join(out)


# --- reading a report back --------------------------------------------------------------------

def load_summary(path: str | Path) -> Summary:
    """The summary tables of a finished report, read from its CSV files (categoricals restored)."""
    p = Path(path)
    if not (p / TABLE_FILES["strategies"]).is_file():
        raise ReportError(f"{p}: no {TABLE_FILES['strategies']} here; is this a quacks tournament report?")
    run = _read_json(p / RUN_FILE) if (p / RUN_FILE).is_file() else {}
    strategies = pd.read_csv(p / TABLE_FILES["strategies"])
    names = [str(x) for x in strategies["strategy"]]
    cat = pd.CategoricalDtype(names, ordered=True)

    def read(key, cols=("strategy",), cats=None):
        f = p / TABLE_FILES[key]
        if not f.is_file():
            return None
        df = pd.read_csv(f, dtype={c: str for c in cols})
        for c in cols:
            df[c] = df[c].astype(cats or cat)
        return df

    strategies["strategy"] = strategies["strategy"].astype(str).astype(cat)
    seats = read("seats", cats=pd.CategoricalDtype(["all", *names], ordered=True))
    bought = read("bought")
    if bought is not None:
        from sim.chips import COLOUR_NAMES

        bought["colour"] = bought["colour"].astype(pd.CategoricalDtype(COLOUR_NAMES, ordered=True))
    pairs = read("pairs", ("strategy_a", "strategy_b"))
    rounds = read("rounds")
    if rounds is not None:
        rounds["metric"] = rounds["metric"].astype(pd.CategoricalDtype(list(ROUND_METRIC_NAMES)))
    info = {"games": run.get("games"), "deals": run.get("deals"), "players": run.get("players"),
            "rounds": (run.get("ruleset", {}).get("data", {}).get("game", {}).get("rounds")),
            "rating_note": run.get("rating_note", ""), "format": run.get("format"),
            "detail": run.get("detail")}
    return Summary(strategies, pairs if pairs is not None else pd.DataFrame(), seats, bought,
                   read("vp_hist"), rounds, info)


def load_result(path: str | Path, plan):
    """A finished report as a TournamentResult (tables from the CSVs, facts from run.json)."""
    from sim.tournament import TournamentResult

    p = Path(path)
    run = _read_json(p / RUN_FILE)
    return TournamentResult(plan, load_summary(p), int(run["games"]), int(run["deals"]),
                            run.get("stopped", "games"),
                            float(run["max_win_share_halfwidth"] if run.get("max_win_share_halfwidth") is not None else "nan"),
                            0.0, float(run.get("wall_seconds_total", 0.0)), p,
                            ["the run in this directory was already complete"], run.get("files", []))


# --- sweeps -------------------------------------------------------------------------------------

class SweepWriter:
    """Owns a sweep directory: per-value reports in sub-directories, the sweep table on top."""

    def __init__(self, path: Path, settings: dict, subdirs: Sequence[str], *, resume: bool = False,
                 force: bool = False, argv: Sequence[str] | None = None):
        self.path = Path(path)
        self.settings = settings
        self.subdirs = list(subdirs)
        self.argv = list(argv) if argv is not None else list(sys.argv)
        self.started = _now()
        p = self.path
        if p.exists() and not p.is_dir():
            raise ReportError(f"--out {p}: exists and is not a directory")
        entries = _entries(p)
        if entries:
            if force:
                _check_writable(p)
                _remove_known(p, self._previous_subdirs())
            elif resume:
                saved = read_saved_settings(p)
                if saved is None:
                    raise ReportError(f"--resume: {p} holds no quacks sweep to resume")
                d = _diff(saved, settings)
                if d:
                    raise ReportError(f"--resume: {p} holds a sweep with other settings ({d}); "
                                      "repeat its command with --resume, or use --force to start over")
            else:
                hint = ("holds an interrupted sweep; add --resume to continue it or --force to start over"
                        if (p / SWEEP_STATE).exists() else
                        "is not empty; use --force to overwrite the report there")
                raise ReportError(f"--out {p}: the directory {hint}")
        _check_writable(p)
        atomic_write_text(p / SWEEP_STATE, dumps({"settings": settings, "argv": self.argv,
                                                  "started": self.started, "subdirs": self.subdirs}))

    def _previous_subdirs(self) -> list[str]:
        for name in (SWEEP_STATE, RUN_FILE):
            f = self.path / name
            if f.is_file():
                try:
                    return list(json.loads(f.read_text()).get("subdirs", []))
                except (OSError, ValueError):
                    return []
        return []

    def finish(self, res, *, plots: bool = True) -> list[str]:
        """Write sweep.csv, sweep.md, sweep.png and run.json (atomically); return the names."""
        from sim import plots as P

        p = self.path
        stage = p / STAGING
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir()
        res.table.to_csv(stage / "sweep.csv", index=False)
        files = ["sweep.csv", "sweep.md"]
        (stage / "sweep.md").write_text(sweep_markdown(res), encoding="utf-8")
        if plots:
            files += P.render_sweep(res.table, res.settings, stage)
        manifest = {**res.to_json(), "settings": res.settings, "argv": self.argv,
                    "subdirs": self.subdirs, "versions": package_versions(), "started": self.started,
                    "finished": _now(), "files": sorted(files + [RUN_FILE])}
        (stage / RUN_FILE).write_text(dumps(manifest), encoding="utf-8")
        for name in files:
            os.replace(stage / name, p / name)
        os.replace(stage / RUN_FILE, p / RUN_FILE)
        stage.rmdir()
        (p / SWEEP_STATE).unlink(missing_ok=True)
        return manifest["files"]


def sweep_markdown(res) -> str:
    """``sweep.md``: the focus strategy at each value (or grid cell), with its paired difference
    to the baseline."""
    st = res.settings
    keys = st.get("keys") or [st["key"]]
    grid = len(keys) > 1
    header = [*keys, "games", "win share [95% CI]", "mean VP [95% CI]", "mean rank [95% CI]",
              "explosions/potion [95% CI]", "win share - baseline [95% CI]", "VP - baseline [95% CI]"]
    rows = []
    for r in res.table.to_dict(orient="records"):
        vals = [f"{r['value']:g}"] + ([f"{r['value2']:g}"] if grid else [])
        if r.get("baseline"):
            vals[-1] += " (baseline)"
        rows.append([*vals, f"{int(r['games']):,}",
                     f"{_fmt(r['win_share'], 4)} {_ci(r['win_share_ci_lo'], r['win_share_ci_hi'], 4)}",
                     f"{_fmt(r['mean_vp'], 2)} {_ci(r['mean_vp_ci_lo'], r['mean_vp_ci_hi'], 2)}",
                     f"{_fmt(r['mean_rank'], 3)} {_ci(r['mean_rank_ci_lo'], r['mean_rank_ci_hi'], 3)}",
                     f"{_fmt(r['explosion_rate'], 4)} {_ci(r['explosion_rate_ci_lo'], r['explosion_rate_ci_hi'], 4)}",
                     f"{_fmt(r['win_share_diff'], 4)} {_ci(r['win_share_diff_ci_lo'], r['win_share_diff_ci_hi'], 4)}",
                     f"{_fmt(r['vp_diff'], 2)} {_ci(r['vp_diff_ci_lo'], r['vp_diff_ci_hi'], 2)}"])
    b = res.baseline
    where = ("one of the values above" if b.get("in_grid") else
             f"played on the same deals in `{b.get('dir')}/`: win share {_fmt(b.get('win_share'), 4)} "
             f"{_ci(*b.get('win_share_ci', [float('nan')] * 2), 4)}, mean VP {_fmt(b.get('mean_vp'), 2)} "
             f"{_ci(*b.get('mean_vp_ci', [float('nan')] * 2), 2)}")
    what = " x ".join(f"`{k}`" for k in keys)
    return "\n".join([
        f"# Sweep of {what} for `{st['strategy']}` against `{','.join(st['vs'])}`", "",
        f"{st['players']} players, {st['games']:,} games per value (each deal in every seat rotation; "
        f"the same deals for every value), seed {st['seed']}, rules "
        f"`{rules_label(st['rules'], st.get('overrides') or [])}`.", "",
        f"Baseline: `{b.get('spec', '')}`, {where}. The differences are paired: the mean over the "
        "deals both runs played of the difference of the focus strategy's per-deal averages, with a "
        "t interval over deals. Every other interval treats the deal as the independent unit "
        "(win share and explosions: Wilson at the cluster effective sample size; means: "
        "cluster-robust t). All intervals 95%.", "",
        md_table(header, rows), "",
        f"Each value's full report is in its own directory ({res.dirs[0] if res.dirs else ''}, ...).", ""])
