"""Every README example reproduces: one slow test per example (``tests/readme_examples.py`` runs
them; ``python tests/readme_examples.py --update`` rewrites the blocks that no longer do), and
quick tests of the checker itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import readme_examples as rx  # noqa: E402

EXAMPLES = rx.load()


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return rx.Runner(EXAMPLES, tmp_path_factory.mktemp("readme"))


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_readme_example(example, runner):
    if example.skip:
        pytest.skip(example.skip)
    diff = rx.check(example, runner.run(example))
    assert diff is None, (f"README example at line {example.line} no longer reproduces "
                          f"(python tests/readme_examples.py --update rewrites it):\n{diff}")


# ---------------------------------------------------------------------------------------------
# the checker


def test_readme_has_examples_and_few_skips():
    assert len(EXAMPLES) >= 7  # the short tour; the site holds the rest, checked with --docs
    skipped = [e for e in EXAMPLES if e.skip]
    assert len(skipped) <= 3, [e.name for e in skipped]
    assert all(e.skip.strip() for e in skipped)  # each says why


SAMPLE = """# t

<!-- readme-check: skip (needs a Dask scheduler) -->
```
$ quacks tournament --backend dask --out big
x
```

```bash
quacks potion
```

- item:

  ```
  $ quacks play --out a
  0.81 s (61,840 games/s)
  row 1
  ...
  $ quacks replay a --row 1
  seat 0
  ```

```python
print(1)
```

```
1
```
"""


def test_parse(tmp_path):
    ex = rx.parse(SAMPLE)
    assert [e.kind for e in ex] == ["shell", "shell", "python"]
    assert ex[0].skip == "needs a Dask scheduler"
    play = ex[1]
    assert play.indent == "  " and [c.text for c in play.commands] == ["quacks play --out a",
                                                                       "quacks replay a --row 1"]
    assert play.commands[0].expected == ["0.81 s (61,840 games/s)", "row 1", "..."]
    assert play.outs == ["a"]
    assert ex[2].commands[0].expected == ["1"]
    runner = rx.Runner(ex, tmp_path)
    assert runner.requires(ex[1]) == []


def test_normalise_times_only():
    assert rx.normalise("40,000 games; 0.6 s (68,683 games/s), report 0.5 s  ") == \
        "40,000 games; <T> s (<N> games/s), report <T> s"
    assert rx.normalise("exact enumeration, 0.005 s") == "exact enumeration, <T> s"
    assert rx.normalise("4 seatings, 2 players") == "4 seatings, 2 players"


def test_matches_with_ellipsis():
    assert rx.matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert rx.matches(["a", "  ..."], ["a"])
    assert not rx.matches(["a", "...", "d"], ["a", "b"])
    assert not rx.matches(["a", "b"], ["a", "b", "c"])


def test_rebuild_keeps_the_abridged_shape():
    actual = ["head 2", "x", "title", "┏━┓", "│ 9 │", "│ 8 │", "└─┘", "tail"]
    expected = ["head 1", "...", "title", "┏━┓", "│ 1 │", "└─┘", "..."]
    assert rx.rebuild(expected, actual) == ["head 2", "...", "title", "┏━┓", "│ 9 │", "│ 8 │",
                                            "└─┘", "..."]
    assert rx.rebuild(["...", "┏━┓", "│ 1 │", "└─┘"], ["x", "┏━┓", "│ 2 │", "│ 3 │", "└─┘"]) == \
        ["...", "┏━┓", "│ 2 │", "│ 3 │", "└─┘"]
    assert rx.rebuild(["a", "b"], ["c"]) == ["c"]


def test_update_rewrites_only_failing_blocks(tmp_path):
    ex = rx.parse(SAMPLE)
    outputs = {1: [["0.9 s (1 games/s)", "row 2", "row 3"], ["seat 0"]]}
    new = rx.update(SAMPLE, ex, outputs)
    assert "  0.81 s (61,840 games/s)\n  row 2\n  ...\n  $ quacks replay" in new  # time kept
    assert new.count("seat 0") == 1 and "$ quacks tournament --backend dask" in new
    p = tmp_path / "R.md"
    rx.write_atomic(p, new)
    assert p.read_text() == new and [f.name for f in tmp_path.iterdir()] == ["R.md"]
