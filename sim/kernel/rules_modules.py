"""What the generated hook tables share (the cards' ``sim.kernel.cards.hooks``, the books'
``sim.kernel.books.hooks`` and the witches' ``sim.kernel.witches.hooks`` and ``potion_hooks``):
importing a rules file's module under a private name, making its plain hook functions kernel
functions, reading the arguments a hook names, and running a table's generated source in its
module (``install``)."""

from __future__ import annotations

import importlib.util
import inspect
import sys

from sim.kernel.jit import kernel
from sim.numba_cache import project_path, table_as_shipped
from sim.rules.card_files import RulesFileError


def import_rules_module(name: str, path, what: str):
    """The module of a rules file, imported as ``name`` (once: a second call returns it);
    RulesFileError (one line, ``<path>: <what>: <error>``) if it fails."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[name]
        msg = str(e).splitlines()[0] if str(e) else ""
        raise RulesFileError(f"{path}: {what}: {type(e).__name__}: {msg}") from None
    return module


def compile_hooks(module, inline: dict[str, bool]) -> None:
    """Each function of ``module`` named in ``inline`` that is a plain function becomes a kernel
    function (inlined where ``inline`` says: a hook on the per-chip path), as the shipped cards
    and books declare theirs."""
    for name, per_chip in inline.items():
        fn = getattr(module, name, None)
        if fn is not None and not hasattr(fn, "py_func"):
            setattr(module, name, kernel(fn, inline=per_chip))


def hook_params(fn) -> list[str]:
    """The argument names a hook function (kernel or plain) takes, in order."""
    return list(inspect.signature(getattr(fn, "py_func", fn)).parameters)


def call_text(variable: str, module, point: str) -> str:
    """The call a generated hook table makes of ``module``'s hook function ``point`` (the module
    named ``variable`` in the table's source), with the arguments the function names."""
    return f"{variable}.{point}({', '.join(hook_params(getattr(module, point)))})"


def install(namespace: dict, modules: dict[str, object], source: str, built: list[bool],
            as_shipped: bool = False) -> None:
    """Run a generated hook table: its ``source`` in its module's ``namespace`` (the module's
    globals, given the rule ``modules`` the source calls, by variable), then mark the table built
    (``built[0]``: a rule loaded from now on would not be played). ``as_shipped``: the table
    generated from the shipped rules alone is the same (its text and the values it names), so
    no rules file loaded changes it and its dependents keep the shared Numba cache
    (``sim.numba_cache.table_as_shipped``). A table module run as a script (``python -m
    ...hooks``) prints its source instead of nothing."""
    if as_shipped:
        table_as_shipped(project_path(namespace["__file__"]))
    namespace.update(modules)
    exec(compile(source, namespace["__file__"], "exec"), namespace)  # noqa: S102 - generated
    built[0] = True
    if namespace["__name__"] == "__main__":
        print(source, end="")
