"""Where the kernels' compile time goes: every Numba compilation of a ``quacks warmup``, timed.

Usage:  python benchmarks/compile_profile.py [--csv FILE] [--top N] [--cache DIR] [--phases]
                                             [--game-step]

It points Numba's cache at an empty folder (or ``--cache``), listens to Numba's ``numba:compile``
events while ``quacks warmup`` runs, and prints one row per compiled function: how often it was
compiled (one per type signature), its inclusive seconds (with the callees compiled inside it)
and its exclusive seconds (without them). Functions marked ``@kernel(inline=True)``
(``inline="always"``) never appear on their own: they are compiled into every caller, which is
what the exclusive time of a big caller measures. The tail lists, per module, how many functions
are inlined that way.

``--phases`` also splits the compile's CPU seconds by phase (:data:`PHASES`): Numba's front end
pass by pass (bytecode to IR, inlining, type inference, rewrites, SSA), lowering to LLVM IR,
LLVM's optimisation (per function, then the linked module's cheap and full passes), machine-code
emission and the cache's I/O, each exclusive of what nests in it (a callee compiled during its
caller's type inference counts in its own phases). It wraps those Numba and llvmlite methods for
the run (a measurement in this process, never imported by the package). ``--game-step`` compiles
only ``quacks warmup``'s game step (every built-in strategy, the game kernel), the figure of
``sim.cli.compiling.STEPS``.

This is a measurement, not a test: it compiles everything from scratch (about 20 minutes on 2
cores) and touches no cache in use.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def inline_counts() -> dict[str, tuple[int, int]]:
    """Per kernel module: (functions compiled with ``inline="always"``, all njit functions)."""
    out = {}
    for p in sorted([*ROOT.glob("sim/**/*.py"), *ROOT.glob("strategies/*.py")]):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        n_jit = n_inline = 0
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            for d in node.decorator_list:
                name = getattr(d.func if isinstance(d, ast.Call) else d, "id", "")
                if name not in ("njit", "kernel"):
                    continue
                n_jit += 1
                if isinstance(d, ast.Call):
                    n_inline += any(k.arg == "inline" and getattr(k.value, "value", "") in
                                    ("always", True) for k in d.keywords)
        if n_jit:
            out[p.relative_to(ROOT).as_posix()] = (n_inline, n_jit)
    return out


# the phases --phases reports: (label, owner, method), the owner as "module:Class"
PHASES = (
    ("LLVM: IR text to module (str, parse, verify)", "numba.core.codegen:CPUCodeLibrary",
     "add_ir_module"),
    ("LLVM opt: per function", "numba.core.codegen:CPUCodeLibrary", "_optimize_functions"),
    ("LLVM: clone for linking", "numba.core.codegen:CPUCodeLibrary", "_get_module_for_linking"),
    ("LLVM: link modules", "llvmlite.binding:ModuleRef", "link_in"),
    ("LLVM: verify", "llvmlite.binding:ModuleRef", "verify"),
    ("emit: machine code (MCJIT finalize_object)", "numba.core.codegen:JITCodeLibrary",
     "_finalize_specific"),
    ("emit: engine.add_module", "numba.core.codegen:JITCPUCodegen", "_add_module"),
    ("cache: save", "numba.core.caching:Cache", "save_overload"),
    ("cache: load", "numba.core.caching:Cache", "load_overload"),
)
# the final module's two pass managers (CPUCodegen._module_pass_manager), told apart by "cost"
FINAL_CHEAP, FINAL_FULL = "LLVM opt: linked module, cheap pass", "LLVM opt: linked module, full"
# Numba's front-end passes, the rest of a compiler pass's time: lowering is "native_lowering"
LOWERING = ("native_lowering", "native_parfor_lowering")


class PhaseClock:
    """CPU seconds of this thread per phase, each exclusive of the phases nested in it."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []  # [label, start, seconds in nested phases]

    def timed(self, label_of, fn):
        """``fn`` wrapped to count its time in the phase ``label_of(args)`` (or the label)."""
        def timed_call(*args, **kwargs):
            label = label_of(args) if callable(label_of) else label_of
            self.stack.append([label, time.thread_time(), 0.0])
            try:
                return fn(*args, **kwargs)
            finally:
                _, t0, nested = self.stack.pop()
                took = time.thread_time() - t0
                self.seconds[label] += took - nested
                if self.stack:
                    self.stack[-1][2] += took
        return timed_call

    def install(self) -> None:
        """Wrap :data:`PHASES`, Numba's compiler passes and the final module's pass managers."""
        import importlib

        from numba.core import codegen, compiler_machinery

        for label, owner, method in PHASES:
            mod, cls = owner.split(":")
            klass = getattr(importlib.import_module(mod), cls)
            setattr(klass, method, self.timed(label, getattr(klass, method)))
        pm = compiler_machinery.PassManager
        pm._runPass = self.timed(lambda a: f"pass {a[2].name()}", pm._runPass)
        make = codegen.CPUCodegen._module_pass_manager
        clock = self

        class Timed:  # the pass manager, its run timed
            def __init__(self, pm, label):
                self.pm, self.run = pm, clock.timed(label, pm.run)

            def __getattr__(self, name):
                return getattr(self.pm, name)

        def module_pass_manager(codegen_self, **kwargs):
            label = FINAL_CHEAP if kwargs.get("cost") == "cheap" else FINAL_FULL
            pm, pb = make(codegen_self, **kwargs)
            return Timed(pm, label), pb

        codegen.CPUCodegen._module_pass_manager = module_pass_manager

    def report(self, cpu: float) -> None:
        """Print the phases grouped (front end, lowering, LLVM opt, emission, cache) and each."""
        groups: dict[str, float] = defaultdict(float)
        for label, sec in self.seconds.items():
            name = label.removeprefix("pass ")
            group = ("lowering to LLVM IR" if name in LOWERING or label.startswith("LLVM: IR")
                     else "Numba front end" if label.startswith("pass ")
                     else "LLVM optimisation" if label.startswith("LLVM opt")
                     else "LLVM link, clone, verify" if label.startswith("LLVM")
                     else "machine-code emission" if label.startswith("emit")
                     else "cache I/O")
            groups[group] += sec
        total = sum(self.seconds.values())
        print(f"phases: {total:.1f} s of this thread's CPU in compiler phases, {cpu:.1f} s in all")
        for group, sec in sorted(groups.items(), key=lambda kv: -kv[1]):
            print(f"  {group:<45} {sec:8.1f} s {100 * sec / total:5.1f}%")
        for label, sec in sorted(self.seconds.items(), key=lambda kv: -kv[1]):
            if sec >= 0.05 * total / 10:
                print(f"    {label:<55} {sec:8.1f} s {100 * sec / total:5.1f}%")


