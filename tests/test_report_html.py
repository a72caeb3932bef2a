"""``report.html``: the one page of a report folder. Real folders (a tournament with rounds
detail, a sweep, a thresholds run) written by the commands: the page holds every table of its
folder (name, header, first row, the count of a cut table), every figure as a data URI, the
command and the seed; it loads nothing (no network, no other file); re-rendering gives the same
bytes; ``quacks report DIR`` writes it and refuses a DIR that is not a report (one line, exit 2);
and a real browser (headless Chromium, when installed) opens it without a console message and
draws a page that is not blank."""

from __future__ import annotations

import base64
import os
import re
import shlex
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers
from markupsafe import escape

from sim.cli.main import app
from sim.study.reports.html import write_html
from sim.study.reports.page import MAX_ROWS, cell_text

invoke, ok = invokers(app)

TOURNAMENT = ["tournament", "--strategies", "threshold,threshold:t=7,random", "--games", "300",
              "--seed", "5", "--detail", "rounds"]
SWEEP = ["sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random", "--players",
         "2", "--games", "90", "--seed", "3"]
THRESHOLDS = ["thresholds", "--bag", "w3x3", "--seed", "4"]
SEEDS = {"tournament": "5", "sweep": "3", "thresholds": "none (computed exactly)"}
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium")
                                        else None)


def _run(args: list[str], out: Path) -> None:
    """Run a command as ``quacks`` would, with its argv (the manifest records the command)."""
    argv = ["quacks", *args, "--out", str(out)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "argv", argv)
        ok(*argv[1:])


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("reports")
    out = {}
    for kind, args in (("tournament", TOURNAMENT), ("sweep", SWEEP), ("thresholds", THRESHOLDS)):
        out[kind] = root / kind
        _run(args, out[kind])
    return out


