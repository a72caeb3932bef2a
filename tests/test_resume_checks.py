"""sim.questions.resumable.resume_checks: the first checks of a resumable run (tournament,
sweep), one line each with the option named, and the settings an interrupted run saved."""

import json

import pytest

from sim.questions.resumable import resume_checks


class Bad(ValueError):
    pass


def check(**kw):
    args = {"out": None, "threads": None, "resume": False, "force": False}
    return resume_checks(Bad, **{**args, **kw})


@pytest.mark.parametrize("kw, line", [
    ({"games": 0, "resume": True, "force": True}, "--games 0"),  # the integers first
    ({"out": " "}, "--out '': empty"),
    ({"out": "x", "resume": True, "force": True}, "--resume and --force: give one"),
    ({"resume": True, "what": "sweep"}, "--resume needs --out DIR, the directory of the "
                                        "interrupted sweep"),
])
def test_each_bad_argument_is_one_line(kw, line):
    with pytest.raises(Bad, match=line.replace("[", r"\[")):
        check(**kw)


def test_nothing_to_resume(tmp_path):
    with pytest.raises(Bad, match=f"nothing to resume in {tmp_path}"):
        check(out=tmp_path, resume=True)


def test_fresh_run_has_no_saved_settings(tmp_path):
    assert check(out=tmp_path, games=10, players=3) is None


def test_resume_returns_the_saved_settings(tmp_path):
    from sim.study.reports.files import STATE_FILE

    (tmp_path / STATE_FILE).write_text(json.dumps({"settings": {"seed": 7, "games": 90}}))
    saved = check(out=tmp_path, resume=True)
    assert saved["seed"] == 7 and saved["games"] == 90
