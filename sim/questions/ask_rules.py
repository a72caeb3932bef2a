"""``sim.load_rules`` and ``sim.strategy``: a ruleset and a strategy, as the commands' ``--rules``,
``--set`` and ``--strategies`` read them."""

from __future__ import annotations

from collections.abc import Sequence


def load_rules(rules: str = "base", set: Sequence[str] | str | None = None):  # noqa: A002
    """The ruleset ``--rules RULES --set K=V ...`` names: a built-in name (``base``,
    ``herb-witches``, ...) or a TOML file, with overrides ``section.key=value`` applied and the
    whole validated. ``set`` is one override or a list of them (the CLI's repeated ``--set``).
    Raises ``sim.rules.ruleset.RulesetError`` (a ``ValueError``) with one line on bad input."""
    from sim.rules.ruleset import load_ruleset

    return load_ruleset(rules, as_list(set))


def strategy(spec: str, strategy_file: Sequence[str] | str | None = None):
    """The strategy a ``--strategies`` entry names, ``name`` or ``name:key=value,...``, with its
    parameters resolved against the registry; ``strategy_file`` loads user strategies first (the
    CLI's ``--strategy-file``). Raises a ``ValueError`` with one line on an unknown name or
    parameter."""
    from strategies.builtin import parse_strategy

    load_strategy_files(strategy_file)
    return parse_strategy(spec)


def as_list(value: Sequence[str] | str | None) -> list[str]:
    """A CLI list option as a list: None -> [], one string -> [it], a sequence -> a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def load_strategy_files(files: Sequence[str] | str | None) -> None:
    """Load ``strategies/user_*.py`` and every given strategy file (``--strategy-file``)."""
    from strategies.registry import load_plugins_dir, load_strategy_file

    load_plugins_dir()
    for f in as_list(files):
        load_strategy_file(f)


def load_rules_files(files: Sequence[str] | str | None) -> list[str]:
    """Load each user rules file (``--rules-file``: a card or a book, numbered after the shipped
    ones) and return the rule ids added; what a question does first. Raises
    ``sim.rules.card_files.RulesFileError`` (a ValueError: one line naming the file) on a bad
    file, or on one loaded after the process's first game."""
    from sim.rules.card_numbers import add_card_file

    added: list[str] = []
    for f in as_list(files):
        added += add_card_file(f)
    return added
