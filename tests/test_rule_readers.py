"""The cards and the witches are read by one reader of a declared module
(``sim.rules.card_files.read_rule``) and one reader of a shipped folder (``shipped_rules``):
numbered 1..n, each in the module named after its id."""

from __future__ import annotations

import pytest

from sim.rules.card_files import DECLARATION, RulesFileError, read_card, read_rule, shipped_rules
from sim.rules.declare import (
    CARD_HOOKS,
    WITCH_HOOKS,
    WITCH_SPECIAL_FUNCTIONS,
    CardDeclaration,
    WitchDeclaration,
)
from sim.rules.witch_files import (
    SHIPPED_WITCH_FOLDER,
    WITCH_DECLARATION,
    read_witch,
    shipped_witches,
)


def _card_file(folder, stem, number, card_id):
    path = folder / f"{stem}.py"
    path.write_text("from sim.rules.declare import PURPLE, card\n\n"
                    f"CARD = card({number}, {card_id!r}, PURPLE, name='A card', doc='Text.')\n\n\n"
                    "def purple_last(G, E):\n    return None\n", encoding="utf-8")
    return path


def test_read_rule_reads_a_witch_and_a_card_alike(tmp_path):
    """The witch's reader and the card's reader are the shared reader with their names."""
    path = SHIPPED_WITCH_FOLDER / "bag_points.py"
    decl, hooks = read_rule(path, WITCH_DECLARATION, WitchDeclaration, "witch", WITCH_HOOKS,
                            WITCH_SPECIAL_FUNCTIONS)
    src = read_witch(path, "bag_points")
    assert (src.decl.number, src.decl.id, src.hooks, src.module) == (
        decl.number, decl.id, hooks, "bag_points") == (10, "bag-points", ("at_points",),
                                                       "bag_points")
    card_path = _card_file(tmp_path, "alpha", 1, "alpha")
    decl, hooks = read_rule(card_path, DECLARATION, CardDeclaration, "card", CARD_HOOKS)
    assert (decl.number, decl.id, hooks) == (1, "alpha", ("purple_last",))
    assert read_card(card_path).decl == decl
    (tmp_path / "plain.py").write_text("X = 1\n", encoding="utf-8")
    assert read_rule(tmp_path / "plain.py", DECLARATION, CardDeclaration, "card",
                     CARD_HOOKS) is None


def test_shipped_rules_sorts_and_checks_numbers_and_modules(tmp_path):
    """In number order, modules that declare nothing passed over; a gap in the numbers or a rule
    in a module not named after its id is one line naming the folder or the file."""
    _card_file(tmp_path, "beta", 2, "beta")
    _card_file(tmp_path, "alpha", 1, "alpha")
    (tmp_path / "helpers.py").write_text("X = 1\n", encoding="utf-8")
    found = shipped_rules(tmp_path, read_card, "card")
    assert [(c.decl.number, c.module) for c in found] == [(1, "alpha"), (2, "beta")]
    _card_file(tmp_path, "gamma", 4, "gamma")
    with pytest.raises(RulesFileError, match=r"the shipped cards' numbers must be 1\.\.3, each "
                       r"once; found \[1, 2, 4\]"):
        shipped_rules(tmp_path, read_card, "card")
    _card_file(tmp_path, "gamma", 3, "delta")
    with pytest.raises(RulesFileError, match=r"gamma\.py: card 'delta' must be in delta\.py"):
        shipped_rules(tmp_path, read_card, "card")


def test_shipped_witches_are_the_shared_readers_witches():
    """The shipped witches are what the shared folder reader finds, numbered 1..12."""
    def key(found):
        return [(w.decl.number, w.decl.id, w.module, w.hooks) for w in found]

    assert key(shipped_witches()) == key(shipped_rules(SHIPPED_WITCH_FOLDER, read_witch, "witch"))
    assert [w.decl.number for w in shipped_witches()] == list(range(1, 13))
