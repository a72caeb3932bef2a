"""Prove the declared tables changed no number: every module-level int of the modules below, as
they are on ``main`` (``git show main:<path>``) and as they are now, must be equal; and the replay
text and JSON of every event code must be the same for a grid of field values, and the
report schema's columns (names, order, arrow types) too.

    PYTHONPATH=. python benchmarks/check_declarations.py [--ref main]

Imports modules only; compiles no kernel.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import itertools
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


def compare_events(ref: str) -> bool:
    old = old_module(ref, "sim/api/events.py", "sim.api.events")
    from sim.api import events as new
    from sim.kernel.event_codes import EVENTS

    names = ["P0", "P1", "P2", "P3"]
    costs = [None, {"droplet": 1, "flask": 3}]
    values = range(-1, 15)
    checked = diffs = 0
    for code in range(0, len(EVENTS) + 3):
        for seat, a, b, c in itertools.product((-1, 1), values, values, (0, 1, 2, 33, 300)):
            row = (3, seat, code, a, b, c)
            try:
                want = old.event_dict(row)
            except Exception as e:  # noqa: BLE001 - the same rows must fail the same way
                want = type(e)
            try:
                got = new.event_dict(row)
            except Exception as e:  # noqa: BLE001
                got = type(e)
            checked += 1
            if want != got:
                diffs += 1
                continue
            if isinstance(want, dict):
                for rc in costs:
                    t_old = old.event_text(want, names, rc)
                    t_new = new.event_text(got, names, rc)
                    if t_old != t_new:
                        diffs += 1
                        if diffs < 10:
                            print("  text differs:", row, repr(t_old), repr(t_new))
    same_names = old.EVENT_NAMES == new.EVENT_NAMES
    print(f"events: {checked} rows, {diffs} differing dicts or texts; names equal: {same_names}")
    return diffs == 0 and same_names


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