def game_step() -> list[tuple[str, float]]:
    """Compile the game kernel as ``quacks warmup``'s game step does: every built-in strategy
    but the optimal stopper, four seats a game."""
    import numpy as np

    from sim.api.game import play_batch
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import REGISTRY, parse_strategy

    rs = load_ruleset("base", [])
    names = [d.name for d in REGISTRY.values() if d.source == "built-in" and d.name != "optimal"]
    one = np.zeros(1, dtype=np.int64)
    t = time.perf_counter()
    for i in range(0, len(names), 4):
        group = (names[i:i + 4] * 4)[:4]
        play_batch(rs, [parse_strategy(x) for x in group], games=one, rotations=one, seed=1)
    return [(f"game kernel ({len(names)} built-in strategies)", time.perf_counter() - t)]


def profile(top: int, csv: str | None, phases: bool = False, only_games: bool = False) -> None:
    from numba.core import event

    stack: list[list] = []  # [name, start, seconds spent in nested compiles]
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])  # n, inclusive, exclusive

    class Timer(event.Listener):
        def on_start(self, ev):
            d = ev.data["dispatcher"]
            f = d.py_func
            stack.append([f"{f.__module__}.{f.__qualname__}", time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, t0, nested = stack.pop()
            took = time.perf_counter() - t0
            r = rows[name]
            r[0] += 1
            r[1] += took
            r[2] += took - nested
            if stack:
                stack[-1][2] += took

    event.register("numba:compile", Timer())
    from sim.cli.warmup import warm_all

    clock = PhaseClock()
    if phases:
        clock.install()
    t = time.perf_counter()
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    steps = game_step() if only_games else warm_all()[0]
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    total = time.perf_counter() - t
    for label, sec in steps:
        print(f"step  {label:<45} {sec:8.1f} s")
    print(f"total {total:.1f} s; {len(rows)} functions compiled")
    # the system seconds and page faults stay small because every compile runs in a roomy frame
    # (sim.kernel.jit.in_roomy_frame); without it: ~8 million faults, a quarter of the time
    print(f"CPU {r1.ru_utime - r0.ru_utime:.1f} s user, {r1.ru_stime - r0.ru_stime:.1f} s system; "
          f"{r1.ru_minflt - r0.ru_minflt:,} minor page faults\n")
    if phases:
        clock.report(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        print()
    order = sorted(rows.items(), key=lambda kv: -kv[1][2])
    print(f"{'function':<62} {'n':>3} {'incl s':>8} {'excl s':>8}")
    for name, (n, inc, exc) in order[:top]:
        print(f"{name:<62} {n:>3} {inc:8.1f} {exc:8.1f}")
    print(f"\n{'module':<45} inline / compiled functions")
    for mod, (ni, nj) in inline_counts().items():
        print(f"{mod:<45} {ni:>4} / {nj}")
    if csv:
        tmp = f"{csv}.partial"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write("function,compiles,inclusive_s,exclusive_s\n")
            for name, (n, inc, exc) in order:
                fh.write(f"{name},{n},{inc:.3f},{exc:.3f}\n")
        os.replace(tmp, csv)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", help="also write every row to this CSV file")
    ap.add_argument("--top", type=int, default=40, help="rows to print (default 40)")
    ap.add_argument("--cache", help="Numba cache folder (default: a new empty one)")
    ap.add_argument("--phases", action="store_true",
                    help="also split the CPU seconds by compiler phase (PHASES)")
    ap.add_argument("--game-step", action="store_true",
                    help="compile only the game step of quacks warmup (the game kernel)")
    a = ap.parse_args(argv)
    os.environ["NUMBA_CACHE_DIR"] = a.cache or tempfile.mkdtemp(prefix="quacks-compile-")
    sys.path.insert(0, str(ROOT))
    profile(a.top, a.csv, a.phases, a.game_step)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
