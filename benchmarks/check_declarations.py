"""Prove the declared tables changed no number: every module-level int of the modules below, as
they are on ``main`` (``git show main:<path>``) and as they are now, must be equal; and the replay
text and JSON of every event code must be the same for a grid of field values, and the
report schema's columns (names, order, arrow types) too.

    PYTHONPATH=. python benchmarks/check_declarations.py [--ref main]

Imports modules only; compiles no kernel.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import subprocess
import sys
import types

MODULES = {
    "sim/kernel/layout.py": "sim.kernel.layout",
    "sim/kernel/records.py": "sim.kernel.records",
    "sim/kernel/cards.py": "sim.kernel.cards",
    "sim/kernel/witches.py": "sim.kernel.witches",
    "strategies/slots.py": "strategies.slots",
    "sim/rules/cards.py": "sim.rules.cards",
    "sim/rules/witches.py": "sim.rules.witches",
    "sim/rules/books.py": "sim.rules.books",
}


def old_module(ref: str, path: str, name: str) -> types.ModuleType:
    """The module as it is at ``ref``, executed under a private name (its imports are today's)."""
    src = subprocess.run(["git", "show", f"{ref}:{path}"], check=True, capture_output=True,
                         text=True).stdout
    mod = types.ModuleType(f"old_{name.replace('.', '_')}")
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    exec(compile(src, path, "exec"), mod.__dict__)
    return mod


def ints(mod: types.ModuleType) -> dict[str, int]:
    return {k: v for k, v in vars(mod).items() if type(v) is int and not k.startswith("__")}


def compare_constants(ref: str) -> bool:
    ok = True
    for path, name in MODULES.items():
        old, new = ints(old_module(ref, path, name)), ints(importlib.import_module(name))
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
    old = old_module(ref, "sim/study/report_schema.py", "sim.study.reports.schema")
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
