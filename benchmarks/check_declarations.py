"""Prove the declared tables changed no number: every module-level int of the modules below, as
they are on ``main`` (``git show main:<path>``) and as they are now, must be equal; and the replay
text and JSON of every event (by name: codes are derived and may be renumbered; the ref's tree
is checked out in a temporary git worktree and read in its own process) must be the same for a
grid of field values, and the report schema's columns (names, order, arrow types) too.

    PYTHONPATH=. python benchmarks/check_declarations.py [--ref main]

Imports modules only; compiles no kernel.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys
import types

MODULES = {
    "sim/kernel/layout.py": "sim.kernel.layout",
    "sim/kernel/records.py": "sim.kernel.records",
    "sim/kernel/cards/__init__.py": "sim.kernel.cards",
    "sim/kernel/witches.py": "sim.kernel.witches",
    "sim/kernel/decisions/slots.py": "sim.kernel.decisions.slots",
    "strategies/slots.py": "strategies.slots",
    "sim/rules/cards.py": "sim.rules.cards",
    "sim/rules/witches.py": "sim.rules.witches",
    "sim/rules/books.py": "sim.rules.books",
}


def old_source(ref: str, path: str) -> str:
    """The source of ``path`` at ``ref``; a module that has become a package
    (``sim/kernel/cards.py`` -> ``sim/kernel/cards/__init__.py``) is read from the package's
    ``__init__.py``."""
    for p in (path, path[: -len(".py")] + "/__init__.py"):
        got = subprocess.run(["git", "show", f"{ref}:{p}"], capture_output=True, text=True)
        if got.returncode == 0:
            return got.stdout
    raise FileNotFoundError(f"{path} at {ref}")


def old_module(ref: str, path: str, name: str) -> types.ModuleType:
    """The module as it is at ``ref``, executed under a private name (its imports are today's)."""
    src = old_source(ref, path)
    mod = types.ModuleType(f"old_{name.replace('.', '_')}")
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    exec(compile(_tolerant_imports(ast.parse(src)), path, "exec"), mod.__dict__)
    return mod


def _tolerant_imports(tree: ast.Module) -> ast.Module:
    """``from m import a, b`` at module level becomes one guarded import per name, so an old
    module still runs when a name it imported has since moved (it is then None); its own ints
    are what is compared. Decorators are dropped (nothing is compiled, and the file may be gone)."""
    body = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            node.decorator_list = []
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                one = ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                bound = alias.asname or alias.name
                none = ast.Assign(targets=[ast.Name(bound, ast.Store())], value=ast.Constant(None))
                body.append(ast.Try(body=[one], handlers=[ast.ExceptHandler(
                    type=ast.Name("ImportError", ast.Load()), name=None, body=[none])],
                    orelse=[], finalbody=[]))
        else:
            body.append(node)
    tree.body = body
    return ast.fix_missing_locations(tree)


def ints(mod: types.ModuleType) -> dict[str, int]:
    return {k: v for k, v in vars(mod).items() if type(v) is int and not k.startswith("__")}


def compare_constants(ref: str) -> bool:
    ok = True
    for path, name in MODULES.items():
        old_mod = old_module(ref, path, name)
        old, new = ints(old_mod), ints(importlib.import_module(name))
        src = old_source(ref, path)
        borrowed = {a.asname or a.name for n in ast.parse(src).body if isinstance(n, ast.ImportFrom)
                    for a in n.names}
        old = {k: v for k, v in old.items() if k not in borrowed}  # its own numbers only
        missing = sorted(set(old) - set(new))
        changed = sorted(k for k in set(old) & set(new) if old[k] != new[k])
        added = sorted(set(new) - set(old))
        print(f"{name}: {len(old)} ints on {ref}, {len(new)} now; {len(set(old) & set(new))} "
              f"compared, changed {changed or 'none'}, missing {missing or 'none'}, "
              f"new {added or 'none'}")
        ok &= not missing and not changed
    return ok


# Run in a process per tree (``python -c DUMP`` with that tree first on the path): every event
# the tree declares (the core's and the loaded rules'), by name, decoded and written for a grid of
# field values. Codes are not compared: they are derived and may be renumbered; names, fields and
# texts are what replays and JSON show.
DUMP = r"""
import itertools, json, sys
from sim.api import events
by_code = dict(events.EVENT_NAMES)
try:
    from sim.api.event_table import rule_events
    by_code.update((code, e.name) for code, e in rule_events().items())
except ImportError:  # a tree from before rules declared their events: all are the core's
    pass
names, costs = ["P0", "P1", "P2", "P3"], [None, {"droplet": 1, "flask": 3}]
out = {}
for code in sorted(by_code):
    name = by_code[code]
    if name in out:  # two rules declaring one name declare it alike (tested)
        continue
    rows = out[name] = []
    for seat, a, b, c in itertools.product((-1, 1), range(-1, 15), range(-1, 15),
                                           (0, 1, 2, 33, 300)):
        try:
            d = events.event_dict((3, seat, code, a, b, c))
            d["event"] = name
            texts = [events.event_text(d, names, rc) for rc in costs]
        except Exception as e:  # the same rows must fail the same way
            d, texts = type(e).__name__, []
        rows.append([seat, a, b, c, d, texts])
json.dump(out, sys.stdout, sort_keys=True)
"""


def dumped_events(tree: str) -> dict:
    """Every event of the tree at ``tree`` (a folder), by name: its grid of dicts and texts."""
    import json
    import os

    env = dict(os.environ, PYTHONPATH=tree)
    got = subprocess.run([sys.executable, "-c", DUMP], capture_output=True, text=True, env=env,
                         cwd=tree, check=True)
    return json.loads(got.stdout)


def compare_events(ref: str) -> bool:
    """Every event's JSON and replay text, by name, at ``ref`` and now (each tree in its own
    process; ``ref`` checked out in a temporary git worktree)."""
    import os
    import tempfile

    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "ref")
        subprocess.run(["git", "worktree", "add", "-q", "--detach", tree, ref], check=True)
        try:
            old = dumped_events(tree)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], check=True)
    new = dumped_events(root)
    diffs = 0
    for name in sorted(set(old) & set(new)):
        for was, now in zip(old[name], new[name]):
            if was != now:
                diffs += 1
                if diffs < 10:
                    print(f"  {name} differs: {was} -> {now}")
    missing, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    rows = sum(len(new[n]) for n in set(old) & set(new))
    print(f"events: {len(set(old) & set(new))} names, {rows} rows compared, {diffs} differing "
          f"dicts or texts; missing {missing or 'none'}, new {added or 'none'}")
    return diffs == 0 and not missing


def compare_schema(ref: str) -> bool:
    """The games.parquet / rounds.parquet columns: same names, order and arrow types."""
    old = old_module(ref, "sim/study/reports/schema.py", "sim.study.reports.schema")
    from sim.study.reports import schema as new

    pairs = [(old.game_types(w), new.game_types(w)) for w in (False, True)]
    pairs.append((old.ROUND_TYPES, new.ROUND_TYPES))
    ok = all(list(a.items()) == list(b.items()) for a, b in pairs)
    print(f"report schema: games ({len(pairs[1][1])} columns with witches) and rounds "
          f"({len(pairs[2][1])} columns) equal: {ok}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default="main")
    ref = ap.parse_args().ref
    ok = compare_constants(ref)
    ok &= compare_events(ref)
    ok &= compare_schema(ref)
    print("ALL EQUAL" if ok else "DIFFERENCES FOUND")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
