"""Every number a reader takes for a measured result comes from a run the page shows (issue 44).

The prose of README.md and of every page of the site (docs/) may state a measured figure (a
decimal such as 0.297, a percentage, a count of games, deals or tests, a speed in games/s or
potions/s, a time in s or minutes, a size in MB) only if the same figure is in one of the page's
checked examples: a ``$ quacks ...`` block, or a ``python`` block with its output, which
``tests/readme_examples.py`` re-runs and compares (a figure may be rounded: 13.9% quotes
0.1392). Prose is everything outside fenced blocks, less inline code, link targets and HTML
comments; Markdown tables count as prose.

A number that is not measured (a rule of the game, a setting, a definition, an example value)
is marked in its paragraph: ``<!-- defined: 0.25 is parity with 4 players -->`` lets the
numbers written inside the marker stand in that paragraph (and only there). The interval level
(95%) and the Python version the package requires are allowed everywhere.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import readme_examples as rx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = [rx.README, *rx.docs_pages()]
MARKER = re.compile(r"<!--\s*defined:(?P<text>.*?)-->")
COMMENT = re.compile(r"<!--.*?-->")
CODE = re.compile(r"`[^`]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
UNITS = (r"games?/s|potions/s|games?|deals|tests|potions|seconds|s|min|minutes|ms|MB|KB|GB")
# what looks like a measured result: a percentage, a decimal, a number with a unit of measure
# (one word may stand between: "1,000,000 four-player games")
MEASURED = re.compile(
    rf"(?<![\w.,§])(?P<pct>{NUM})\s?%"
    rf"|(?<![\w.,§])(?P<num>{NUM})(?:[\s-]+[a-z]+(?:-[a-z]+)?)??[\s-]+(?:{UNITS})(?![\w/])"
    rf"|(?<![\w.,§-])(?P<dec>\d+\.\d+)(?![\w.]|\.\d)")
ANY_NUMBER = re.compile(NUM)


def everywhere() -> set[str]:
    """Numbers allowed on every page: the interval level and the Python version required."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    python = re.search(r'requires-python\s*=\s*">=\s*(\d+\.\d+)', pyproject).group(1)
    return {"95", python}


@dataclass
class Claim:
    """A number in a page's prose that looks measured."""

    page: str
    line: int  # 1-based
    text: str  # as written ("13.9%", "2,500 games/s")
    value: str  # the number, without thousands separators
    percent: bool


def _plain(number: str) -> str:
    return number.replace(",", "")


def paragraphs(text: str):
    """The prose of a page: lists of (1-based line number, line) per paragraph, fenced blocks
    left out."""
    para: list[tuple[int, str]] = []
    fence = False
    for i, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if fence:
            fence = stripped != "```"
            continue
        if rx.FENCE.match(line):
            fence = True
        if fence or not stripped:
            if para:
                yield para
            para = []
            continue
        para.append((i, line))
    if para:
        yield para


def claims(text: str, page: str) -> list[Claim]:
    """The numbers of a page's prose that look measured and are not marked as defined."""
    found = []
    allowed_here = everywhere()
    for para in paragraphs(text):
        defined = {_plain(n) for _, ln in para for m in MARKER.finditer(ln)
                   for n in ANY_NUMBER.findall(m["text"])}
        for i, line in para:
            prose = LINK_TARGET.sub("]", CODE.sub(" ", COMMENT.sub(" ", line)))
            for m in MEASURED.finditer(prose):
                number = m["pct"] or m["num"] or m["dec"]
                value = _plain(number)
                if value in defined or value in allowed_here:
                    continue
                found.append(Claim(page, i, m.group().strip(), value, bool(m["pct"])))
    return found


def shown_numbers(examples: list[rx.Example]) -> set[str]:
    """Every number in the checked examples (commands and outputs; skipped ones left out),
    separators removed."""
    out = set()
    for ex in examples:
        if ex.skip:
            continue
        for cmd in ex.commands:
            for line in [cmd.text, *cmd.expected]:
                out.update(_plain(n) for n in ANY_NUMBER.findall(line))
    return out


