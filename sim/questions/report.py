"""What a report-producing call of the Python API returns: :class:`Report`.

A command such as ``quacks tournament --out DIR`` writes a report folder; the API call runs the
same code into the folder given as ``out`` or, without one, into a temporary folder that lives as
long as the result. ``.tables`` reads the folder's tables (``summary.csv`` is
``r.tables["summary"]``; a table written both as parquet and CSV is read from the parquet, which
keeps its types), ``.figures`` draws the figures the command saves as PNGs (named as the files,
without ``.png``), ``.save(out)`` copies the folder (what the command writes, nothing else).
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

TABLE_SUFFIXES = (".parquet", ".csv")  # the first found wins
HIDDEN_PREFIXES = (".",)  # partial files and staging folders


class ReportSaveError(ValueError):
    """``Report.save`` was given a place it cannot write."""


class LazyFigures(Mapping):
    """Figures drawn on first access, each once: name -> matplotlib Figure."""

    def __init__(self, jobs: Callable[[], list[tuple[str, Callable[[], object]]]]):
        self._jobs_of = jobs
        self._jobs: dict[str, Callable[[], object]] | None = None
        self._drawn: dict[str, object] = {}

    def _all_jobs(self) -> dict[str, Callable[[], object]]:
        if self._jobs is None:
            self._jobs = {_stem(name): draw for name, draw in self._jobs_of()}
        return self._jobs

    def __getitem__(self, name: str):
        if name not in self._drawn:
            self._drawn[name] = self._all_jobs()[name]()
        return self._drawn[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all_jobs())

    def __len__(self) -> int:
        return len(self._all_jobs())

    def __repr__(self) -> str:
        return f"<figures: {', '.join(self) or 'none'}>"


class Report:
    """A finished report: ``kind`` (the command), ``folder`` (where its files are), ``result``
    (the study layer's result object, for everything the tables do not hold), ``tables``,
    ``figures``, ``markdown`` and ``save``; ``written``: the files the call wrote, in the order
    the command lists them (none for a report made without ``out``).

    A report made without ``out`` may be given ``write(folder)`` instead of a folder: it writes
    the report into a :func:`temporary_folder` when the folder is first needed (``tables``,
    ``markdown``, ``files``, ``save``), so a call whose files nobody reads writes none."""

    def __init__(self, kind: str, folder: str | Path | None, result=None, *,
                 figures: Callable[[], list[tuple[str, Callable[[], object]]]] | None = None,
                 temporary: tempfile.TemporaryDirectory | None = None,
                 write: Callable[[Path], object] | None = None,
                 written: list[str] | None = None):
        if folder is None and write is None:
            raise TypeError("Report: give a folder or a write(folder) function")
        self.kind = kind
        self._folder = Path(folder) if folder is not None else None
        self._write = write
        self.result = result
        self.written = list(written or [])
        self._tables: dict | None = None
        self.figures = LazyFigures(figures or (lambda: []))
        self._temporary = temporary
        if temporary is not None:  # the folder goes with the result
            weakref.finalize(self, temporary.cleanup)

    @property
    def folder(self) -> Path:
        """Where the report's files are (written to a temporary folder first, for a report
        made with ``write`` and no folder)."""
        if self._folder is None:
            tmp = temporary_folder(self.kind)
            try:
                self._write(Path(tmp.name))
            except BaseException:
                tmp.cleanup()
                raise
            self._temporary = tmp
            weakref.finalize(self, tmp.cleanup)
            self._folder = Path(tmp.name)
        return self._folder

    @property
    def tables(self) -> dict:
        """The report's tables as pandas frames, named as its files without extension."""
        if self._tables is None:
            self._tables = read_tables(self.folder)
        return self._tables

    @property
    def markdown(self) -> str:
        """The report's text summary (``report.md`` or ``summary.md``), or "" when it has none."""
        for name in ("report.md", "summary.md"):
            p = self.folder / name
            if p.is_file():
                return p.read_text(encoding="utf-8")
        return ""

    def files(self) -> list[str]:
        """The names of the files the report holds (relative to its folder), sorted."""
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.rglob("*")
                      if p.is_file() and not _hidden(p.relative_to(self.folder)))

    def save(self, out: str | Path, *, force: bool = False) -> Path:
        """Write the report's files to ``out`` (what the command writes there): a new folder,
        or an existing one with ``force`` (its contents replaced). Atomic: the files go to a
        temporary sibling that is renamed into place."""
        dest = Path(out)
        if str(out).strip() == "":
            raise ReportSaveError("save: expected a folder name, got ''")
        if dest.resolve() == self.folder.resolve():
            return dest
        if dest.exists() and not dest.is_dir():
            raise ReportSaveError(f"{dest}: exists and is not a folder")
        if dest.exists() and any(dest.iterdir()) and not force:
            raise ReportSaveError(f"{dest}: exists and is not empty (pass force=True to replace)")
        if not dest.parent.is_dir():
            raise ReportSaveError(f"{dest.parent}: no such folder")
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
        try:
            for name in self.files():
                target = tmp / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(self.folder / name, target)
            if dest.exists():
                shutil.rmtree(dest)
            tmp.rename(dest)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return dest

    def __repr__(self) -> str:
        where = ("temporary folder" if self._temporary is not None or self._folder is None
                 else str(self._folder))
        return (f"<{self.kind} report in {where}: tables {', '.join(self.tables) or 'none'}; "
                f"figures {', '.join(self.figures) or 'none'}>")

    def _repr_html_(self) -> str:
        """Jupyter's display: the report's summary and its first tables."""
        from html import escape

        parts = [f"<h4>{escape(self.kind)} report</h4>"]
        md = self.markdown
        if md:
            try:
                from markdown_it import MarkdownIt

                parts.append(MarkdownIt("commonmark").enable("table").render(md))
            except ImportError:
                parts.append(f"<pre>{escape(md)}</pre>")
        else:
            for name, df in list(self.tables.items())[:4]:
                parts.append(f"<h5>{escape(name)}</h5>{df.head(20).to_html()}")
        return "\n".join(parts)


def temporary_folder(kind: str) -> tempfile.TemporaryDirectory:
    """A temporary folder for a report made without ``out`` (removed with its result)."""
    return tempfile.TemporaryDirectory(prefix=f"quacks-{kind}-")


@contextmanager
def report_folder(kind: str, out: str | Path | None):
    """The folder a report call writes to and its temporary folder: ``(Path(out), None)``, or
    without ``out`` a new :func:`temporary_folder` and that folder, removed again when the
    block raises (an error or Ctrl-C), else left to the :class:`Report` it is given to."""
    tmp = temporary_folder(kind) if out is None else None
    try:
        yield (Path(out) if tmp is None else Path(tmp.name)), tmp
    except BaseException:
        if tmp is not None:
            tmp.cleanup()
        raise


def read_tables(folder: Path) -> dict:
    """Every table file of a report folder (parquet first, then CSV), by name without
    extension, sub-folders' tables as ``sub/name``."""
    import pandas as pd

    tables: dict = {}
    for suffix in TABLE_SUFFIXES:
        for p in sorted(folder.rglob(f"*{suffix}")):
            rel = p.relative_to(folder)
            if _hidden(rel):
                continue
            name = rel.with_suffix("").as_posix()
            if name in tables:
                continue
            tables[name] = pd.read_parquet(p) if suffix == ".parquet" else pd.read_csv(p)
    return tables


def _hidden(rel: Path) -> bool:
    return any(part.startswith(HIDDEN_PREFIXES) for part in rel.parts)


def _stem(name: str) -> str:
    return name[:-4] if name.endswith(".png") else name
