"""Every ``quacks X --help`` reads as prose: no ``<bool>`` on flags, no Python types such as
``<list[str]>``, and no line breaks kept from a docstring in mid-sentence."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from sim.cli.help_text import join_lines, tidy_command
from sim.cli.main import app

WIDE = 1000  # wider than any help paragraph, so every remaining line break is the docstring's


def _commands():
    """(path, command) for the root and every command and sub-command, tidied as ``quacks``
    tidies them before it prints any help."""
    root = typer.main.get_command(app)
    tidy_command(root)

    def walk(cmd, path):
        yield path, cmd
        for name in sorted(getattr(cmd, "commands", {})):
            yield from walk(cmd.commands[name], [*path, name])

    return list(walk(root, []))


COMMANDS = _commands()


def _help(path: list[str]) -> str:
    res = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(WIDE)},
                             terminal_width=WIDE)
    assert res.exit_code == 0, res.output
    return res.output


def test_every_command_is_walked():
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"tournament", "tune", "experiment run", "rules show", "potion"} <= names
    assert len(names) >= 17


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "quacks")
def test_help_has_no_python_types(path):
    text = _help(path)
    assert "<bool>" not in text
    assert "list[" not in text
    assert not re.search(r"<(?:NoneType|Optional|Union|dict|tuple)", text)


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "quacks")
def test_help_keeps_no_mid_sentence_breaks(path):
    text = _help(path)
    # The prose between the usage line and the first panel: at this width a line ends only
    # where a paragraph ends, so no line may end in mid-sentence.
    prose = text.split("Usage:", 1)[1].split("╭", 1)[0]
    lines = [ln.strip() for ln in prose.splitlines()[1:]]
    for a, b in zip(lines, lines[1:]):
        assert not (a and b and re.search(r"[a-z,;(]$", a) and re.match(r"[a-z(]", b)), (a, b)
    # The command list of a group: one line per command.
    for row in re.findall(r"│ (\S+)\s{2,}(.*?)\s*│\n│\s{5,}(\S.*?)\s*│", text):
        raise AssertionError(f"command help wrapped in mid-sentence: {row}")


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=[" ".join(p) or "quacks" for p, _ in COMMANDS])
def test_help_objects_are_joined(path, cmd):
    for text in (cmd.help, cmd.short_help):
        for para in (text or "").split("\n\n"):
            if para.startswith("\b"):
                continue
            for line in para.split("\n")[1:]:
                assert re.match(r"\s*(?:[-*•]|\d+[.)])\s", line), (path, para)


def test_join_lines():
    assert join_lines("One line\nand more.\n\nSecond\nparagraph.") == \
        "One line and more.\n\nSecond paragraph."
    assert join_lines("Items:\n- a\n- b\n  continued") == "Items:\n- a\n- b continued"
    assert join_lines("\bkeep\nthis") == "\bkeep\nthis"
    assert join_lines(None) is None


@pytest.mark.parametrize("path, cmd", [(p, c) for p, c in COMMANDS
                                       if any("--rules" in o.opts for o in c.params)],
                         ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_every_command_with_rules_takes_a_rules_file(path, cmd):
    """Issue 46: every command that takes ``--rules`` takes ``--rules-file`` (quacks luck did
    not)."""
    assert any("--rules-file" in o.opts for o in cmd.params), " ".join(path)
