"""``report.html``: one self-contained page for a report folder.

:func:`write_html` renders what :func:`sim.study.reports.page.read_page` reads from the folder
with the Jinja2 template ``templates/report.html.j2`` (autoescaped): the manifest at the top (its
provenance, ``sim.study.reports.provenance``: the command as given and the one that reproduces
the run, the seed, the ruleset hashes, the versions, the git commit; then the date), the
markdown summaries (rendered by markdown-it, raw HTML in them escaped, headings one level down),
every figure (a data URI: PNG as it is, SVG as an image, so nothing in it runs), every table
(its header, the first rows and how many the file holds) and links to the reports inside the
folder. The page loads nothing: no network, no other file; its style sheet is inline. It is
written to a temporary name and renamed, and the same folder always gives the same bytes (no
time but the manifest's).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path, PurePosixPath

from sim.study.reports.files import REPORT_HTML, atomic_write_text
from sim.study.reports.page import MAX_ROWS, Page, read_page

TEMPLATE = "report.html.j2"


@lru_cache(maxsize=1)
def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader("sim.study.reports", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


@lru_cache(maxsize=1)
def _markdown_renderer():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def image(self, tokens, idx, options, env):
        """A figure of the folder as its data URI (marked as shown); anything else as its
        alt text."""
        from markupsafe import escape

        tok = tokens[idx]
        alt = self.renderInlineAsText(tok.children or [], options, env)
        src = str(tok.attrGet("src") or "")
        name = PurePosixPath(env["base"], src).as_posix() if env["base"] else src
        fig = env["figures"].get(name)
        if fig is None:
            return str(escape(f"[{alt or src}]"))
        env["shown"].add(name)
        return f'<img src="{fig.data_uri}" alt="{escape(alt)}">'

    def table_open(self, tokens, idx, options, env):
        """A table in a box that scrolls sideways, not the page."""
        return '<div class="scroll">' + self.renderToken(tokens, idx, options, env)

    def table_close(self, tokens, idx, options, env):
        return self.renderToken(tokens, idx, options, env) + "</div>\n"

    md.add_render_rule("image", image)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


def render_markdown(text: str, page: Page, base: str, shown: set[str]) -> str:
    """Markdown as HTML for the page: raw HTML escaped, headings one level down (the page's
    own are above them), images of the folder's figures embedded (their names added to
    ``shown``); ``base`` is the markdown file's folder inside the report."""
    md = _markdown_renderer()
    env = {"figures": page.figures, "base": base, "shown": shown}
    tokens = md.parse(text, env)
    for t in tokens:
        if t.type in ("heading_open", "heading_close"):
            t.tag = f"h{min(int(t.tag[1]) + 1, 6)}"
    return md.renderer.render(tokens, md.options, env)


def render_html(page: Page) -> str:
    """The page's HTML text."""
    from markupsafe import Markup

    shown: set[str] = set()
    docs = []
    for name, text in page.markdown:
        base = PurePosixPath(name).parent.as_posix()
        docs.append((name, Markup(render_markdown(text, page, "" if base == "." else base,
                                                  shown))))
    figures = [f for n, f in page.figures.items() if n not in shown]
    return _environment().get_template(TEMPLATE).render(
        page=page, m=page.manifest, docs=docs, figures=figures, max_rows=MAX_ROWS,
        anchor=_anchor)


def _anchor(kind: str, name: str) -> str:
    """An element id for a table or figure name (letters, digits and dashes)."""
    return kind + "-" + "".join(c if c.isalnum() else "-" for c in name)


def write_html(folder: str | Path) -> Path:
    """Write ``folder/report.html`` for the report in ``folder`` (through a temporary name);
    return its path. ReportError if the folder holds no report."""
    p = Path(folder)
    text = render_html(read_page(p))
    atomic_write_text(p / REPORT_HTML, text)
    return p / REPORT_HTML
