"""The order in which pytest-xdist hands the test files to its workers (README's test command,
``-n 2 --dist loadfile``), so that from an empty Numba cache no kernel is compiled twice at once.

xdist's own order is the files with the most tests first. From an empty cache both workers then
start on files that play games, so both compile the same game kernel at the same time (about two
CPU-minutes each; a worker waiting for a kernel cannot run anything else of its file). Here:

1. the file whose test compiles every shared kernel (``quacks warmup``: :data:`WARMUP_TEST`, put
   first in its file) goes to one worker;
2. the file that compiles the kernels of the users' rules files (a folder of their own, the same
   functions again: :data:`RULES_FILES_TESTS`) goes to the other, so the two compiles that cannot
   be shared run side by side;
3. then the files measured to compile nothing (:data:`COMPILE_FREE`), for whichever worker is
   free first while the other still compiles;
4. then the files that take longest (:data:`LONG_FILES`: one of them last would leave the other
   worker idle);
5. then the rest, most tests first, as xdist orders them.

The slow tests (``-m slow``, CI's second run) have an order of their own
(:data:`SLOW_FIRST`): the longest first, each on a worker of its own from the start, then the
rest, most tests first.

``tests/conftest.py`` applies it in every worker and turns xdist's reordering off. A plain
``pytest`` run keeps its own order.
"""

from __future__ import annotations

from collections import Counter

WARMUP_TEST = "tests/test_cli_robust.py::test_warmup_compiles_the_kernels_and_says_how_long"
RULES_FILES_TESTS = "tests/test_rules_files.py"
# measured from an empty cache (NUMBA_CACHE_DIR at an empty folder, one process): not one
# function compiled or loaded from the cache; the CPU seconds of their tests (under load)
COMPILE_FREE = (
    "tests/test_bad_input_property.py",  # 15
    "tests/test_startup.py",  # 11, in the commands it starts (no Numba imported there)
    "tests/test_cli_help.py",  # 9
    "tests/test_numba_cache.py",  # 4
    "tests/test_cli_paths.py",  # 3
    "tests/test_layers.py",  # 2
    "tests/test_declarations.py",  # 1
    "tests/test_ruleset.py",  # 0.3
    "tests/test_slot_docs.py",  # 0.1
)
# the slowest files with a warm cache for their few tests (CPU s with the children, measured one
# file at a time with a cache of its own under load: the notebooks ~58, the stop-thresholds
# notebook ~30 of them; the shipped experiments run end to end ~19; the Dask backend ~45, ~26 of
# them in its two worker processes, which load the shared kernels: by now compiled), and last
# the runs with RULES_FILES_TESTS's rules files (a tournament resumed and on Dask), which load its
# compiled kernels: early enough not to end the run (with three tests they would come near the
# end among the rest), late enough that those kernels are compiled by then.
# (test_reproducible.py is no longer here: ~2.4 in all, its chunk-count tests ~0.1 each.)
LONG_FILES = ("tests/test_notebooks.py", "tests/test_experiments.py", "tests/test_dask_backend.py",
              "tests/test_rules_file_runs.py")

# the slow suite (``-m slow``): the file of the patches-off test first (it compiles the game
# kernel without the patches in one process: 798 s of a cold run's 945 s; it ended the run when
# xdist's order, most tests first, started it late), the witch rewrite's own compiled
# game kernel (~225 CPU s) on the other worker; then a short file, because xdist sends a worker
# with at most two tests pending a further file at once, which then waits behind the
# patches-off test; then the next longest (CPU s measured under load, warm shared cache: the
# uncompilable book ~50, the cold potion compile ~85 wall, the coverage study's set-up ~50 wall)
SLOW_FIRST = ("tests/test_numba_patches.py", "tests/test_rules_witches.py", "tests/test_luck.py",
              "tests/test_rules_records.py", "tests/test_first_run.py",
              "tests/test_coverage_study.py")


def file_of(nodeid: str) -> str:
    """``tests/test_x.py`` of ``tests/test_x.py::test_y[z]``."""
    return nodeid.split("::", 1)[0]


def run_order(nodeids: list[str], slow: bool = False) -> list[int]:
    """The positions of ``nodeids`` (pytest's collection order) in the order the workers should
    take them: by file as the module docstring says, each file's tests in their own order but
    for :data:`WARMUP_TEST`, which comes first in its file; ``slow``: the slow suite's order
    (:data:`SLOW_FIRST`, then the rest)."""
    counts = Counter(file_of(n) for n in nodeids)
    front = SLOW_FIRST if slow else (file_of(WARMUP_TEST), RULES_FILES_TESTS, *COMPILE_FREE,
                                     *LONG_FILES)

    def key(index: int) -> tuple:
        f = file_of(nodeids[index])
        rank = (front.index(f), 0) if f in front else (len(front), -counts[f])
        return rank, f, nodeids[index] != WARMUP_TEST, index

    return sorted(range(len(nodeids)), key=key)
