"""Reading the cards' declarations from their modules, without importing them.

A card is one module (``sim.rules.declare``): the shipped ones in ``sim/kernel/cards/``, a user's
in a rules file (``--rules-file``). Here its source is parsed: the ``CARD = card(...)`` statement
is evaluated with the module's own ``from sim.rules... import`` lines (so a declaration can use
only rules-layer names), and the names of its top-level functions say which hook points it uses.
Nothing is compiled or imported from the kernel, so the rules and api layers (``quacks rules``,
ruleset checks, round files) know every card at the cost of parsing its file.

Every fault of a file is a ``RulesFileError``: one line naming the file, the card and the
function.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from sim.rules.declare import CARD_HOOKS, CARD_SPECIAL_FUNCTIONS, CardDeclaration

# the shipped cards' modules (kernel layer: read as text here, never imported)
SHIPPED_FOLDER = Path(__file__).resolve().parent.parent / "kernel" / "cards"
DECLARATION = "CARD"  # the module-level name of a card's declaration


class RulesFileError(ValueError):
    """A rules file (or a shipped card's module) that cannot be used: one line."""


@dataclass(frozen=True)
class CardSource:
    """A card's declaration and where it lives."""

    decl: CardDeclaration
    path: Path
    module: str  # a shipped card's module in the kernel's cards folder ("charity"); "" for a user's
    hooks: tuple[str, ...]  # the hook points it uses, in the order of CARD_HOOK_POINTS

    @property
    def draw_time(self) -> bool:
        """Whether it changes a potion while it is brewed (it uses a draw-time hook point)."""
        return any(CARD_HOOKS[h].draw_time for h in self.hooks)


def _functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef)]


def read_card(path: Path | str, module: str = "") -> CardSource | None:
    """The card a module declares (None if it declares none); RulesFileError for a file that
    does not parse, a declaration that does not evaluate, or a public function that is not a
    hook point (or asks for an argument its hook point does not give)."""
    path = Path(path)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except OSError as e:
        raise RulesFileError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RulesFileError(f"{path}: not a text file (not UTF-8)") from None
    except SyntaxError as e:
        raise RulesFileError(f"{path}: syntax error on line {e.lineno}: {e.msg}") from None
    decl_node = None
    imports = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sim.rules"):
            imports.append(node)
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and node.targets[0].id == DECLARATION):
            decl_node = node
    if decl_node is None:
        return None
    ns: dict = {}
    try:
        exec(compile(ast.Module(body=[*imports, decl_node], type_ignores=[]), str(path), "exec"),
             ns)
    except Exception as e:  # the declaration's own error (ValueError from card(...)) or a name
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise RulesFileError(f"{path}: {DECLARATION} = card(...) on line {decl_node.lineno}: "
                             f"{msg} (a declaration may use only names imported from "
                             "sim.rules)") from None
    decl = ns[DECLARATION]
    if not isinstance(decl, CardDeclaration):
        raise RulesFileError(f"{path}: {DECLARATION} must be sim.rules.declare.card(...)")
    hooks = []
    for fn in _functions(tree):
        if fn.name.startswith("_") or fn.name in CARD_SPECIAL_FUNCTIONS:
            continue
        point = CARD_HOOKS.get(fn.name)
        if point is None:
            raise RulesFileError(
                f"{path}: card '{decl.id}', function {fn.name}: no such hook point (known: "
                f"{', '.join(CARD_HOOKS)}; name a helper with a leading '_')")
        args = [a.arg for a in fn.args.args]
        extra = [a for a in args if a not in point.params]
        if extra or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            raise RulesFileError(
                f"{path}: card '{decl.id}', function {fn.name}: argument "
                f"{(extra or ['*'])[0]!r} is not one the hook point gives "
                f"({', '.join(point.params)})")
        hooks.append(fn.name)
    order = list(CARD_HOOKS)
    return CardSource(decl, path, module, tuple(sorted(hooks, key=order.index)))


@functools.cache
def shipped_cards() -> tuple[CardSource, ...]:
    """Every shipped card, in number order; RulesFileError if the numbers are not 1..n."""
    found = []
    for path in sorted(SHIPPED_FOLDER.glob("*.py")):
        src = read_card(path, path.stem)
        if src is not None:
            found.append(src)
    found.sort(key=lambda c: c.decl.number)
    numbers = [c.decl.number for c in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RulesFileError(f"{SHIPPED_FOLDER}: the shipped cards' numbers must be 1..{len(found)}"
                             f", each once; found {numbers}")
    for c in found:
        if c.module != c.decl.id.replace("-", "_"):
            raise RulesFileError(f"{c.path}: card '{c.decl.id}' must be in "
                                 f"{c.decl.id.replace('-', '_')}.py")
    return tuple(found)
