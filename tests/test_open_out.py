"""``sim.study.reports.files.open_out``: the first step of a tournament's and a sweep's report
folder. A new or empty folder is free; one holding files is refused without --force or
--resume; --force removes a previous report's files (and the sweep's value folders) and keeps
anything else; --resume leaves every file for the caller to check."""

import pytest

from sim.study.reports.files import RUN_FILE, STATE_FILE, open_out
from sim.study.reports.schema import ReportError


def _folder(tmp_path):
    p = tmp_path / "out"
    p.mkdir()
    for name in (RUN_FILE, "notes.txt"):
        (p / name).write_text("{}")
    (p / "t=4").mkdir()
    return p


def test_a_new_or_empty_folder_is_free(tmp_path):
    assert open_out(tmp_path / "new", resume=False, force=False, state_file=STATE_FILE) is False
    assert open_out(tmp_path, resume=True, force=False, state_file=STATE_FILE) is False


def test_a_folder_holding_files_needs_force_or_resume(tmp_path):
    p = _folder(tmp_path)
    with pytest.raises(ReportError, match="is not empty; use --force"):
        open_out(p, resume=False, force=False, state_file=STATE_FILE)
    (p / STATE_FILE).write_text("{}")
    with pytest.raises(ReportError, match="holds an interrupted sweep; add --resume"):
        open_out(p, resume=False, force=False, state_file=STATE_FILE, what="sweep")


def test_resume_leaves_everything_for_the_caller(tmp_path):
    p = _folder(tmp_path)
    assert open_out(p, resume=True, force=False, state_file=STATE_FILE) is True
    assert sorted(x.name for x in p.iterdir()) == sorted([RUN_FILE, "notes.txt", "t=4"])


def test_force_removes_the_previous_report_and_keeps_the_rest(tmp_path):
    p = _folder(tmp_path)
    assert open_out(p, resume=False, force=True, state_file=STATE_FILE,
                    extra_dirs=["t=4"]) is False
    assert [x.name for x in p.iterdir()] == ["notes.txt"]
