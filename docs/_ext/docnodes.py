"""Small builders of docutils nodes shared by the site's extensions: paragraphs whose
``backticked`` words become inline code, tables from rows, and titled sections with stable ids.

Every text the generated reference shows goes through these as plain text (never parsed as
reStructuredText or Markdown), so a help text or a rule's paraphrase is shown as it is written."""

from __future__ import annotations

import re

from docutils import nodes

_TICKS = re.compile(r"``([^`]+)``|`([^`]+)`")


def inline(text: str) -> list[nodes.Node]:
    """``text`` as inline nodes: plain text, with every word in single or double backticks as
    inline code."""
    out: list[nodes.Node] = []
    pos = 0
    for m in _TICKS.finditer(text):
        if m.start() > pos:
            out.append(nodes.Text(text[pos:m.start()]))
        code = m.group(1) or m.group(2)
        out.append(nodes.literal(code, code))
        pos = m.end()
    if pos < len(text):
        out.append(nodes.Text(text[pos:]))
    return out


def para(text: str) -> nodes.paragraph:
    """One paragraph of ``text`` (see :func:`inline`)."""
    return nodes.paragraph("", "", *inline(text))


def paras(text: str) -> list[nodes.Node]:
    """A help text's paragraphs (blank-line separated); lines starting with ``- `` become a
    bullet list."""
    out: list[nodes.Node] = []
    for block in (text or "").split("\n\n"):
        lines = [ln.strip() for ln in block.strip().split("\n") if ln.strip()]
        if not lines:
            continue
        if all(ln.startswith(("- ", "* ")) for ln in lines):
            items = nodes.bullet_list()
            for ln in lines:
                items += nodes.list_item("", para(ln[2:]))
            out.append(items)
        else:
            out.append(para(" ".join(ln.lstrip("\b") for ln in lines)))
    return out


def cell(value) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, nodes.Node):
        entry += value
    elif isinstance(value, list):
        for v in value:
            entry += v
    else:
        entry += para("" if value is None else str(value))
    return entry


def table(header: list[str], rows: list[list], widths: list[int] | None = None,
          classes: tuple[str, ...] = ()) -> nodes.table:
    """A table with a header row; a cell is a string (inline code in backticks), a node or a
    list of nodes."""
    # "colwidths-given": Sphinx writes the widths as the columns' style only with this class
    tab = nodes.table(classes=[*classes, *(["colwidths-given"] if widths else [])])
    group = nodes.tgroup(cols=len(header))
    tab += group
    for w in widths or [1] * len(header):
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    row = nodes.row()
    for h in header:
        row += cell(h)
    head += row
    group += head
    body = nodes.tbody()
    for r in rows:
        row = nodes.row()
        for v in r:
            row += cell(v)
        body += row
    group += body
    return tab


def slug(text: str) -> str:
    """An id for ``text`` as docutils makes it: ``quacks rules show`` -> ``quacks-rules-show``."""
    return nodes.make_id(text)


def section(title: str, ident: str | None = None) -> nodes.section:
    """A section with a title and the id ``ident`` (default: the title's slug)."""
    sec = nodes.section(ids=[ident or slug(title)])
    sec += nodes.title(title, "", *inline(title))
    return sec
