"""Options several commands share are declared once (``sim.cli.options``): the run options every
study command ends with (``StudyRun``), the options ``exploit`` and ``styles`` begin with
(``SearchOptions``, and ``sim.questions.ask_exploit.SearchField`` for ``sim.exploit`` and
``sim.styles``), gathered by ``sim.questions.running.keyword_group``. The commands' ``--help``
lists them in their places, the same words in every command, and the questions' signatures
still name each keyword."""

from __future__ import annotations

import inspect
import re
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

import sim
from sim.cli.main import app
from sim.cli.options import SearchOptions, StudyRun
from sim.questions.running import keyword_group

WIDE = 1000
STUDIES = ("balance", "sensitivity", "design", "exploit", "styles")


def _options(command: str) -> list[tuple[str, str]]:
    """(option, help) of each option of ``quacks COMMAND --help``, in order."""
    res = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": str(WIDE)},
                             terminal_width=WIDE)
    assert res.exit_code == 0, res.output
    rows = re.findall(r"^[│|]\s+(--[\w-]+)(?:\s+<[^>]*>)?\s+(.*?)\s*[│|]$", res.output, re.M)
    return [(opt, " ".join(text.split())) for opt, text in rows]


def _flag(name: str) -> str:
    return "--" + name.rstrip("_").replace("_", "-")


@pytest.mark.parametrize("command", STUDIES)
def test_every_study_command_ends_with_the_run_options(command):
    names = [n for n in StudyRun._fields if command != "balance" or n != "strategy_file"]
    listed = [opt for opt, _ in _options(command)]
    assert listed[-len(names) - 1:] == [*map(_flag, names), "--help"]


def test_shared_options_read_the_same_in_every_command():
    helps = {c: dict(_options(c)) for c in STUDIES}
    for opt in map(_flag, StudyRun._fields):
        assert len({h[opt] for h in helps.values() if opt in h}) == 1, opt
    exploit, styles = helps["exploit"], helps["styles"]
    for opt in map(_flag, SearchOptions._fields):
        assert exploit[opt] == styles[opt], opt
    assert helps["sensitivity"]["--knob"] == helps["design"]["--knob"]
    assert helps["sensitivity"]["--adjust"] == helps["design"]["--adjust"]


def test_exploit_and_styles_begin_with_the_search_options():
    for command in ("exploit", "styles"):
        listed = [opt for opt, _ in _options(command)]
        assert listed[:len(SearchOptions._fields)] == list(map(_flag, SearchOptions._fields))


@pytest.mark.parametrize("name", ["exploit", "styles"])
def test_the_search_keywords_lead_the_question_signatures(name):
    params = list(inspect.signature(getattr(sim, name)).parameters.values())
    assert [p.name for p in params[:6]] == ["rules", "variant", "set", "strategies",
                                            "candidate", "param"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None
               for p in params[:6])
    assert params[0].annotation == "Sequence[str] | str | None"  # as written, not a ForwardRef


class _Pair(NamedTuple):
    a: int = 1
    b: str = "x"


def test_keyword_group_adds_the_fields_and_gathers_what_is_given():
    @keyword_group(_Pair, "pair", first=True)
    def lead(*, pair: _Pair, c: int = 3, **rest):
        return pair, c, rest

    @keyword_group(_Pair, "pair", leave_out=("b",))
    def tail(c: int = 3, *, pair: _Pair):
        return pair, c

    assert list(inspect.signature(lead).parameters) == ["a", "b", "c", "rest"]
    assert lead(a=5, c=4, z=0) == (_Pair(5, "x"), 4, {"z": 0})
    assert list(inspect.signature(tail).parameters) == ["c", "a"]
    assert inspect.signature(tail).parameters["a"].default == 1
    assert tail(c=2, a=7) == (_Pair(7, "x"), 2)


def test_the_search_field_gives_the_settings_exploit_and_styles_share():
    from sim.questions.ask_exploit import SearchField
    from sim.study.exploit.defaults import DEFAULT_FIELD

    got = SearchField(rules=["base"], variant="v8=game.explosion_limit=8", set="game.rounds=9",
                      strategies="expert,greedy", candidate="  ", param="t=1:5").settings()
    assert [(v.label, v.overrides) for v in got["variants"]] == [
        ("base", ("game.rounds=9",)), ("v8", ("game.rounds=9", "game.explosion_limit=8"))]
    assert got["strategies"] == ("expert", "greedy")
    assert got["candidate"] is None and got["params"] == ("t=1:5",)
    default = SearchField().settings()
    assert default["strategies"] == DEFAULT_FIELD and [v.label for v in default["variants"]] == [
        "base"]
