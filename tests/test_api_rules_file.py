"""``rules_file=`` in the Python API: every question that has the CLI's ``--rules-file`` takes it
and loads the files first, through one helper (``sim.questions.ask_rules.load_rules_files``), so
a bad file is the rules layer's one-line ValueError naming it."""

import pytest

import sim

MISSING = "/nonexistent/h_card.py"


@pytest.mark.parametrize("call", [
    lambda: sim.potion(rules_file=[MISSING]),
    lambda: sim.play(rules_file=MISSING, games=0),  # loaded before the arguments are checked
    lambda: sim.tournament(rules_file=[MISSING], games=0),  # through RunOptions (run_options)
    lambda: sim.exploit(rules_file=[MISSING], workers=0),
    lambda: sim.luck(rules_file=[MISSING], games=0),
])
def test_a_missing_rules_file_is_a_value_error_naming_it(call):
    with pytest.raises(ValueError, match=f"--rules-file {MISSING}"):
        call()


def test_a_file_that_is_not_python_is_refused_before_the_question_runs(tmp_path):
    p = tmp_path / "card.txt"
    p.write_text("x = 1\n")
    with pytest.raises(ValueError, match="not a Python file"):
        sim.thresholds(rules_file=str(p), n=0)


def test_a_rules_file_after_the_first_game_is_refused_naming_it():
    """In a fresh process (a card loaded here would stay in the test process): one game played,
    then ``rules_file`` is the rules layer's refusal, a ValueError naming the file."""
    import subprocess
    import sys
    from pathlib import Path

    card = Path(__file__).resolve().parent.parent / "experiments" / "rules" / "lucky_clover.py"
    code = ("import sim\nsim.play(games=2, players=2)\ntry:\n"
            f"    sim.play(rules_file={str(card)!r}, games=2, players=2)\n"
            "except ValueError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=600).stdout
    assert str(card) in out and "must be loaded before the first game" in out
