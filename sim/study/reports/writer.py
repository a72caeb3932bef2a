"""Report directories: parquet game records, summary tables, the run manifest, atomically.

A finished tournament report ``DIR`` holds:

- ``games.parquet``: one row per game and seat (``game, deal, seed, combo, rotation, seat,
  strategy, vp, rank, win_share, explosions, rubies, droplet, final_position, chips, illegal,
  bought_<colour>``). ``strategy`` is dictionary-encoded (a pandas categorical). To replay a
  game: ``quacks replay DIR --row N`` (or ``--game G --seat S``; see ``sim.study.reports.replay``).
- ``rounds.parquet`` (``--detail rounds``): one row per game, round and seat, with the round
  record (reward space, exploded, VP gained, coins, white total, rat, score, rubies, droplet,
  chips in the bag and in the pot, and the bag by colour after the round).
- ``summary.csv`` (per strategy), ``pairs.csv`` (paired differences), ``seats.csv`` (win share
  by seat), ``bought.csv`` (chips bought by colour), ``vp_hist.csv`` (VP distribution),
  ``rounds_summary.csv`` (per-round means, with rounds detail), ``head_to_head.csv`` (round-robin
  with more strategies than seats: A's win share at the tables A shares with B, every ordered
  pair), ``nash.csv`` (with the head-to-head table: per strategy its Nash weight, Nash rating and
  AlphaRank mass with bootstrap intervals, ``sim.study.tournament.cycles``), ``summary.md`` (all
  tables).
- ``run.json``: command line, settings, resolved ruleset and its hash, strategy specs with
  parameters, seed, game count, package versions, wall time and the per-strategy results.
- the PNG plots (see ``sim.study.reports.plots``).

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

import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.rules.card_numbers import loaded_rules_files
from sim.study.reports.files import (
    COMPRESSION,
    GAMES_FILE,
    MD_FILE,
    REPORT_HTML,
    ROUNDS_FILE,
    RUN_FILE,
    STAGING,
    STATE_FILE,
    TABLE_FILES,
    atomic_write_text,
    canonical_command,
    check_writable,
    dumps,
    now_iso,
    open_out,
    package_versions,
    partial,
    read_json,
    resume_name,
    settings_diff,
    sha256_of,
)
from sim.study.reports.load import load_result
from sim.study.reports.markdown import summary_markdown
from sim.study.reports.provenance import PROVENANCE_KEY, make_provenance
from sim.study.reports.schema import (
    ROUND_TYPES,
    ReportError,
    arrow_schema,
    arrow_table,
    game_types,
    numpy_columns,
)
from sim.study.tournament.statistics import Accumulator, Summary


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
        mode = "fresh"
        if open_out(p, resume=resume, force=force, state_file=STATE_FILE):
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
                raise ReportError(
                    f"--resume: {p} holds no interrupted quacks tournament to resume")
        check_writable(p)
        if mode == "complete":
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
        res, part, final = (self.path / resume_name(name), self.path / partial(name),
                            self.path / name)
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
        """Write tables, plots and run.json, move everything into place, then write the page
        (report.html) from the finished folder; return the names."""
        from sim.study.reports import plots as P
        from sim.study.reports.html import write_html
        from sim.study.reports.witch_use import write_witch_use

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
        result.files = sorted(data + files + [RUN_FILE, REPORT_HTML])
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
        write_html(p)  # the page of the finished report, from its files
        return result.files

    def manifest(self, result) -> dict:
        """The run.json object."""
        plan = self.plan
        rs = plan.ruleset
        d = result.to_json()
        command = canonical_command(plan.settings())
        d.update({
            "command": command,
            PROVENANCE_KEY: make_provenance(command, argv=self.argv, seed=plan.config.seed,
                                            rules=[(rs.display, rs.hash)]).to_json(),
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
            "strategy_files": [{"path": f, "sha256": sha256_of(f)}
                               for f in plan.config.strategy_files],
            "rules_files": loaded_rules_files(),
            "versions": package_versions(),
            "started": self.started, "finished": now_iso(),
            "wall_seconds": round(result.seconds, 3),
            "wall_seconds_total": round(result.seconds_total, 3),
            "files": result.files,
        })
        return d


# --- tables -----------------------------------------------------------------------------------

TABLE_FORMATS = ("csv", "parquet")


def summary_tables(summary: Summary) -> dict:
    """The tables of a summary that it has, named as a tournament report's files
    (``TABLE_FILES`` without ``.csv``: summary, pairs, seats, bought, vp_hist, ...)."""
    out = {}
    for attr, fname in TABLE_FILES.items():
        df = getattr(summary, attr)
        if df is not None:
            out[Path(fname).stem] = df
    return out


def write_frames(tables: dict, outdir: Path, formats: Sequence[str] = ("csv",)) -> list[str]:
    """Write each table (name: DataFrame) into ``outdir`` as ``<name>.<format>`` in every one
    of ``formats`` (``TABLE_FORMATS``); return the file names."""
    names = []
    for name, df in tables.items():
        for fmt in formats:
            f = f"{name}.{fmt}"
            if fmt == "csv":
                df.to_csv(Path(outdir) / f, index=False)
            elif fmt == "parquet":
                df.to_parquet(Path(outdir) / f, index=False)
            else:
                raise ValueError(f"table format {fmt!r}: expected one of {TABLE_FORMATS}")
            names.append(f)
    return names


def write_tables(summary: Summary, outdir: Path) -> list[str]:
    """Write the CSV tables of a summary into ``outdir``; return their names."""
    return write_frames(summary_tables(summary), outdir)
