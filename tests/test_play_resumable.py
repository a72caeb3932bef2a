"""``sim.questions.resumable.play_resumable``: the call ``sim.tournament`` and ``sim.sweep``
share. The arguments are checked first (a ValueError or OSError becomes the question's own
error), the kernel is warmed only when the games play here, the games play into the report
folder, and Ctrl-C there becomes the question's interrupt."""

from types import SimpleNamespace

import pytest

from sim.questions.resumable import ResumableSettings, play_resumable
from sim.questions.running import RUN_DEFAULTS


class Bad(ValueError):
    pass


class Stopped(KeyboardInterrupt):
    def __init__(self, out):
        super().__init__(str(out))
        self.out = out


def _call(tmp_path, *, settings=lambda saved: {"saved": saved}, play=None, backend="local",
          warmed=None, out=None, **kw):
    def default_play(s, target, be):
        target.mkdir(exist_ok=True)
        (target / "x.txt").write_text("x")
        return SimpleNamespace(files=["x.txt"], settings=s)

    return play_resumable(
        "test", Bad, ResumableSettings(out=out, games=10), {**RUN_DEFAULTS, "backend": backend},
        settings=settings,
        warm=lambda s: (warmed if warmed is not None else []).append(s),
        play=play or default_play, figures=lambda res: {}, **kw)


def test_a_bad_argument_is_the_questions_error_with_its_line(tmp_path):
    with pytest.raises(Bad, match="--games 0"):
        play_resumable("test", Bad, ResumableSettings(games=0), dict(RUN_DEFAULTS),
                       settings=None, warm=None, play=None, figures=None)

    def settings(saved):
        raise OSError("cannot read the strategy file")

    with pytest.raises(Bad, match="cannot read the strategy file") as e:
        _call(tmp_path, settings=settings)
    assert isinstance(e.value.__cause__, OSError)


def test_the_games_play_into_the_report_folder_after_the_warm_up(tmp_path):
    warmed = []
    rep = _call(tmp_path, out=tmp_path / "o", warmed=warmed)
    assert warmed == [{"saved": None}]
    assert rep.written == ["x.txt"] and (tmp_path / "o" / "x.txt").is_file()


def test_ctrl_c_in_the_games_is_the_questions_interrupt(tmp_path):
    def play(s, target, be):
        raise KeyboardInterrupt

    with pytest.raises(Stopped) as e:
        _call(tmp_path, out=tmp_path / "o", play=play, interrupted=Stopped)
    assert e.value.out == tmp_path / "o"
    with pytest.raises(KeyboardInterrupt):  # no interrupt of its own: Ctrl-C as it is
        _call(tmp_path, out=tmp_path / "o", play=play)