def _decimals(value: str) -> int:
    return len(value.split(".")[1]) if "." in value else 0


def _significant(value: str) -> int:
    return len(value.replace(".", "").lstrip("0"))


def quoted(claim: Claim, shown: set[str]) -> bool:
    """Whether ``claim`` is one of the shown numbers, as written or, with two significant
    digits or more, rounded as written (a percentage also as a share: 13.9% quotes 0.139 or
    0.1392)."""
    if claim.value in shown:
        return True
    if _significant(claim.value) < 2:
        return False
    d = _decimals(claim.value)
    target = float(claim.value)
    for s in shown:
        v = float(s)
        candidates = [v, v * 100] if claim.percent else [v]
        if _decimals(s) < d:
            continue
        if any(abs(round(c, d) - target) < 10 ** -(d + 3) for c in candidates):
            return True
    return False


def unquoted(text: str, page: str = "page.md") -> list[Claim]:
    """The measured-looking numbers of a page's prose that none of its checked examples
    shows."""
    shown = shown_numbers(rx.parse(text, page))
    return [c for c in claims(text, page) if not quoted(c, shown)]


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_measured_number_in_prose_comes_from_a_checked_example(path):
    page = str(path.relative_to(ROOT))
    bad = unquoted(path.read_text(encoding="utf-8"), page)
    assert not bad, "numbers in prose that no checked example of the page shows (quote them " \
        "from an example's output, rephrase, or mark a definition <!-- defined: N ... -->):\n" \
        + "\n".join(f"  {c.page}:{c.line}: {c.text}" for c in bad)


# --- the check itself --------------------------------------------------------------------------

EXAMPLE = """# A page

```
$ quacks play --strategies expert,greedy --games 2000
2,000 games, 2 players, seed 1, rules base; seats rotate every game; 0.2 s (9,871 games/s)
| expert | 0.6234 [0.6021, 0.6443] | 0.1392 |
```
"""


def _bad(prose: str, page: str = EXAMPLE) -> list[str]:
    return [c.text for c in unquoted(page + "\n" + prose)]


def test_a_result_no_output_shows_is_refused():
    assert _bad("`expert` wins 37.2% of games.") == ["37.2%"]
    assert _bad("`expert` wins 0.372 of its games.") == ["0.372"]
    assert _bad("It plays about 2,500 four-player games/s.") == ["2,500 four-player games/s"]
    assert _bad("Measured over 10,000 games in 12 s, 358 MB at the peak.") == [
        "10,000 games", "12 s", "358 MB"]
    assert _bad("The suite runs 2,294 tests in 8 min.") == ["2,294 tests", "8 min"]


def test_a_result_an_output_shows_may_be_quoted_rounded_as_written():
    assert _bad("`expert` wins 0.6234 [0.6021, 0.6443] of its games, 62.3% of them.") == []
    assert _bad("It explodes 13.9% of its potions (0.139), over 2,000 games.") == []
    assert _bad("a share of 0.1 means nothing here") == ["0.1"]  # one digit: never rounded


def test_definitions_marked_in_their_paragraph_and_code_are_not_results():
    assert _bad("Parity is 0.25 with four players.\n<!-- defined: 0.25 is 1/4 -->") == []
    assert _bad("Parity is 0.25.\n\nAnother paragraph: 0.25 <!-- defined: 0.3 -->") == ["0.25"]
    assert _bad("Stop with `--stop risk:0.35` or `white:6.5`; every 95% interval.") == []
    assert _bad("```\nno prose: 0.731 and 12 s\n```") == []
    assert _bad("<!-- readme-check: skip (slow) -->\n```\n$ quacks play --games 9\n0.4444\n```"
                "\nwins 0.4444") == ["0.4444"]  # a skipped example is not checked
