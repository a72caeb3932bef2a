"""Sphinx configuration of the quacks-sim documentation site.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` after
``pip install -e ".[docs]"``. Pages are Markdown (MyST); the reference pages are generated at
build time by the extensions in ``docs/_ext`` from the code itself (the Typer app, the rule and
strategy declarations, the report schemas, the docstrings). The tutorials' figures are drawn by
``docs/examples/make_figures.py`` (run here when they are missing, and by CI before the build).
The site loads nothing from the network: the theme's assets are local and there is no math.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(DOCS / "_ext"), str(ROOT)]

from sim.cli.version import version_text  # noqa: E402

project = "quacks-sim"
author = "the quacks-sim developers"
copyright = "the quacks-sim developers"  # noqa: A001 (Sphinx's name)
release = version_text().split()[-1]
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "quacks_cli",
    "quacks_rules",
    "quacks_strategies",
    "quacks_columns",
    "quacks_api",
    "quacks_figures",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# adding-rules.md: a pointer kept where README links to it; the page is how-to/add-a-rule.md
exclude_patterns = ["_build", "_generated", "examples", "adding-rules.md"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "deflist"]
highlight_language = "text"  # unmarked blocks are command output: no lexer guesses
suppress_warnings = ["myst.header"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}

html_theme = "pydata_sphinx_theme"
html_title = "quacks-sim"
html_static_path = ["_static"]
html_css_files = ["quacks.css"]
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
    "header_links_before_dropdown": 5,
}
html_context = {"default_mode": "light"}
