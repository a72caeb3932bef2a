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

from sim.rules.declare import (
    BOOK_HOOKS,
    BOOK_SPECIAL_FUNCTIONS,
    CARD_HOOKS,
    CARD_SPECIAL_FUNCTIONS,
    BookDeclaration,
    CardDeclaration,
)

# the kernel layer's folder, whose shipped rules' modules are read as text here, never imported
KERNEL_FOLDER = Path(__file__).resolve().parent.parent / "kernel"
SHIPPED_FOLDER = KERNEL_FOLDER / "cards"  # the shipped cards' modules
DECLARATION = "CARD"  # the module-level name of a card's declaration
BOOK_DECLARATION = "BOOK"  # of a user's book's


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


@dataclass(frozen=True)
class BookSource:
    """A user's book's declaration, its file and the hook points it uses (``BOOK_HOOK_POINTS``)."""

    decl: BookDeclaration
    path: Path
    hooks: tuple[str, ...]


def _functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef)]


def _parse(path: Path) -> ast.Module:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except OSError as e:
        raise RulesFileError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RulesFileError(f"{path}: not a text file (not UTF-8)") from None
    except SyntaxError as e:
        raise RulesFileError(f"{path}: syntax error on line {e.lineno}: {e.msg}") from None


def _declared(path: Path, tree: ast.Module, name: str, kind: type, what: str):
    """The value of the module's ``<name> = ...`` statement (evaluated with its ``sim.rules``
    imports only), or None without one; RulesFileError if it fails or is not a ``kind``."""
    decl_node = None
    imports = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sim.rules"):
            imports.append(node)
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name):
            decl_node = node
    if decl_node is None:
        return None
    ns: dict = {"__doc__": ast.get_docstring(tree)}  # doc=__doc__: the module's text
    try:
        exec(compile(ast.Module(body=[*imports, decl_node], type_ignores=[]), str(path), "exec"),
             ns)
    except Exception as e:  # the declaration's own error (ValueError from card(...)) or a name
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise RulesFileError(f"{path}: {name} = {what}(...) on line {decl_node.lineno}: "
                             f"{msg} (a declaration may use only names imported from "
                             "sim.rules)") from None
    if not isinstance(ns[name], kind):
        raise RulesFileError(f"{path}: {name} must be sim.rules.declare.{what}(...)")
    return ns[name]


def hook_functions(path: Path, tree: ast.Module, label: str, points: dict,
                   special: tuple[str, ...] = CARD_SPECIAL_FUNCTIONS) -> tuple[str, ...]:
    """The hook points (of ``points``) a module's public functions use, in their order there;
    RulesFileError naming the rule (``label``) and the function for a public function that is
    no hook point, or asks for an argument its hook point does not give."""
    hooks = []
    for fn in _functions(tree):
        if fn.name.startswith("_") or fn.name in special:
            continue
        point = points.get(fn.name)
        if point is None:
            raise RulesFileError(
                f"{path}: {label}, function {fn.name}: no such hook point (known: "
                f"{', '.join(points)}; name a helper with a leading '_')")
        args = [a.arg for a in fn.args.args]
        extra = [a for a in args if a not in point.params]
        if extra or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            raise RulesFileError(
                f"{path}: {label}, function {fn.name}: argument "
                f"{(extra or ['*'])[0]!r} is not one the hook point gives "
                f"({', '.join(point.params)})")
        hooks.append(fn.name)
    order = list(points)
    return tuple(sorted(hooks, key=order.index))


def read_card(path: Path | str, module: str = "") -> CardSource | None:
    """The card a module declares (None if it declares none); RulesFileError for a file that
    does not parse, a declaration that does not evaluate, or a public function that is not a
    hook point (or asks for an argument its hook point does not give)."""
    found = read_rule(path, DECLARATION, CardDeclaration, "card", CARD_HOOKS)
    return None if found is None else CardSource(found[0], Path(path), module, found[1])


def read_book(path: Path | str) -> BookSource | None:
    """The book a user's module declares (``BOOK = book(...)``; None if it declares none), as
    :func:`read_card` reads a card."""
    path = Path(path)
    tree = _parse(path)
    decl = _declared(path, tree, BOOK_DECLARATION, BookDeclaration, "book")
    if decl is None:
        return None
    hooks = hook_functions(path, tree, f"book '{decl.id}'", BOOK_HOOKS, BOOK_SPECIAL_FUNCTIONS)
    return BookSource(decl, path, hooks)


@functools.cache
def shipped_cards() -> tuple[CardSource, ...]:
    """Every shipped card, in number order; RulesFileError if the numbers are not 1..n."""
    return shipped_rules(SHIPPED_FOLDER, read_card, "card")


def shipped_rules(folder: Path, read, what: str) -> tuple:
    """The rules the modules of a shipped folder declare (``read(path, module)``, None for a
    module that declares none), in number order; RulesFileError if the numbers are not 1..n or
    a rule is not in the module named after its id. For the cards and the witches
    (``sim.rules.witch_files``)."""
    found = [read(path, path.stem) for path in sorted(folder.glob("*.py"))]
    found = sorted((src for src in found if src is not None), key=lambda src: src.decl.number)
    numbers = [src.decl.number for src in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RulesFileError(f"{folder}: the shipped {what}s' numbers must be 1..{len(found)}, "
                             f"each once; found {numbers}")
    for src in found:
        if src.module != src.decl.id.replace("-", "_"):
            raise RulesFileError(f"{src.path}: {what} '{src.decl.id}' must be in "
                                 f"{src.decl.id.replace('-', '_')}.py")
    return tuple(found)


def read_rule(path: Path | str, name: str, kind: type, what: str, points: dict,
              special: tuple[str, ...] = CARD_SPECIAL_FUNCTIONS):
    """``(declaration, hook points)`` of a rule's module: its ``<name> = <what>(...)`` statement
    (a ``kind``) and the hook points (of ``points``) its functions use; None if it declares
    none. RulesFileError (one line naming the file, the rule and the function) for a file that
    does not parse, a declaration that does not evaluate, or a public function that is not a
    hook point (or asks for an argument its hook point does not give). For the cards and the
    witches (``sim.rules.witch_files``)."""
    path = Path(path)
    tree = _parse(path)
    decl = _declared(path, tree, name, kind, what)
    if decl is None:
        return None
    return decl, hook_functions(path, tree, f"{what} '{decl.id}'", points, special)
