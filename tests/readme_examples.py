"""Re-run every example of README.md (or of the documentation's pages) and compare its output
with the block the document shows.

An example is a fenced code block whose first line is ``$ quacks ...``: each ``$ `` line is a
command (run with bash in a scratch folder), the lines after it up to the next ``$`` line are its
expected output (stdout and stderr together). A ``python`` block followed directly by a plain
block is an example too: the code is run with ``python -c`` and its output compared with the
second block.

- A line ``...`` (alone, any indent) stands for any number of output lines: README abridges long
  output with it, and the check and ``--update`` keep it where it is.
- What legitimately varies is normalised on both sides before comparing: the time figures
  (``0.6 s``, ``68,683 games/s``) and the trailing spaces of a line; the compile notice
  (``compiling ...`` on stderr, on a cold cache) is dropped.
- ``<!-- readme-check: skip (why) -->`` on the line before a block (blank lines between are
  allowed) leaves the example out; say why in the parentheses.

Usage, from the checkout::

    python tests/readme_examples.py            # check: exit 1 with a diff per failing example
    python tests/readme_examples.py --update   # rewrite the failing blocks in README.md in place
    python tests/readme_examples.py --list     # the examples and their README lines
    python tests/readme_examples.py -k replay  # only examples whose command contains "replay"
    python tests/readme_examples.py --docs     # the same for every page of the site (docs/)
    python tests/readme_examples.py --file docs/tutorials/batch-experiment.md  # one page

Each document's examples run in a scratch folder of their own.

The same functions serve ``tests/test_readme_examples.py`` (one slow test per example).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
ELLIPSIS = "..."
SKIP = re.compile(r"<!--\s*readme-check:\s*skip\s*\((?P<why>[^)]*)\)\s*-->")
# a fenced block: ```lang, or a MyST directive ```{name} args (never an example)
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*|\{[\w:-]+\}.*?)\s*$")
TIMEOUT = 600  # seconds for one command; the whole check takes a few minutes

_TIME = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)? s\b")
_RATE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)? games/s\b")
_NOISE = re.compile(r"^compiling (the simulation kernels|the optimal stopper)")


@dataclass
class Command:
    """One command of an example and the output README shows for it."""

    text: str  # after "$ " (or the Python code)
    expected: list[str]  # README's lines, indent of the block removed
    line: int  # 1-based README line of the "$" line (or of the code block)


@dataclass
class Example:
    """One README code block with its commands."""

    start: int  # 0-based index of the opening fence of the output block
    end: int  # 0-based index of its closing fence
    indent: str
    commands: list[Command]
    kind: str = "shell"  # or "python"
    skip: str | None = None  # the reason given by a skip marker
    outs: list[str] = field(default_factory=list)  # folders it writes (--out DIR)
    doc: str = "README.md"  # the document it is in (a path from the checkout)

    @property
    def line(self) -> int:
        return self.commands[0].line

    @property
    def name(self) -> str:
        """A short id: the README line and the first command's words."""
        first = self.commands[0].text.split("\n")[0]
        words = re.sub(r"[^\w.=:-]+", "-", first)[:48].strip("-")
        page = "" if self.doc == "README.md" else Path(self.doc).stem + "-"
        return f"{page}L{self.line}-{words}"


# ---------------------------------------------------------------------------------------------
# Parsing