class _Page(HTMLParser):
    """The tables of a page by their section (heading, header cells, body rows, the note under
    the heading), every src/href value, and the tag names."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: dict[str, dict] = {}
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.tags: set[str] = set()
        self._t = None
        self._in = None
        self._row = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        for k in ("src", "href"):
            if k in a:
                self.links.append((tag, k, a[k] or ""))
        if tag == "section" and a.get("class") == "table":
            self._t = {"name": "", "header": [], "rows": [], "note": ""}
        elif self._t is not None:
            if tag in ("h3", "th", "td") or (tag == "p" and not self._t["note"]):
                self._in = tag
                self._buf = ""
            if tag == "tr" and self._t["header"]:
                self._row = []

    def handle_data(self, data):
        if self._in:
            self._buf += data

    def handle_endtag(self, tag):
        t = self._t
        if t is None:
            return
        if tag == self._in:
            text, self._in = self._buf, None
            if tag == "h3":
                t["name"] = text
            elif tag == "p":
                t["note"] = text
            elif tag == "th":
                t["header"].append(text)
            elif tag == "td" and self._row is not None:
                self._row.append(text)
        elif tag == "tr" and self._row is not None:
            t["rows"].append(self._row)
            self._row = None
        elif tag == "section":
            self.tables[t["name"]] = t
            self._t = None


def _table_files(folder: Path) -> list[str]:
    return sorted(f.name for f in folder.iterdir()
                  if f.suffix in (".csv", ".parquet") and not f.name.startswith("."))


def _first_rows(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)


@pytest.mark.parametrize("kind", ["tournament", "sweep", "thresholds"])
def test_the_page_holds_every_table_figure_and_the_command(folders, kind):
    folder = folders[kind]
    page = folder / "report.html"
    text = page.read_text(encoding="utf-8")
    parsed = _Page(text)
    names = _table_files(folder)
    assert names, "the folder has tables"
    assert sorted(parsed.tables) == names  # every table of the folder, and nothing else
    cut = 0
    for name in names:
        df = _first_rows(folder / name)
        t = parsed.tables[name]
        assert t["header"] == [str(c) for c in df.columns], name
        assert f"{len(df):,} row" in t["note"], (name, t["note"])
        assert len(t["rows"]) == min(len(df), MAX_ROWS), name
        if len(df):
            first = [cell_text(v) for v in df.iloc[0]]
            assert t["rows"][0] == first, name  # the values, in the order of the file
            last = [cell_text(v) for v in df.iloc[min(len(df), MAX_ROWS) - 1]]
            assert t["rows"][-1] == last, name
        if len(df) > MAX_ROWS:
            cut += 1
            assert f"the first {MAX_ROWS} shown" in t["note"], name
    if kind == "tournament":
        assert cut >= 2  # games.parquet and rounds.parquet are longer than a page shows
        assert "Tournament: 300 games" in text  # summary.md, rendered
    # every figure, as a data URI of its very bytes
    pngs = sorted(folder.glob("*.png"))
    assert pngs or kind == "sweep"
    for png in pngs:
        uri = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
        assert f'src="{uri}"' in text, png.name
    # the command as given, the seed, the versions
    args = {"tournament": TOURNAMENT, "sweep": SWEEP, "thresholds": THRESHOLDS}[kind]
    command = shlex.join(["quacks", *args, "--out", str(folder)])
    assert str(escape(command)) in text
    assert f"<dt>seed</dt><dd>{escape(SEEDS[kind])}</dd>" in text
    assert "numba " in text and "quacks-sim " in text


@pytest.mark.parametrize("kind", ["tournament", "sweep", "thresholds"])
def test_the_page_loads_nothing(folders, kind):
    text = (folders[kind] / "report.html").read_text(encoding="utf-8")
    parsed = _Page(text)
    assert not {"script", "link", "iframe", "object", "embed"} & parsed.tags
    assert "@import" not in text and "url(" not in text
    for tag, attr, value in parsed.links:
        if attr == "src":
            assert value.startswith("data:image/"), (tag, value[:80])
        else:  # links: within the page, or the page of a report inside the folder
            assert tag == "a" and not re.match(r"[a-z]+:|//", value), value
            assert value.startswith("#") or (folders[kind] / unquote(value)).is_file(), value
    assert not re.search(r"(?:src|href)\s*=\s*[\"']?\s*(?:https?:)?//", text)
    assert "default-src 'none'" in text  # and the browser is told to load nothing else


def test_a_sweep_links_every_value_report(folders):
    text = (folders["sweep"] / "report.html").read_text(encoding="utf-8")
    for value in ("t=5", "t=6"):
        sub = folders["sweep"] / value
        assert (sub / "report.html").is_file()
        assert f'href="{value.replace("=", "%3D")}/report.html"' in text
        assert "summary.csv" in (sub / "report.html").read_text(encoding="utf-8")


def test_rendering_again_gives_the_same_file(folders, tmp_path):
    page = folders["tournament"] / "report.html"
    before = page.read_bytes()
    assert write_html(folders["tournament"]) == page
    assert page.read_bytes() == before
    copy = tmp_path / "elsewhere"  # the same files somewhere else: the same page
    shutil.copytree(folders["tournament"], copy)
    (copy / "report.html").unlink()
    r = ok("report", copy)
    assert r.stdout.strip() == f"wrote {copy / 'report.html'}"
    assert (copy / "report.html").read_bytes() == before
    assert not [p.name for p in copy.iterdir() if p.name.endswith(".partial")]


def test_no_plots_then_plot_then_report(tmp_path):
    out = tmp_path / "t"
    ok("tournament", "--strategies", "threshold,random", "--games", 400, "--out", out,
       "--no-plots")
    assert (out / "report.html").is_file() and not list(out.glob("*.png"))
    assert "data:image/png" not in (out / "report.html").read_text(encoding="utf-8")
    ok("plot", out)
    ok("report", out)
    text = (out / "report.html").read_text(encoding="utf-8")
    pngs = sorted(out.glob("*.png"))
    assert pngs
    for png in pngs:
        assert base64.b64encode(png.read_bytes()).decode("ascii") in text, png.name


def test_quacks_report_refuses_what_is_not_a_report(tmp_path):
    assert_user_error(invoke("report", tmp_path / "nope"), "no such folder")
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert_user_error(invoke("report", f), "a file")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_user_error(invoke("report", empty), "not a report folder")
    assert list(empty.iterdir()) == []
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "run.json").write_text("{not json")
    assert_user_error(invoke("report", bad), "run.json")
    assert not (bad / "report.html").exists()


def test_quacks_help_lists_report():
    assert re.search(r"│ report\s+Write report\.html", invoke("--help").stdout)


# --- a real browser ------------------------------------------------------------------------------

def _chromium(*args: str, user_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={user_dir}", "--enable-logging=stderr", "--v=0",
         *args], capture_output=True, text=True, timeout=180, check=False)


def test_a_browser_opens_the_page(folders, tmp_path):
    if CHROMIUM is None:
        if os.environ.get("QUACKS_REQUIRE_BROWSER") == "1":
            pytest.fail("QUACKS_REQUIRE_BROWSER=1 but chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    import matplotlib.image as mpimg
    import numpy as np

    url = (folders["tournament"] / "report.html").resolve().as_uri()
    dom = _chromium("--dump-dom", url, user_dir=tmp_path / "profile1")
    assert dom.returncode == 0, dom.stderr[-2000:]
    console = [ln for ln in dom.stderr.splitlines() if ":CONSOLE" in ln]
    assert not console, console  # no error, no blocked load, no message at all
    assert dom.stdout.count("<table") >= len(_table_files(folders["tournament"]))
    assert "Re-write it with" in dom.stdout  # parsed to the end
    shot = tmp_path / "shot.png"
    r = _chromium(f"--screenshot={shot}", "--window-size=1200,900", url,
                  user_dir=tmp_path / "profile2")
    assert r.returncode == 0 and shot.is_file(), r.stderr[-2000:]
    img = mpimg.imread(shot)[..., :3]
    assert img.shape[:2] == (900, 1200)
    assert img.std() > 0.05  # not one colour
    assert (img.mean(axis=2) < 0.5).mean() > 0.005  # some dark ink on the page: text
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50
