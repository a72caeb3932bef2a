"""The layers run one way: ``sim.rules`` -> ``sim.kernel`` -> ``strategies`` -> ``sim.api`` ->
``sim.study`` -> ``sim.questions`` (the Python API) -> ``sim.cli`` (an arrow reads "may be
imported by"), with ``sim.stats`` a leaf that api, study, questions and cli may use.

The source is parsed (``ast``), never imported, so the check is fast and sees every import: at
module level, inside functions (lazy imports count: they dodge a cycle at import time but not in
the design), under ``TYPE_CHECKING``, and ``importlib.import_module`` or any other string literal
that is exactly a project module's dotted name. An import names its deepest project module
(``from sim.study import plots`` is ``sim.study.plots``; ``from sim.api.game import x`` is
``sim.api.game``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("sim", "strategies")

# Lower rank may be imported by higher rank, never the other way round.
LAYERS = {"sim.rules": 0, "sim.kernel": 1, "strategies": 2, "sim.api": 3, "sim.study": 4,
          "sim.questions": 5, "sim.cli": 6}
STATS = "sim.stats"  # a leaf utility: imports only itself; imported by STATS_USERS
STATS_USERS = ("sim.api", "sim.study", "sim.questions", "sim.cli")
# package start-up, the Numba cache location, the Numba patches' switch and the release number
INFRASTRUCTURE = {"sim", "sim.numba_cache", "sim.patch_switch", "sim.release"}

# User strategy files import the slot constants from strategies.slots (a contract); the project
# itself imports them from where they live, sim.kernel.decisions.slots.
USERS_ONLY = "strategies.slots"


def module_files() -> dict[str, Path]:
    """Every project module (dotted name -> file) under ``sim/`` and ``strategies/``."""
    out = {}
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = module_files()


def _package_of(module: str) -> str:
    """The package a module's relative imports start from."""
    if MODULES[module].name == "__init__.py":
        return module
    return module.rpartition(".")[0]


def _deepest(name: str) -> str | None:
    """The deepest project module that ``name`` (a dotted name) is or lies in."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str) -> Iterator[tuple[str, str | None, int]]:
    """(imported project module, imported name or None, line) for every import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _deepest(alias.name)
                if target:
                    yield target, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package_of(module).split(".")
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in MODULES:
                    yield full, None, node.lineno
                elif _deepest(base):
                    yield _deepest(base), alias.name, node.lineno
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in MODULES and node.value not in TOP:
                yield node.value, None, node.lineno  # importlib.import_module("sim.x"), etc.


def _edges() -> dict[str, dict[str, int]]:
    """importer -> {imported: first line}, self-imports left out."""
    graph: dict[str, dict[str, int]] = {m: {} for m in MODULES}
    for module in MODULES:
        for target, _name, line in imports_of(module):
            if target != module:
                graph[module].setdefault(target, line)
    return graph


GRAPH = _edges()


def _where(importer: str, imported: str) -> str:
    path = MODULES[importer].relative_to(ROOT)
    return f"{path}:{GRAPH[importer][imported]} {importer} -> {imported}"


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _layer(module: str) -> int | None:
    for package, rank in LAYERS.items():
        if _under(module, package):
            return rank
    return None


def upward(importer: str, imported: str) -> bool:
    """True if ``importer`` may not import ``imported`` (the layer order, stats and
    infrastructure rules)."""
    if importer in INFRASTRUCTURE or imported in INFRASTRUCTURE:
        return False
    if _under(imported, STATS):
        return not (_under(importer, STATS) or any(_under(importer, p) for p in STATS_USERS))
    if _under(importer, STATS):
        return True
    low, high = _layer(imported), _layer(importer)
    return low is None or high is None or low > high


def components(graph: dict[str, dict[str, int]]) -> list[set[str]]:
    """The strongly connected components of more than one module: each holds at least one cycle
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return components


def _cycle_in(graph: dict[str, dict[str, int]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth-first)."""
    start = min(component)
    parent = {start: start}
    queue = [start]
    for node in queue:
        for child in graph[node]:
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node,
                                                                                     start]
            if child in component and child not in parent:
                parent[child] = node
                queue.append(child)
    return sorted(component)


def test_every_module_parses_and_has_a_layer():
    unplaced = [m for m in MODULES if m not in INFRASTRUCTURE and not _under(m, STATS)
                and _layer(m) is None]
    assert not unplaced, f"modules outside every layer: {unplaced}"


def test_no_import_cycles():
    found = components(GRAPH)
    report = []
    for component in found:
        cycle = _cycle_in(GRAPH, component)
        steps = [_where(a, b) for a, b in zip(cycle, cycle[1:])]
        report.append(f"{len(component)} modules in a circle: {', '.join(sorted(component))}\n"
                      "  for example " + " -> ".join(cycle) + "\n    " + "\n    ".join(steps))
    assert not found, "import cycles (lazy imports count):\n" + "\n".join(report)


def test_imports_run_down_the_layers():
    bad = [_where(a, b) for a in GRAPH for b in GRAPH[a] if upward(a, b)]
    assert not bad, ("imports against the layer order rules < kernel < strategies < api < study "
                     "< cli (stats from api/study/cli only):\n" + "\n".join(bad))


def test_strategies_slots_is_for_strategy_files_only():
    bad = [_where(a, b) for a in GRAPH for b in GRAPH[a] if b == USERS_ONLY]
    assert not bad, (f"{USERS_ONLY} re-exports the slot constants for strategy files; the project "
                     "imports sim.kernel.decisions.slots:\n" + "\n".join(bad))


def test_study_reads_no_kernel():
    bad = [_where(a, b) for a in GRAPH for b in GRAPH[a]
           if _under(a, "sim.study") and _under(b, "sim.kernel")]
    assert not bad, "sim.study reads kernel records only through sim.api:\n" + "\n".join(bad)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_names_across_modules():
    bad = []
    for module, path in MODULES.items():
        for target, name, line in imports_of(module):
            if name and _private(name) and target != module:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name} from {target}")
        bad += _private_attributes(module)
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


def _private_attributes(module: str) -> list[str]:
    """``alias._name`` where ``alias`` is bound to another project module by an import."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname for a in node.names if a.asname and a.name in MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            aliases |= {a.asname or a.name for a in node.names
                        if f"{node.module}.{a.name}" in MODULES}
    return [f"{path.relative_to(ROOT)}:{node.lineno} uses {node.value.id}.{node.attr}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in aliases and _private(node.attr)]
