"""The documentation site (docs/): it builds with Sphinx with no warning (-W), loads nothing from
the network, every internal link and image of it resolves, a real browser with the network cut
draws its index, a tutorial and the CLI reference with their figures, and every example block of
its pages still gives the output the page shows (``tests/readme_examples.py --docs``).

The build and the examples are slow-marked (the build runs the sample reports and figures of
``docs/examples/make_figures.py`` when they are missing or stale); the checks of the examples
parser and of the figure markers are quick."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import readme_examples as rx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "examples"))
import make_figures  # noqa: E402

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium")
                                        else None)
PAGES = ("index.html", "tutorials/batch-experiment.html", "reference/cli.html")
DOC_EXAMPLES = [e for page in rx.docs_pages() for e in rx.load(page)]


# --- the build -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    for module in ("sphinx", "myst_parser", "pydata_sphinx_theme"):
        pytest.importorskip(module, reason="no docs extra: pip install -e .[docs]")
    built = os.environ.get("QUACKS_DOCS_BUILT")  # .ci/run's own -W build of this tree
    if built and (Path(built) / "index.html").is_file():
        return Path(built)
    out = tmp_path_factory.mktemp("site") / "html"
    res = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                          "html", str(DOCS), str(out)], cwd=ROOT, capture_output=True, text=True,
                         timeout=1800, check=False)
    assert res.returncode == 0, f"the site does not build cleanly:\n{res.stderr[-4000:]}"
    return out


class _Page(HTMLParser):
    """Every id of a page and every (tag, attribute, value) of a src or href."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str, str]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for k in ("src", "href"):
            if a.get(k) is not None:
                self.refs.append((tag, k, a[k]))


def _pages(site: Path) -> dict[Path, _Page]:
    """The site's pages (not the theme's templates that Sphinx copies into _static)."""
    return {p: _Page(p.read_text(encoding="utf-8")) for p in site.rglob("*.html")
            if "_static" not in p.relative_to(site).parts}


