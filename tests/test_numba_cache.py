"""The Numba cache's freshness stamp reads each kernel module's imports with a regular expression
(fast at start-up); it must find every project module that Python's own parser finds, or a stale
compiled kernel could survive an edit to a module it depends on."""

from __future__ import annotations

import ast

import pytest

from sim import numba_cache as nc

FILES = sorted(p.relative_to(nc.ROOT).as_posix()
               for pattern in ("sim/**/*.py", "strategies/**/*.py") for p in nc.ROOT.glob(pattern))


def parsed_imports(rel: str) -> set[str]:
    """The project modules ``rel`` imports, by ``ast`` (every name of a ``from`` import tried as
    a submodule), with the package ``__init__`` dropped where a module inside it was found."""
    package = rel.rsplit("/", 1)[0].replace("/", ".")
    found: set[str] = set()
    for node in ast.walk(ast.parse((nc.ROOT / rel).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                parts = package.split(".")
                mod = ".".join(parts[:len(parts) - node.level + 1] + ([mod] if mod else []))
            names = [mod, *(f"{mod}.{a.name}" for a in node.names)]
        else:
            continue
        for name in names:
            f = module_file(name)
            if f is not None and f != rel:
                found.add(f)
    return {f for f in found if not (f.endswith("__init__.py") and any(
        g != f and g.startswith(f[: -len("__init__.py")]) for g in found))}


def module_file(name: str) -> str | None:
    """The project file of a dotted module name (as the cache resolves it)."""
    base = name.replace(".", "/")
    for rel in (f"{base}.py", f"{base}/__init__.py"):
        if name.split(".")[0] in nc.PACKAGES and (nc.ROOT / rel).is_file():
            return rel
    return None


@pytest.mark.parametrize("rel", FILES)
def test_import_scan_agrees_with_the_parser(rel):
    assert set(nc.imports_of(rel)) == parsed_imports(rel)


def test_import_scan_reads_every_form(tmp_path, monkeypatch):
    pkg = tmp_path / "sim" / "kernel"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py", "c.py", "d.py"):
        (pkg / name).write_text("")
    (tmp_path / "sim" / "__init__.py").write_text("")
    (tmp_path / "sim" / "rules.py").write_text("")
    (pkg / "e.py").write_text(
        "from sim.kernel import (\n    a,  # the first\n    b as bee,\n)\n"
        "def f():\n    from . import c\n    import sim.rules as r\n"
        "from .d import thing\nimport numpy as np\n")
    monkeypatch.setattr(nc, "ROOT", tmp_path)
    nc.imports_of.cache_clear()
    try:
        assert nc.imports_of("sim/kernel/e.py") == (
            "sim/kernel/a.py", "sim/kernel/b.py", "sim/kernel/c.py", "sim/kernel/d.py",
            "sim/rules.py")
    finally:
        nc.imports_of.cache_clear()
