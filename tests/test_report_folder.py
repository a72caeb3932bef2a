"""sim.questions.report.report_folder: where a report call writes, and the temporary folder
removed when the call fails."""

from pathlib import Path

import pytest

from sim.questions.report import report_folder


def test_out_is_the_folder_and_no_temporary(tmp_path):
    with report_folder("tournament", tmp_path / "out") as (target, tmp):
        pass
    assert target == tmp_path / "out" and tmp is None


def test_temporary_folder_kept_for_the_report():
    with report_folder("sweep", None) as (target, tmp):
        assert target.is_dir() and target.name.startswith("quacks-sweep-")
    assert Path(tmp.name) == target and target.is_dir()
    tmp.cleanup()


@pytest.mark.parametrize("error", [ValueError("bad"), KeyboardInterrupt()])
def test_temporary_folder_removed_when_the_call_fails(error):
    with pytest.raises(type(error)), report_folder("experiment", None) as (target, _tmp):
        (target / "part.csv").write_text("x\n")
        raise error
    assert not target.exists()


def test_out_left_in_place_when_the_call_fails(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ValueError), report_folder("tournament", out) as (target, _tmp):
        (target / "chunk").write_text("kept for resume")
        raise ValueError("interrupted")
    assert (out / "chunk").read_text() == "kept for resume"