@pytest.mark.slow
def test_the_site_has_every_section_and_generated_reference(site):
    for page in ("getting-started/index.html", "tutorials/stop-thresholds-notebook.html",
                 "tutorials/balancing-a-variant.html", "how-to/add-a-rule.html",
                 "explanation/rule-readings.html", "reference/rules.html",
                 "reference/strategies.html", "reference/report-columns.html",
                 "reference/api.html"):
        assert (site / page).is_file(), page
    cli = (site / "reference/cli.html").read_text(encoding="utf-8")
    for cmd in ("quacks-tournament", "quacks-rules-show", "quacks-experiment-run"):
        assert f'id="{cmd}"' in cli, cmd
    assert "--until-ci" in cli and "Override one ruleset value" in cli
    rules = (site / "reference/rules.html").read_text(encoding="utf-8")
    assert rules.count("§8.1 (the base game") == 24  # one per card
    assert "Rats Are Your Friends" in rules and "§10.2" in rules
    strategies = (site / "reference/strategies.html").read_text(encoding="utf-8")
    assert 'id="strategy-master"' in strategies and "last_more" in strategies
    columns = (site / "reference/report-columns.html").read_text(encoding="utf-8")
    assert "final_position" in columns and "win_share_ci_lo" in columns
    assert "sim.questions" in (site / "reference/api.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_site_loads_nothing_from_the_network(site):
    for path, page in _pages(site).items():
        for tag, _attr, value in page.refs:
            if tag in ("link", "script", "img", "iframe", "source", "video", "audio"):
                assert not re.match(r"(?:[a-z]+:)?//", value), (path.name, tag, value)
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", text), css.name


@pytest.mark.slow
def test_every_internal_link_and_image_resolves(site):
    pages = _pages(site)
    checked = 0
    for path, page in pages.items():
        for tag, attr, value in page.refs:
            parts = urlsplit(value)
            if parts.scheme or value.startswith("//") or value.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.exists(), f"{path.relative_to(site)}: {tag} {attr}={value}"
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                assert unquote(parts.fragment) in ids, \
                    f"{path.relative_to(site)}: {value}: no such anchor"
            checked += 1
    assert checked > 500


# --- a real browser, the network cut -----------------------------------------------------------

_PROBE = """<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var imgs = Array.prototype.map.call(document.images, function (i) {
      return i.getAttribute("src") + "=" + (i.complete ? i.naturalWidth : -1);
    });
    var out = document.createElement("pre");
    out.id = "docs-probe";
    out.textContent = "IMAGES " + imgs.join(" ") + " TEXT " + document.body.innerText.length;
    document.body.appendChild(out);
  }, 500);
});
</script>"""


def _chromium(url: str, user_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
         f"--user-data-dir={user_dir}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=15000", "--dump-dom", url],
        capture_output=True, text=True, timeout=180, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_a_browser_draws_the_page_and_its_figures_offline(site, page, tmp_path):
    if CHROMIUM is None:
        if os.environ.get("QUACKS_REQUIRE_BROWSER") == "1":
            pytest.fail("QUACKS_REQUIRE_BROWSER=1 but chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    src = site / page
    probe = src.with_name(src.stem + ".probe.html")  # beside it: its relative links still work
    probe.write_text(src.read_text(encoding="utf-8").replace("</body>", _PROBE + "</body>"),
                     encoding="utf-8")
    try:
        res = _chromium(probe.resolve().as_uri(), tmp_path / "profile")
    finally:
        probe.unlink()
    assert res.returncode == 0, res.stderr[-2000:]
    m = re.search(r'id="docs-probe">IMAGES (.*?) TEXT (\d+)</pre>', res.stdout)
    assert m, f"the page never finished loading:\n{res.stderr[-2000:]}"
    assert int(m.group(2)) > 500  # text was drawn
    images = dict(item.rsplit("=", 1) for item in m.group(1).split())
    for name, width in images.items():
        assert int(width) > 0, f"{page}: image {name} did not load"
    if page.startswith("tutorials/"):
        assert any("/tutorial-" in name for name in images), images  # make_figures' figures
    failed = [ln for ln in res.stderr.splitlines() if "net::ERR" in ln or "Failed to load" in ln]
    assert not failed, failed


# --- the examples of the pages -----------------------------------------------------------------

@pytest.fixture(scope="module")
def runners(tmp_path_factory):
    by_doc: dict[str, rx.Runner] = {}

    def runner(example: rx.Example) -> rx.Runner:
        if example.doc not in by_doc:
            examples = [e for e in DOC_EXAMPLES if e.doc == example.doc]
            by_doc[example.doc] = rx.Runner(examples, tmp_path_factory.mktemp("docs-examples"))
        return by_doc[example.doc]

    return runner


def test_the_pages_have_checked_examples():
    docs = {e.doc for e in DOC_EXAMPLES if not e.skip}
    for page in ("docs/tutorials/batch-experiment.md", "docs/tutorials/balancing-a-variant.md",
                 "docs/tutorials/stop-thresholds-notebook.md", "docs/getting-started/index.md"):
        assert page in docs, page
    assert all(e.skip.strip() for e in DOC_EXAMPLES if e.skip)  # each skip says why


@pytest.mark.slow
@pytest.mark.parametrize("example", DOC_EXAMPLES, ids=[e.name for e in DOC_EXAMPLES])
def test_docs_example(example, runners):
    if example.skip:
        pytest.skip(example.skip)
    diff = rx.check(example, runners(example).run(example))
    assert diff is None, (f"{example.doc}:{example.line} no longer reproduces (python "
                          f"tests/readme_examples.py --file {example.doc} --update):\n{diff}")


# --- the examples parser and the figure markers (quick) -----------------------------------------

MYST = """# t

```{image} ../_generated/figures/a.png
:width: 10px
```

<!-- figure: a.png from out/win_share.png -->
```
$ quacks play --games 10
x
```
"""


def test_myst_directive_fences_are_blocks_not_examples():
    ex = rx.parse(MYST, "docs/t.md")
    assert [[c.text for c in e.commands] for e in ex] == [["quacks play --games 10"]]
    assert ex[0].commands[0].expected == ["x"] and ex[0].doc == "docs/t.md"
    assert ex[0].name.startswith("t-L")
    assert make_figures.marked(MYST) == [(ex[0].start, [("a.png", "out/win_share.png")])]


def test_readme_examples_lists_a_given_file(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text(MYST)
    assert rx.main(["--file", str(page), "--list"]) == 0
    assert "page.md: page-L9-quacks-play---games-10" in capsys.readouterr().out


def test_every_figure_a_page_shows_is_drawn_by_a_marker_on_it():
    for page in make_figures.pages():
        text = page.read_text(encoding="utf-8")
        shown = set(re.findall(r"_generated/figures/([\w.-]+\.png)", text))
        drawn = {name for _, figs in make_figures.marked(text) for name, _ in figs}
        assert shown == drawn, page.name
