"""``sim.cli.run_support.ask_guarded``: how ``quacks compare`` and ``balance`` call their
question. Before the games start a settings error is one line with exit status 2 and Ctrl-C is
left to the command group; once they run, only the errors named ``later`` are the user's (any
other keeps its traceback) and Ctrl-C writes nothing (exit status 130)."""

from contextlib import nullcontext

import pytest
import typer

from sim.cli.run_support import ask_guarded


def _ask(error: BaseException | None, *, start: bool):
    """A question that starts its games (its first progress call) or not, then raises."""
    def ask(bar):
        if start:
            bar(0, 10)
        if error is not None:
            raise error
        return "answer"

    return ask


def _call(ask):
    return ask_guarded(ask, nullcontext, errors=(ValueError, OSError), later=(OSError,))


def test_the_answer_is_returned():
    assert _call(_ask(None, start=True)) == "answer"


@pytest.mark.parametrize("start", [False, True])
def test_a_settings_error_before_the_games_and_a_later_one_are_one_line(capsys, start):
    error = OSError("disk full") if start else ValueError("--games 0: expected 1 to 10")
    with pytest.raises(typer.Exit) as e:
        _call(_ask(error, start=start))
    assert e.value.exit_code == 2
    assert capsys.readouterr().err == f"error: {error}\n"


def test_another_error_once_the_games_run_keeps_its_traceback():
    with pytest.raises(ValueError, match="a bug"):
        _call(_ask(ValueError("a bug"), start=True))


def test_ctrl_c_before_the_games_is_the_command_groups_and_after_them_exit_130(capsys):
    with pytest.raises(KeyboardInterrupt):
        _call(_ask(KeyboardInterrupt(), start=False))
    with pytest.raises(typer.Exit) as e:
        _call(_ask(KeyboardInterrupt(), start=True))
    assert e.value.exit_code == 130
    assert capsys.readouterr().err == "interrupted: nothing written\n"


def test_an_exit_passes_through():
    with pytest.raises(typer.Exit) as e:
        _call(_ask(typer.Exit(3), start=False))
    assert e.value.exit_code == 3
