"""What the commands share about a user's input: the errors that are the user's to fix (one
line, exit status 2) and loading the user's strategy files.

Light to import: the error classes that live in modules importing NumPy are imported when a
command asks for ``USER_ERRORS``, not when ``quacks --help`` runs; none of them loads a kernel.
"""

from __future__ import annotations


def user_errors() -> tuple[type[Exception], ...]:
    """The exceptions a command reports as one line ``error: ...`` with exit status 2."""
    from sim.api.errors import GameInputError, RoundFileError, TooLargeError
    from sim.rules import chips
    from sim.rules.ruleset import RulesetError
    from strategies.registry import StrategyFileError
    from strategies.spec_types import StrategySpecError

    return (RulesetError, chips.BagSpecError, StrategySpecError, TooLargeError, GameInputError,
            RoundFileError, StrategyFileError, ValueError)


def __getattr__(name: str):
    """``USER_ERRORS``: :func:`user_errors`, imported on first use."""
    if name == "USER_ERRORS":
        return user_errors()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_strategies(files: list[str] | None) -> None:
    """Load strategies/user_*.py and every --strategy-file (StrategyFileError on a bad file)."""
    from strategies.registry import load_plugins_dir, load_strategy_file

    load_plugins_dir()
    for f in files or []:
        load_strategy_file(f)


def load_rules_files(files: list[str] | None) -> list[str]:
    """Load every ``--rules-file`` (its card numbered after the shipped ones); return the ids
    added. RulesFileError (a ValueError: one line naming the file, the card and the function)
    on a bad file."""
    from sim.rules.card_numbers import add_card_file

    added: list[str] = []
    for f in files or []:
        added += add_card_file(f)
    return added


def rules_file_compile_error(exc: BaseException) -> str | None:
    """One line for Numba's error compiling a user's rules file (its file, card and function,
    and the first line of Numba's message), or None if the error is not about a rules file."""
    import ast
    import re
    from pathlib import Path

    from sim.rules.card_numbers import user_cards

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    places = re.findall(r'File "([^"]+)", line (\d+)', text)
    for src in user_cards():
        path = src.path.resolve()
        lines = [int(n) for f, n in places if Path(f).resolve() == path]
        if not lines:
            continue
        func = "?"
        for node in ast.parse(src.path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.lineno <= lines[0] <= node.end_lineno:
                func = node.name
        why = next((ln.strip() for ln in text.splitlines()
                    if ln.strip() and not ln.startswith(("Failed in", "During:", "File ", " "))
                    and "source elided" not in ln), type(exc).__name__)
        return (f"{src.path}: card '{src.decl.id}', function {func} (line {lines[0]}): Numba "
                f"cannot compile it: {why}")
    return None