def _blocks(lines: list[str]):
    """(open index, close index, indent, lang) of every fenced block."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        yield i, j, m["indent"], m["lang"]
        i = j + 1


def _dedent(lines: list[str], indent: str) -> list[str]:
    return [ln[len(indent):] if ln.startswith(indent) else ln.lstrip() for ln in lines]


def _skip_reason(lines: list[str], fence: int) -> str | None:
    k = fence - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    m = SKIP.search(lines[k]) if k >= 0 else None
    return m["why"].strip() if m else None


def _outs(text: str) -> list[str]:
    try:
        words = shlex.split(text)
    except ValueError:
        return []
    return [words[i + 1].rstrip("/") for i, w in enumerate(words[:-1]) if w == "--out"]


def parse(text: str, doc: str = "README.md") -> list[Example]:
    """Every example of a README (or documentation page) text, in order."""
    lines = text.split("\n")
    blocks = list(_blocks(lines))
    examples = []
    for n, (a, b, indent, lang) in enumerate(blocks):
        body = _dedent(lines[a + 1:b], indent)
        if lang in ("", "console") and body and body[0].startswith("$ quacks"):
            cmds: list[Command] = []
            for k, ln in enumerate(body):
                if ln.startswith("$ "):
                    cmds.append(Command(ln[2:], [], a + 2 + k))
                else:
                    cmds[-1].expected.append(ln)
            ex = Example(a, b, indent, cmds, skip=_skip_reason(lines, a))
            ex.outs = [o for c in cmds for o in _outs(c.text)]
            examples.append(ex)
        elif lang == "python" and n + 1 < len(blocks):
            a2, b2, indent2, lang2 = blocks[n + 1]
            between = lines[b + 1:a2]
            out = _dedent(lines[a2 + 1:b2], indent2)
            if lang2 == "" and not any(s.strip() for s in between) and out \
                    and not out[0].startswith("$"):
                code = "\n".join(_dedent(lines[a + 1:b], indent))
                ex = Example(a2, b2, indent2, [Command(code, out, a + 2)], kind="python",
                             skip=_skip_reason(lines, a))
                ex.outs = re.findall(r"\.write\(\"([^\"]+)\"\)", code)
                examples.append(ex)
    for ex in examples:
        ex.doc = doc
    return examples


def load(path: Path = README) -> list[Example]:
    """The examples of this checkout's README.md (or of another document)."""
    return parse(path.read_text(encoding="utf-8"), _name(path))


