"""The plugin surface is declared once (strategies.slot_docs): the site's tables and helper
list are generated from that declaration, ``register`` accepts exactly its slots, ``quacks
strategies --slots`` prints it, and the shipped example strategies read everything through the
helpers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli.main import app
from sim.kernel.decisions import slots as S
from strategies import helpers_nb
from strategies import slot_docs as D

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "experiments" / "strategies").glob("*.py"))


HOW_TO = ROOT / "docs" / "how-to" / "write-a-strategy.md"
REFERENCE = ROOT / "docs" / "reference" / "strategies.md"


def test_slots_are_the_kernels_slots():
    assert D.SLOT_NAMES == S.DECISION_SLOTS
    assert len(set(D.SLOT_NAMES)) == len(D.SLOT_NAMES)


def test_a_slot_name_is_the_index_of_its_slot():
    # a user's slot function goes to SLOT_NAMES.index(name) (the registry); the kernel reads
    # SLOT_<NAME>: the two must agree for every slot a user may fill
    for name in S.DECISION_SLOTS:
        assert S.SLOT_NAMES.index(name) == getattr(S, f"SLOT_{name.upper()}"), name


def test_signature_matches_the_compiled_signature():
    from strategies.plugin import SLOT_SIGNATURE

    names = re.match(r"f\((.*)\) -> int", D.SIGNATURE).group(1).split(", ")
    assert len(names) == len(SLOT_SIGNATURE.args) == 8
    assert [a.name for a in D.ARGUMENTS] == ["P", "s", "G", "R", "SP", "a, b", "M"]
    from strategies import plugin, registry

    for doc in (plugin.__doc__, registry.register.__doc__):
        assert D.SIGNATURE.split(" ->")[0] in doc
    assert f"`{D.SIGNATURE}`" in HOW_TO.read_text(encoding="utf-8")


def test_the_reference_tables_are_generated_from_the_declaration():
    """The site's strategies reference draws the signature, arguments, slots and helpers from
    the declaration at build time (the quacks-slots directive), so they cannot drift; the
    directive reads exactly these declarations."""
    assert "```{quacks-slots}" in REFERENCE.read_text(encoding="utf-8")
    source = (ROOT / "docs" / "_ext" / "quacks_strategies.py").read_text(encoding="utf-8")
    for used in ("D.SIGNATURE", "D.ARGUMENTS", "D.SLOTS", "D.helper_docs()"):
        assert used in source, used


def test_helpers_declared_are_the_helpers_defined():
    defined = {name for name, v in vars(helpers_nb).items() if not name.startswith("_")
               and getattr(getattr(v, "py_func", None), "__module__", "") == helpers_nb.__name__}
    assert defined <= set(D.HELPER_NAMES)  # every helper defined there is listed
    assert all(hasattr(getattr(helpers_nb, n), "py_func") for n in D.HELPER_NAMES)  # and exists
    assert len(set(D.HELPER_NAMES)) == len(D.HELPER_NAMES)
    for _, call, doc in D.helper_docs():
        assert call.endswith(")") and doc.endswith(".")


def test_register_refuses_undeclared_slots():
    from strategies.registry import StrategyFileError, register

    with pytest.raises(StrategyFileError, match="unknown slot.*bogus.*slots are stop, flask"):
        register("ut-undeclared-slot", "x", bogus=lambda P, s, G, R, SP, a, b, M: 0)
    with pytest.raises(StrategyFileError, match="unknown slot.*custom"):
        register("ut-undeclared-slot", "x", custom=lambda P, s, G, R, SP, a, b, M: 0)


def test_param_index():
    from strategies.builtin import Param
    from strategies.registry import StrategyFileError, param_index

    ps = [Param("t", "float", 6, 1, 20), Param("prefer", "chips", ["o1"])]
    assert param_index(ps, "t") == 0 and param_index(ps, "prefer") == 1
    with pytest.raises(StrategyFileError, match="no parameter 'x'; the parameters are t, prefer"):
        param_index(ps, "x")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_read_nothing_raw(path):
    text = path.read_text()
    for raw in ("SP[", "G[", "P[", "R[", "G_OUT", "LOOK_T", "SLOT_CUSTOM", "sim.kernel", "21"):
        assert raw not in text, f"{path.name} reads {raw!r} raw; use strategies.helpers_nb"


def test_the_examples_cover_the_buy_slot():
    names = {p.name for p in EXAMPLES}
    assert {"careful.py", "shopper.py"} <= names
    assert "buy=buy" in (ROOT / "experiments" / "strategies" / "shopper.py").read_text()


def test_cli_slots_prints_every_slot_and_helper():
    r = CliRunner().invoke(app, ["strategies", "--slots"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert D.SIGNATURE in r.stdout.replace("\n", " ")
    for d in D.SLOTS:
        assert any(re.match(rf"  {d.name} +a, b: ", ln) for ln in lines), d.name
    for name in D.HELPER_NAMES:
        assert any(ln.startswith(f"    {name}(") for ln in lines), name
    assert all(len(ln) <= 100 for ln in lines)


def test_cli_slots_json():
    r = CliRunner().invoke(app, ["strategies", "--slots", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [s["name"] for s in d["slots"]] == list(D.SLOT_NAMES)
    assert [h["call"].split("(")[0] for h in d["helpers"]] == list(D.HELPER_NAMES)
    assert "`" not in r.stdout


def test_cli_slots_with_a_name_is_refused():
    r = CliRunner().invoke(app, ["strategies", "balanced", "--slots"])
    assert r.exit_code == 2 and "give no strategy name" in r.output
