"""Draw the documentation's figures and the sample report folders its reference reads.

- **Figures.** An example block of a page under ``docs/`` (a ``$ quacks ...`` block, or a
  ``python`` block with its output, as ``tests/readme_examples.py`` reads them) preceded by a
  marker line ``<!-- figure: NAME from PATH -->`` (one line per figure) is run the way the
  examples checker runs it, in a scratch folder, and the file PATH it wrote there is copied to
  ``docs/_generated/figures/NAME``, where the page shows it. The command is written once, in
  the page; its seed fixes the figure.
- **Sample reports.** ``SAMPLE_RUNS``: a tiny run of every command that writes a report folder,
  into ``docs/_generated/runs/KIND/``; the report-columns reference lists the columns of every
  table they hold.

``docs/_generated/stamp.json`` records what the outputs were made from (this file, the marked
examples and the package version); the Sphinx build runs this script when it is missing or
differs, and CI runs it before every build. Usage::

    python docs/examples/make_figures.py           # draw everything again
    python docs/examples/make_figures.py --stale   # exit 1 if the outputs are missing or stale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
OUT = DOCS / "_generated"
FIGURES = OUT / "figures"
RUNS = OUT / "runs"
STAMP = OUT / "stamp.json"
MARKER = re.compile(r"<!--\s*figure:\s*(?P<name>[\w.-]+\.png)\s+from\s+(?P<path>\S+)\s*-->")

# KIND -> the quacks command (without --out) whose report folder the reference reads. Tiny runs:
# what matters is which files and columns a run writes, not its numbers.
SAMPLE_RUNS = {
    "tournament": ["tournament", "--strategies", "balanced,greedy,random", "--players", "2",
                   "--games", "120", "--seed", "1", "--detail", "rounds", "--no-plots", "--quiet"],
    "sweep": ["sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random",
              "--players", "2", "--games", "40", "--seed", "1", "--quiet"],
    "tune": ["tune", "threshold", "--param", "t=5:7", "--vs", "random", "--players", "2",
             "--budget", "400", "--seed", "1"],
    "compare": ["compare", "--variant", "limit8=game.explosion_limit=8", "--strategies",
                "balanced,greedy", "--games", "80", "--seed", "1", "--quiet"],
    "thresholds": ["thresholds", "--bag", "w1x4,w2x2,w3", "--white", "4:6", "--risk", "0.2"],
    "balance": ["balance", "--rules", "herb-witches", "--games", "40", "--players", "2",
                "--field", "balanced,greedy", "--targets",
                str(ROOT / "experiments" / "targets" / "balance.toml"), "--seed", "1", "--quiet"],
    "sensitivity": ["sensitivity", "--knob", "game.rats_from_round=1:9", "--steps", "2",
                    "--knob", "game.explosion_limit=7:8", "--pair", "game.rats_from_round",
                    "game.explosion_limit", "--players", "2", "--field", "balanced,greedy",
                    "--games", "40", "--seed", "1", "--quiet"],
    "design": ["design", "--target", "seat0_win_share=0.45:0.55", "--knob",
               "game.explosion_limit=7:8", "--players", "2", "--field", "balanced,greedy",
               "--budget", "200", "--retest-games", "40", "--seed", "1", "--quiet"],
    "exploit": ["exploit", "--strategies", "balanced", "--players", "2", "--games", "200",
                "--retest-games", "40", "--seed", "1", "--quiet"],
    "styles": ["styles", "--strategies", "balanced", "--players", "2", "--games", "20",
               "--batch", "4", "--batches", "2", "--retest-games", "20", "--seed", "1",
               "--quiet"],
    "experiment-seats": ["experiment", "run", "seat-advantage", "--games", "60"],
    "experiment-catch-up": ["experiment", "run", "catch-up", "--games", "60"],
}


def _examples_module():
    sys.path.insert(0, str(ROOT / "tests"))
    import readme_examples

    return readme_examples


def pages() -> list[Path]:
    """The Markdown pages of the site (the built and generated folders left out)."""
    return sorted(p for p in DOCS.rglob("*.md")
                  if not {"_build", "_generated"} & set(p.relative_to(DOCS).parts))


def marked(text: str) -> list[tuple[int, list[tuple[str, str]]]]:
    """``(line index of the block's opening fence, [(figure name, path written)])`` for every
    block of ``text`` preceded by figure markers (blank lines between allowed)."""
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("```"):
            continue
        figs, k = [], i - 1
        while k >= 0 and (not lines[k].strip() or MARKER.search(lines[k])):
            m = MARKER.search(lines[k])
            if m:
                figs.insert(0, (m["name"], m["path"]))
            k -= 1
        if figs:
            found.append((i, figs))
    return found


def stamp() -> dict:
    """What the outputs are made from: this script, every marked example, the version."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for i, figs in marked(text):
            h.update(f"{page.relative_to(DOCS)}:{figs}:".encode())
            end = text.split("\n")[i + 1:]
            h.update("\n".join(end[:end.index("```")] if "```" in end else end).encode())
    from sim.cli.version import version_text

    return {"hash": h.hexdigest(), "version": version_text()}


def stale() -> bool:
    """Whether the outputs are missing or were made from something else."""
    try:
        return json.loads(STAMP.read_text()) != stamp()
    except (OSError, ValueError):
        return True


def draw_figures(dest: Path) -> list[str]:
    """Run every marked example and copy its figures into ``dest``; the names written."""
    rx = _examples_module()
    written = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        wanted = dict(marked(text))
        if not wanted:
            continue
        examples = rx.parse(text)
        with tempfile.TemporaryDirectory(prefix="docs-figures-") as tmp:
            runner = rx.Runner(examples, Path(tmp))
            for ex in examples:
                # a python example's code block opens two lines above its first line of code
                fence = ex.commands[0].line - 2 if ex.kind == "python" else ex.start
                figs = wanted.pop(fence, None)
                if not figs:
                    continue
                runner.run(ex)
                for name, path in figs:
                    src = Path(tmp) / path
                    if not src.is_file():
                        raise SystemExit(f"{page.relative_to(DOCS)}: the example at line "
                                         f"{ex.line} wrote no {path}")
                    shutil.copyfile(src, dest / name)
                    written.append(name)
        if wanted:
            raise SystemExit(f"{page.relative_to(DOCS)}: a figure marker before a block that is "
                             f"not an example (line {min(wanted) + 1})")
    return written


def sample_runs(dest: Path) -> None:
    """Write every ``SAMPLE_RUNS`` report folder under ``dest``."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    for kind, args in SAMPLE_RUNS.items():
        argv = [sys.executable, "-m", "sim.cli", *args, "--out", str(dest / kind)]
        res = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            raise SystemExit(f"sample run {kind} failed ({' '.join(args)}):\n{res.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stale", action="store_true",
                    help="only say whether the outputs are missing or stale (exit 1 if so)")
    args = ap.parse_args(argv)
    if args.stale:
        return 1 if stale() else 0
    OUT.mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".make-figures-", dir=OUT))
    try:
        (work / "figures").mkdir()
        names = draw_figures(work / "figures")
        sample_runs(work / "runs")
        for sub in ("figures", "runs"):  # swap each folder in whole: never a half-drawn set
            old = OUT / f".old-{sub}"
            shutil.rmtree(old, ignore_errors=True)
            if (OUT / sub).exists():
                (OUT / sub).rename(old)
            (work / sub).rename(OUT / sub)
            shutil.rmtree(old, ignore_errors=True)
        STAMP.write_text(json.dumps(stamp()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {len(names)} figures to {FIGURES.relative_to(ROOT)} and "
          f"{len(SAMPLE_RUNS)} sample reports to {RUNS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