def _name(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def docs_pages() -> list[Path]:
    """The Markdown pages of the documentation site (its built and generated folders left
    out)."""
    return sorted(p for p in DOCS.rglob("*.md")
                  if not {"_build", "_generated"} & set(p.relative_to(DOCS).parts))


# ---------------------------------------------------------------------------------------------
# Comparing


def normalise(line: str) -> str:
    """A line as compared: trailing spaces gone, time figures replaced by placeholders."""
    line = _RATE.sub("<N> games/s", line.rstrip())
    return _TIME.sub("<T> s", line)


def _is_ellipsis(line: str) -> bool:
    return line.strip() == ELLIPSIS


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` (normalised) fits ``expected`` (normalised; ``...`` lines match any
    run of lines, also none)."""
    n, m = len(expected), len(actual)
    ok = [[False] * (m + 1) for _ in range(n + 1)]
    ok[n][m] = True
    for i in range(n - 1, -1, -1):
        for j in range(m, -1, -1):
            if _is_ellipsis(expected[i]):
                ok[i][j] = ok[i + 1][j] or (j < m and ok[i][j + 1])
            else:
                ok[i][j] = j < m and expected[i] == actual[j] and ok[i + 1][j + 1]
    return ok[0][0]


def _similar(a: str, b: str) -> float:
    strip = re.compile(r"[\d.,+\-\s]+")
    return difflib.SequenceMatcher(None, strip.sub("#", a), strip.sub("#", b)).ratio()


def _span(seg: list[str], actual: list[str], start: int) -> tuple[int, int]:
    """Where a segment of README's lines starting at ``start`` ends in ``actual``: as many
    lines as README shows, or to the end of the table if README's segment ends with one."""
    end = min(start + len(seg), len(actual))
    if seg and seg[-1].lstrip().startswith("└"):
        for k in range(start, len(actual)):
            if actual[k].lstrip().startswith("└"):
                end = k + 1
                break
    return start, end


def rebuild(expected: list[str], actual: list[str]) -> list[str]:
    """README's block for this output: ``actual`` itself, or, where README abridges with
    ``...``, the same parts of ``actual`` (the first lines, the last lines, a middle part found
    by its first line; a part that ends a table runs to the table's end) around the ``...``."""
    if not any(_is_ellipsis(x) for x in expected):
        return list(actual)
    segs: list[list[str]] = [[]]
    dots: list[str] = []
    for x in expected:
        if _is_ellipsis(x):
            dots.append(x)
            segs.append([])
        else:
            segs[-1].append(x)
    norm = [normalise(a) for a in actual]
    out: list[str] = []
    pos = 0
    for k, seg in enumerate(segs):
        if not seg:
            start, end = pos, pos
        elif k == 0:
            start, end = _span(seg, actual, 0)
        elif k == len(segs) - 1:
            start = max(pos, len(actual) - len(seg))
            if seg[0].lstrip().startswith("┏"):
                tops = [i for i in range(pos, len(actual)) if actual[i].lstrip().startswith("┏")]
                start = tops[-1] if tops else start
            end = len(actual)
        else:
            cands = range(pos, len(actual))
            start = max(cands, key=lambda i: _similar(normalise(seg[0]), norm[i]), default=pos)
            start, end = _span(seg, actual, start)
        out.extend(actual[start:end])
        pos = max(pos, end)
        if k < len(dots):
            out.append(dots[k])
    return out


# ---------------------------------------------------------------------------------------------
# Running


class Runner:
    """Runs examples in one scratch folder (``experiments`` linked in, ``docs/img`` empty), in
    README order, each at most once; an example that reads a folder an earlier one wrote (e.g.
    ``quacks replay rep1``) runs that one first."""

    def __init__(self, examples: list[Example], workdir: Path | None = None):
        self.examples = examples
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="readme-check-"))
        (self.workdir / "docs" / "img").mkdir(parents=True, exist_ok=True)
        link = self.workdir / "experiments"
        if link.is_symlink() and link.resolve() != (ROOT / "experiments").resolve():
            link.unlink()  # left by a run from another checkout (maybe since removed)
        if not link.is_symlink() and not link.exists():
            link.symlink_to(ROOT / "experiments")
        self.results: dict[int, list[list[str]]] = {}
        self.seconds: dict[int, float] = {}
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONWARNINGS="ignore",
                        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        for k in ("COLUMNS", "LINES", "FORCE_COLOR", "TERMINAL_WIDTH"):
            self.env.pop(k, None)

    def requires(self, ex: Example) -> list[Example]:
        """The earlier examples whose output folder this one reads."""
        words = set()
        for c in ex.commands:
            words.update(re.split(r"[\s=\"']+", c.text))
        idx = self.examples.index(ex)
        return [e for e in self.examples[:idx]
                if any(o in words or f"{o}/" in " ".join(words) for o in e.outs)
                and not e.skip]

    def _run_one(self, cmd: Command, kind: str) -> list[str]:
        argv = ["bash", "-c", cmd.text] if kind == "shell" else [sys.executable, "-c", cmd.text]
        res = subprocess.run(argv, cwd=self.workdir, env=self.env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT, check=False)
        lines = res.stdout.rstrip("\n").split("\n") if res.stdout.strip() else []
        return [ln.rstrip() for ln in lines if not _NOISE.match(ln)]

    def run(self, ex: Example) -> list[list[str]]:
        """The output lines of each of ``ex``'s commands (run once; cached)."""
        i = self.examples.index(ex)
        if i not in self.results:
            for dep in self.requires(ex):
                self.run(dep)
            t = time.perf_counter()
            self.results[i] = [self._run_one(c, ex.kind) for c in ex.commands]
            self.seconds[i] = time.perf_counter() - t
        return self.results[i]


def check(ex: Example, outputs: list[list[str]]) -> str | None:
    """None if every command's output fits README's block, else a unified diff from README's
    block to the block ``--update`` would write."""
    old, new = (block_text(ex, [c.expected for c in ex.commands]),
                block_text(ex, new_outputs(ex, outputs)))
    fits = all(matches([normalise(x) for x in c.expected], [normalise(a) for a in out])
               for c, out in zip(ex.commands, outputs))
    if fits:
        return None
    diff = difflib.unified_diff(old, new, f"{ex.doc}:{ex.line} (shown)", "(now)", lineterm="")
    return "\n".join(diff)


def _keep_equal(old: list[str], new: list[str]) -> list[str]:
    """``new``, with README's own text (trailing spaces dropped) kept for every line that only
    differs from it by what :func:`normalise` ignores, so an update changes no line that did
    not change (README's time figures stay as they were measured)."""
    a, b = [normalise(x) for x in old], [normalise(x) for x in new]
    out = list(new)
    for tag, i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out[j1:j2] = [x.rstrip() for x in old[i1:i1 + (j2 - j1)]]
    return out


def new_outputs(ex: Example, outputs: list[list[str]]) -> list[list[str]]:
    """Each command's block lines after an update (unchanged where they already fit)."""
    res = []
    for c, out in zip(ex.commands, outputs):
        if matches([normalise(x) for x in c.expected], [normalise(a) for a in out]):
            res.append(c.expected)
        else:
            res.append(_keep_equal(c.expected, rebuild(c.expected, out)))
    return res


def block_text(ex: Example, bodies: list[list[str]]) -> list[str]:
    """The lines inside the fences of ``ex`` with these outputs (block indent not added)."""
    lines = []
    for c, body in zip(ex.commands, bodies):
        if ex.kind == "shell":
            lines.append(f"$ {c.text}")
        lines.extend(body)
    return lines


def update(text: str, examples: list[Example], outputs: dict[int, list[list[str]]]) -> str:
    """README ``text`` with the blocks of the examples in ``outputs`` rewritten."""
    lines = text.split("\n")
    for i in sorted(outputs, reverse=True):  # from the end, so earlier indices stay valid
        ex = examples[i]
        body = block_text(ex, new_outputs(ex, outputs[i]))
        lines[ex.start + 1:ex.end] = [(ex.indent + ln) if ln else ln for ln in body]
    return "\n".join(lines)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def run_document(path: Path, args, workdir: Path | None) -> tuple[int, int, int]:
    """Check (or with ``args.update`` rewrite) the examples of one document: (examples that
    reproduce, examples run, examples skipped)."""
    text = path.read_text(encoding="utf-8")
    examples = parse(text, _name(path))
    chosen = [e for e in examples if not args.select
              or any(args.select in c.text for c in e.commands)]
    if args.list:
        for e in chosen:
            note = f"  (skipped: {e.skip})" if e.skip else ""
            print(f"{e.doc}: {e.name}{note}")
        return 0, 0, 0
    runner = Runner(examples, workdir)
    failed: dict[int, list[list[str]]] = {}
    for e in chosen:
        if e.skip:
            print(f"skip {e.name}: {e.skip}")
            continue
        outs = runner.run(e)
        diff = check(e, outs)
        i = examples.index(e)
        status = "ok  " if diff is None else "FAIL"
        print(f"{status} {e.name} ({runner.seconds.get(i, 0):.1f} s)", flush=True)
        if diff is not None:
            failed[i] = outs
            if not args.update:
                print(diff)
    if args.workdir or args.keep:
        print(f"{path.name}: ran in {runner.workdir}")
    else:
        shutil.rmtree(runner.workdir, ignore_errors=True)
    if args.update and failed:
        write_atomic(path, update(text, examples, failed))
        print(f"rewrote {len(failed)} block(s) of {path.name}: "
              + ", ".join(examples[i].name for i in failed))
        failed = {}
    skipped = sum(1 for e in chosen if e.skip)
    return len(chosen) - skipped - len(failed), len(chosen) - skipped, skipped


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="rewrite the failing blocks in place")
    ap.add_argument("--list", action="store_true", help="list the examples and exit")
    ap.add_argument("-k", dest="select", help="only examples whose commands contain this text")
    ap.add_argument("--file", action="append", type=Path, help="check this Markdown document "
                    "instead of README.md (repeatable)")
    ap.add_argument("--docs", action="store_true", help="check every page of docs/ (with --file: "
                    "as well)")
    ap.add_argument("--workdir", help="run in this folder (default: a new temporary one, removed "
                    "at the end unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args(argv)
    paths = [*(args.file or []), *(docs_pages() if args.docs else [])] or [README]
    t0 = time.perf_counter()
    ok = run = skipped = 0
    for path in paths:
        workdir = Path(args.workdir) if args.workdir else None
        if workdir is not None and len(paths) > 1:
            workdir = workdir / path.stem
        counts = run_document(path, args, workdir)
        ok, run, skipped = ok + counts[0], run + counts[1], skipped + counts[2]
    if not args.list:
        print(f"{ok} of {run} examples reproduce ({skipped} skipped); "
              f"{time.perf_counter() - t0:.0f} s")
    return 0 if ok == run else 1


if __name__ == "__main__":
    sys.exit(main())
