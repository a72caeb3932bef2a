"""What the two generated hook tables share (the cards' ``sim.kernel.cards.hooks`` and the user's
books' ``sim.kernel.books.hooks``): importing a rules file's module under a private name,
making its plain hook functions kernel functions, and reading the arguments a hook names."""

from __future__ import annotations

import importlib.util
import inspect
import sys

from sim.kernel.jit import kernel
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
