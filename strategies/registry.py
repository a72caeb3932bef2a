"""User strategies: register slot functions under a name, load strategy files, and the table of
compiled slot functions (``UF``) every kernel call receives.

A strategy file is a short Python file that defines any of the slot functions and calls
``register``; the slots it leaves out come from the built-in strategy it names as ``fallback``
(see README, "Writing a strategy").
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from sim.kernel.decisions import slots as S
from sim.rules.input_files import not_a_file
from strategies.builtin import REGISTRY, Param, StrategyDef, StrategySpecError
from strategies.plugin import (
    asks_builtin_slot_functions,
    compile_slot,
    function_table,
    memory_template,
    require_master,
    require_optimal,
)
from strategies.slot_docs import SLOT_NAMES

_USER_FUNCTIONS: list = []
_TABLE: tuple | None = None
LOADED_FILES: dict[str, str] = {}
_REGISTERED: list[str] = []  # every register() call, in order


class StrategyFileError(ValueError):
    """A strategy file that cannot be loaded or compiled; the message says why."""


def slot_table(SK: np.ndarray | None = None) -> tuple:
    """The ``UF`` tuple for the kernels: the built-in slot functions, then every user one, and
    the seats' memory template. Given the lineup's slot kinds ``SK``, the template is the wide
    one (the optimal stopper's memo, 21 MB) only when a seat calls a built-in slot function:
    the parallel kernels zero a copy of it for every chunk, which once the optimal stopper was
    loaded cost every later call about 20 ms a chunk whoever played."""
    global _TABLE
    if _optimal_used() and require_optimal():
        _TABLE = None  # the optimal stopper was just compiled: rebuild the table with it
    if _master_used() and require_master():
        _TABLE = None
    if _TABLE is None:
        _TABLE = function_table(_USER_FUNCTIONS)
    if SK is not None and not asks_builtin_slot_functions(SK):
        return _TABLE[0], memory_template(False)
    return _TABLE


def _optimal_used() -> bool:
    from strategies import builtin

    return builtin.OPTIMAL_REQUESTED


def _master_used() -> bool:
    from strategies import builtin

    return builtin.MASTER_REQUESTED


def register(name: str, description: str, *, fallback: str = "balanced", params=(), idea: str = "",
             **slot_functions) -> StrategyDef:
    """Register a user strategy.

    ``slot_functions`` maps slot names to Python functions with the slot signature
    ``f(P, s, G, R, SP, a, b, M) -> int``; the slots, what ``a`` and ``b`` are and what each
    result means are declared in ``strategies.slot_docs`` (``SLOTS``; ``quacks strategies --slots``
    prints them), and a name not declared there is refused. Each function is compiled with Numba
    now (a function that cannot be compiled raises StrategyFileError with Numba's message).
    ``params`` are ``Param`` objects whose values reach the functions as ``param(SP, s, i)`` (i the
    position in ``params``, ``param_index(params, name)``); the fallback's own parameters are
    accepted too.
    """
    global _TABLE
    key = name.strip().lower()
    if not key or ":" in key or "," in key or "=" in key:
        raise StrategyFileError(f"strategy name {name!r}: use letters, digits, '-' or '_'")
    if key in REGISTRY and REGISTRY[key].source == "built-in":
        raise StrategyFileError(f"strategy name '{key}' is a built-in; choose another name")
    if fallback not in REGISTRY:
        raise StrategyFileError(f"strategy '{key}': unknown fallback '{fallback}'; known: "
                                f"{', '.join(sorted(REGISTRY))}")
    unknown = [s for s in slot_functions if s not in SLOT_NAMES]
    if unknown:
        raise StrategyFileError(f"strategy '{key}': unknown slot(s) {', '.join(unknown)}; slots "
                                f"are {', '.join(SLOT_NAMES)}")
    if not slot_functions:
        raise StrategyFileError(f"strategy '{key}': define at least one slot function")
    params = tuple(params)
    if len(params) > S.PARAM_WIDTH:
        raise StrategyFileError(f"strategy '{key}': at most {S.PARAM_WIDTH} custom parameters")
    for p in params:
        if not isinstance(p, Param) or p.kind not in ("int", "float", "chips"):
            raise StrategyFileError(f"strategy '{key}': params must be Param(name, 'int'|'float', "
                                    f"default, lo, hi) or Param(name, 'chips', [chip, ...])")
        if p.kind == "chips" and len(p.default) > MAX_CHIP_LIST:
            raise StrategyFileError(f"strategy '{key}': parameter {p.name}: at most "
                                    f"{MAX_CHIP_LIST} chips in a chip list")
    base = REGISTRY[fallback]
    custom_names = [p.name for p in params]
    indices = {}
    for slot, fn in slot_functions.items():
        try:
            compiled = compile_slot(fn)
        except Exception as e:  # Numba's typing and lowering errors have many classes
            first = str(e).strip().splitlines()
            detail = " ".join(line.strip() for line in first[:6] if line.strip())
            raise StrategyFileError(
                f"strategy '{key}': slot '{slot}' ({getattr(fn, '__name__', fn)}) does not compile "
                f"with Numba: {detail}"
            ) from None
        if len(_USER_FUNCTIONS) + S.N_BUILTIN_UF >= S.N_UF:
            raise StrategyFileError(f"strategy '{key}': too many user slot functions in one run "
                                    f"(at most {S.N_UF - S.N_BUILTIN_UF})")
        _USER_FUNCTIONS.append(compiled)
        # index in the table (the built-in slot functions come first)
        indices[slot] = S.N_BUILTIN_UF + len(_USER_FUNCTIONS) - 1
    _TABLE = None

    def build(values: dict) -> tuple[np.ndarray, np.ndarray]:
        kinds, arr = base.build({p.name: values[p.name] for p in base.params})
        for slot, idx in indices.items():
            kinds[S.SLOT_NAMES.index(slot)] = S.USER_BASE + idx
        for i, p in enumerate(params):
            v = values[p.name]
            arr[S.SLOT_CUSTOM, i] = encode_chip_list(v, f"{key}: parameter {p.name}") \
                if p.kind == "chips" else v
        return kinds, arr

    all_params = params + tuple(p for p in base.params if p.name not in custom_names)
    d = StrategyDef(key, description, all_params, build,
                    idea or f"user strategy: {', '.join(slot_functions)} over {fallback}",
                    source="user")
    REGISTRY[key] = d  # a later registration of the same user name replaces the earlier one
    _REGISTERED.append(key)
    return d


def param_index(params, name: str) -> int:
    """The index of the custom parameter called ``name`` in ``params`` (the list given to
    ``register``), for ``param(SP, s, i)``, ``chip_at`` and ``buy_list``. Call it at the top of a
    strategy file (``T = param_index(PARAMS, "t")``): Numba reads the module-level int as a
    constant, so the slot function costs what a raw ``SP`` read costs."""
    names = [p.name for p in params]
    if name not in names:
        raise StrategyFileError(f"param_index: no parameter {name!r}; the parameters are "
                                f"{', '.join(names) or 'none'}")
    return names.index(name)


MAX_CHIP_LIST = 12  # 21**12 < 2**53: the list fits one float64 exactly


def encode_chip_list(names: list[str], where: str) -> float:
    """A chip-list parameter as one number: chip type + 1 in base 21, first chip lowest (read it
    with ``strategies.helpers_nb.chip_at`` / ``chip_rank``)."""
    from sim.rules import chips

    if len(names) > MAX_CHIP_LIST:
        raise StrategySpecError(f"{where}: at most {MAX_CHIP_LIST} chips in a chip list")
    code = 0
    for k, name in enumerate(names):
        code += (chips.parse_chips(name)[0] + 1) * 21**k
    return float(code)


def load_strategy_file(path: str | Path) -> list[str]:
    """Execute a strategy file (its ``register`` calls add to the registry); return new names."""
    p = Path(path)
    key = str(p.resolve())
    if key in LOADED_FILES:
        return []
    why = not_a_file(path)
    if why is None and p.suffix != ".py":
        why = "not a Python file (its name must end in .py)"
    if why is not None:
        raise StrategyFileError(f"--strategy-file {path}: {why}")
    before = set(REGISTRY)
    count_before = len(_REGISTERED)
    mod_name = f"quacks_user_strategy_{len(LOADED_FILES)}"
    spec = importlib.util.spec_from_file_location(mod_name, p)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except (StrategyFileError, StrategySpecError) as e:
        raise StrategyFileError(f"{path}: {e}") from None
    except SyntaxError as e:
        raise StrategyFileError(f"{path}: syntax error on line {e.lineno}: {e.msg}") from None
    except Exception as e:
        raise StrategyFileError(f"{path}: {type(e).__name__}: {e}") from None
    added = sorted(set(REGISTRY) - before) or [n for n in _REGISTERED[count_before:]]
    if not added:  # refused, so not among the loaded files (a Dask run ships those)
        raise StrategyFileError(f"{path}: registers no strategy; call "
                                "strategies.registry.register(...)")
    LOADED_FILES[key] = mod_name
    return added


def load_plugins_dir() -> list[str]:
    """Load every ``strategies/user_*.py`` file shipped beside the package (may be none)."""
    names: list[str] = []
    for p in sorted(Path(__file__).parent.glob("user_*.py")):
        names += load_strategy_file(p)
    return names
