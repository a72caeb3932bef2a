"""The run keywords (threads, strategy_file, backend, ... argv) declared once
(``sim.questions.running.RunOptions``) and taken by ``**run`` still read, for a user, as
keywords of each question: ``help()`` and ``inspect`` list each with its default, and an
unknown or positional argument is a TypeError as before."""

import inspect
import pydoc

import pytest

import sim
from sim.questions.running import RUN_DEFAULTS, RunOptions

QUESTIONS = ("tournament", "sweep", "design", "sensitivity", "exploit", "styles")


@pytest.mark.parametrize("name", QUESTIONS)
def test_each_run_keyword_is_in_the_signature_with_its_default(name):
    params = inspect.signature(getattr(sim, name)).parameters
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    for key in RunOptions.__annotations__:
        assert params[key].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[key].default == RUN_DEFAULTS[key]
    assert params["backend"].default == "local"
    text = pydoc.render_doc(getattr(sim, name), renderer=pydoc.plaintext)
    assert "backend: 'str' = 'local'" in text and "argv:" in text and "**run" not in text


@pytest.mark.parametrize("name", QUESTIONS)
def test_unknown_or_positional_arguments_are_type_errors(name):
    with pytest.raises(TypeError, match="bogus"):
        getattr(sim, name)(bogus=1)
    with pytest.raises(TypeError):
        getattr(sim, name)("base")


def test_a_run_keyword_reaches_the_checks():
    """``workers`` (a run keyword) is checked with the question's own integers."""
    with pytest.raises(ValueError, match="--workers 0"):
        sim.exploit(workers=0)
    with pytest.raises(ValueError, match="--threads 0"):
        sim.styles(threads=0)
