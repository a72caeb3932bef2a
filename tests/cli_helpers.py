"""Shared checks for the CLI tests."""


def assert_user_error(r, *fragments):
    """Exit 2, exactly one line on stderr starting 'error:', nothing on stdout, no traceback."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    assert r.stdout == ""
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def invokers(app):
    """``invoke(*args)`` and ``ok(*args)`` (which asserts exit 0) for a Typer app; arguments
    may be paths or numbers."""
    from typer.testing import CliRunner

    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(app, [str(a) for a in args])

    def ok(*args):
        r = invoke(*args)
        assert r.exit_code == 0, (r.output, r.exception)
        return r

    return invoke, ok


def refusal_line(app, *args) -> str:
    """The one line (less ``error: ``) the command ``args`` refuses with, run in this process
    through Typer's CliRunner: exit 2, that line alone on stderr, nothing on stdout. (A fresh
    ``quacks`` process prints the same line, see :func:`installed_refusal_line`; in-process it
    costs no interpreter and import start-up, about 1.5 CPU s a command.)"""
    invoke, _ = invokers(app)
    return assert_user_error(invoke(*args)).removeprefix("error: ")


def installed_refusal_line(*args) -> str:
    """:func:`refusal_line` of the installed ``quacks`` command in a process of its own."""
    import subprocess

    r = subprocess.run(["quacks", *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and r.stdout == "", r.stderr
    return lines[0].removeprefix("error: ")


def read_only_folder(where):
    """A folder nobody may write: ``where/read-only`` without write permission, or /sys when
    this runs as root (who writes where the permission bits forbid it). Give it write
    permission back (``chmod(0o755)``) before ``where`` is removed."""
    from pathlib import Path

    ro = Path(where) / "read-only"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        (ro / "probe").touch()
    except OSError:
        return ro
    (ro / "probe").unlink()
    return Path("/sys")
