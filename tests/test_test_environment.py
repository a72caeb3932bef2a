"""The tests run in the same environment however pytest is started (plain, or pytest-xdist's
``-n 2`` workers) and whatever the developer's terminal: no COLUMNS or LINES reach the CLI or a
command a test starts (tests/conftest.py removes the ones GNU readline puts there), so the CLI's
tables are printed at their piped width."""

from __future__ import annotations

import os
import subprocess
import sys


def test_no_terminal_size_in_the_environment():
    assert "COLUMNS" not in os.environ and "LINES" not in os.environ


def test_a_started_command_inherits_no_terminal_size():
    # readline's COLUMNS=80 sits in the C environment, which os.environ does not show
    r = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('COLUMNS'), "
                        "os.environ.get('LINES'))"], capture_output=True, text=True, check=True)
    assert r.stdout.split() == ["None", "None"]


def test_the_cli_prints_at_its_piped_width():
    from sim.cli.printing import PIPED_WIDTH, stdout_console

    assert stdout_console().width == PIPED_WIDTH
