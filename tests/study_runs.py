"""What the tests of the study commands share: one small run written to a report folder and its
``--json`` answer read back, as a module-scoped fixture."""

from __future__ import annotations

import json

import pytest


def json_run(ok, tmp_path_factory, command: str, *args):
    """Run ``quacks COMMAND ARGS --out <fresh folder>/report --json`` with ``ok`` (from
    ``cli_helpers.invokers``, which asserts exit 0); returns the parsed JSON and the folder."""
    out = tmp_path_factory.mktemp(command) / "report"
    r = ok(command, *args, "--out", out, "--json")
    return json.loads(r.stdout), out


def run_fixture(name: str, ok, command: str, *args, doc: str = ""):
    """A module-scoped fixture called ``name``: :func:`json_run` of the command, once."""

    @pytest.fixture(scope="module", name=name)
    def fixture(tmp_path_factory):
        return json_run(ok, tmp_path_factory, command, *args)

    fixture.__doc__ = doc or f"quacks {command} {' '.join(map(str, args))}, its JSON and folder"
    return fixture
