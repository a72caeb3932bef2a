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
    and the first line of Numba's message), or for a rules file that fails once the kernel
    imports it (``RulesFileError``); None if the error is not about a rules file."""
    import ast
    import re
    from pathlib import Path

    from sim.rules.book_files import USER_BOOKS
    from sim.rules.card_files import RulesFileError
    from sim.rules.card_numbers import user_cards
    from sim.rules.witch_files import user_witches

    if isinstance(exc, RulesFileError):
        return str(exc).splitlines()[0]

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    places = re.findall(r'File "([^"]+)", line (\d+)', text)
    places += re.findall(r"typing of [\w ]+ at (\S+) \((\d+)\)", text)
    missing = re.search(r"NameError: name '(\w+)' is not defined", text)
    rules = [(c.path, f"card '{c.decl.id}'") for c in user_cards()]
    rules += [(b.path, f"book '{b.decl.id}'") for b in USER_BOOKS]
    rules += [(w.path, f"witch '{w.decl.id}'") for w in user_witches()]
    for src_path, label in rules:
        path = src_path.resolve()
        lines = [int(n) for f, n in places if Path(f).resolve() == path]
        functions = [n for n in ast.parse(src_path.read_text(encoding="utf-8")).body
                     if isinstance(n, ast.FunctionDef)]
        if not lines and missing:  # Numba names no place for an unknown name: the function
            lines = [n.lineno for fn in functions for n in ast.walk(fn)  # that uses it
                     if isinstance(n, ast.Name) and n.id == missing.group(1)][:1]
        if not lines:
            continue
        func = next((fn.name for fn in functions if fn.lineno <= lines[0] <= fn.end_lineno), "?")
        why = next((ln.strip() for ln in text.splitlines()
                    if ln.strip() and not ln.startswith(("Failed in", "During:", "File ", " "))
                    and "source elided" not in ln), type(exc).__name__)
        return (f"{src_path}: {label}, function {func} (line {lines[0]}): Numba cannot "
                f"compile it: {why}")
    return None
