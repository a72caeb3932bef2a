"""The one loader of rules-file modules that the cards' and the user books' hook tables share
(``sim.kernel.rules_modules``)."""

from __future__ import annotations

import sys

import pytest

from sim.kernel.rules_modules import compile_hooks, hook_params, import_rules_module
from sim.rules.card_files import RulesFileError


def test_a_failing_module_is_one_line_and_leaves_nothing_behind(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("x = 1\nraise ValueError('no good\\nsecond line')\n")
    with pytest.raises(RulesFileError) as err:
        import_rules_module("quacks_rules_test_broken", path, "card 'broken'")
    assert str(err.value) == f"{path}: card 'broken': ValueError: no good"
    assert "quacks_rules_test_broken" not in sys.modules


def test_a_module_is_imported_once_and_its_plain_hooks_become_kernels(tmp_path):
    path = tmp_path / "fine.py"
    path.write_text("def placed(P, s, t):\n    return t\n\n\ndef at_b(P, s):\n    return s\n")
    try:
        mod = import_rules_module("quacks_rules_test_fine", path, "book 'fine'")
        assert import_rules_module("quacks_rules_test_fine", path, "book 'fine'") is mod
        compile_hooks(mod, {"placed": True, "at_b": False, "missing": False})
        assert mod.placed.targetoptions.get("inline") == "always"
        assert "inline" not in mod.at_b.targetoptions
        assert not hasattr(mod, "missing")
        assert hook_params(mod.placed) == ["P", "s", "t"]
        assert hook_params(mod.at_b.py_func) == ["P", "s"]
    finally:
        sys.modules.pop("quacks_rules_test_fine", None)
