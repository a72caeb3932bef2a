"""Issue 43, ``quacks train`` and model files: ``--out`` is checked before any game (one line,
exit 2, nothing left behind), an existing model file needs ``--force``, the counts have ranges
that ``--help`` and the errors name, ``--resume`` with nothing kept says so, and a model trained
for another ruleset plays with a one-line note."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app
from sim.rules.ruleset import load_ruleset
from sim.study.train import run as R
from sim.study.train.limits import MAX_GAMES, MAX_ITERATIONS
from strategies.value_model_file import load_model, resolve

invoke, ok = invokers(app)
SMALL = ("--players", "2", "--games", "60", "--iterations", "1", "--quiet")


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: the checks must come first."""
    def boom(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(R, "play_positions", boom)


def _left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir())


# ---------------------------------------------------------------------------------------------
# 1. --out is checked before any game


@pytest.mark.parametrize(("out", "says"), [
    ("", "--out"),  # (the command group may refuse an empty path itself)
    ("adir", "--out adir: is a directory"),
    ("afile/m.json", "afile is a file, not a directory"),
    ("/proc/quacks-m.json", "--out /proc/quacks-m.json: the run folder"),
    ("/dev/null", "--out /dev/null: exists and is not a regular file"),
])
def test_a_bad_out_is_one_line_before_any_game(tmp_path, monkeypatch, no_games, out, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("x")
    assert_user_error(invoke("train", "--out", out, *SMALL), says)
    assert _left(tmp_path) == ["adir", "afile"]  # no .train, adir.train or afile/ folders
    assert list((tmp_path / "adir").iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_folder_is_one_line_before_any_game(tmp_path, no_games):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert_user_error(invoke("train", "--out", ro / "m.json", *SMALL),
                          f"--out {ro / 'm.json'}", "cannot write there")
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o700)


def test_missing_folders_are_made_only_for_the_run(tmp_path):
    out = tmp_path / "new" / "sub" / "m.json"
    ok("train", "--out", out, *SMALL)
    assert load_model(out).players == 2 and (out.parent / "m.json.train").is_dir()


# ---------------------------------------------------------------------------------------------
# 2. an existing model file needs --force; --resume keeps working


def test_an_existing_model_file_is_refused_without_force(tmp_path, no_games):
    out = tmp_path / "m.json"
    out.write_text("mine")
    assert_user_error(invoke("train", "--out", out, *SMALL), f"--out {out}: the file exists",
                      "--force")
    assert out.read_text() == "mine" and _left(tmp_path) == ["m.json"]


def test_force_overwrites_and_starts_a_kept_run_over(tmp_path):
    fresh = tmp_path / "fresh.json"
    ok("train", "--out", fresh, *SMALL)
    out = tmp_path / "m.json"
    out.write_text("mine")
    ok("train", "--out", out, *SMALL, "--seed", "9", "--force")  # another run kept in m.json.train
    assert out.read_text() != fresh.read_text()
    r = invoke("train", "--out", out, *SMALL)  # the kept run needs --resume or --force
    assert_user_error(r, "m.json.train holds a training run", "--resume", "--force")
    ok("train", "--out", out, *SMALL, "--force")  # starts over with these settings
    assert out.read_text() == fresh.read_text()  # the same settings give the same file
    assert sorted(p.name for p in (tmp_path / "m.json.train").iterdir()) == \
        ["iter-0.json", "settings.json"]


def test_resume_rewrites_a_finished_run_without_force(tmp_path):
    out = tmp_path / "m.json"
    ok("train", "--out", out, *SMALL)
    first = out.read_text()
    out.write_text("changed")
    r = ok("train", "--out", out, *SMALL[:-1], "--resume")
    assert "iteration 0: done before" in r.stderr and out.read_text() == first


def test_resume_and_force_together_are_refused(tmp_path, no_games):
    assert_user_error(invoke("train", "--out", tmp_path / "m.json", *SMALL, "--resume",
                             "--force"), "--resume", "--force", "give one")
    assert _left(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# 3. the counts' ranges


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--iterations", "-1", f"--iterations -1: expected 1 to {MAX_ITERATIONS}"),
    ("--iterations", "0", f"--iterations 0: expected 1 to {MAX_ITERATIONS}"),
    ("--iterations", str(MAX_ITERATIONS + 1), f"expected 1 to {MAX_ITERATIONS}"),
    ("--games", "0", f"--games 0: expected 1 to {MAX_GAMES}"),
    ("--games", str(MAX_GAMES + 1), f"expected 1 to {MAX_GAMES}"),
    ("--explore", "1.5", "--explore 1.5: expected 0 to 1"),
    ("--explore", "nan", "--explore nan: expected 0 to 1"),
    ("--players", "6", "--players 6: expected 1 to 5"),
    ("--players", "1", "--players 1: this ruleset plays 2 to 4 players"),
])
def test_the_counts_have_ranges(tmp_path, no_games, option, value, says):
    args = [a for a in ("--out", tmp_path / "m.json", *SMALL) if a != "--quiet"]
    i = args.index(option) if option in args else len(args)
    args[i:i + 2] = [option, value]
    assert_user_error(invoke("train", *args), says)
    assert _left(tmp_path) == []


def test_the_help_names_the_ranges():
    r = ok("train", "--help")
    text = " ".join(r.stdout.split())
    assert f"1<=x<={MAX_ITERATIONS}" in text and f"1<=x<={MAX_GAMES}" in text
    assert "Chance (0 to 1)" in text and "--force" in text


def test_the_library_checks_the_same_ranges(tmp_path, no_games):
    with pytest.raises(R.TrainError, match=f"expected 1 to {MAX_ITERATIONS}"):
        R.train(R.TrainSettings(players=2, games=60, iterations=MAX_ITERATIONS + 1),
                tmp_path / "m.json")
    assert _left(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# 4. --resume with nothing to resume


@pytest.mark.parametrize("model_there", [False, True])
def test_resume_with_nothing_kept_says_so(tmp_path, no_games, model_there):
    out = tmp_path / "m.json"
    if model_there:
        out.write_text("mine")
    assert_user_error(invoke("train", "--out", out, *SMALL, "--resume"),
                      f"nothing to resume in {tmp_path / 'm.json.train'}")
    assert _left(tmp_path) == (["m.json"] if model_there else [])


# ---------------------------------------------------------------------------------------------
# 5. a model for another ruleset plays with a note


@pytest.fixture(scope="module")
def base_2p(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("model") / "base-2p.json"
    R.train(R.TrainSettings(players=2, games=60, iterations=1), out)
    return out


@pytest.mark.parametrize(("rules", "sets", "players", "note"), [
    ("base", [], 2, None),
    ("herb-witches", [], 2, "was trained for base; playing herb-witches"),
    ("base", ["game.rounds=7"], 2, "was trained for base; playing base + game.rounds=7"),
    ("base", [], 3, "was trained for 2 players; playing 3"),
    ("herb-witches", [], 3, "was trained for base, 2 players; playing herb-witches, 3 players"),
])
def test_a_model_for_another_ruleset_gets_a_note(base_2p, rules, sets, players, note):
    _, said = resolve(str(base_2p), load_ruleset(rules, sets), players)
    if note is None:
        assert said is None
    else:
        assert said == f"master: model {base_2p} {note}"


def test_the_overrides_a_model_was_trained_with_are_its_ruleset(tmp_path):
    out = tmp_path / "r7.json"
    r = ok("train", "--out", out, "--set", "game.rounds=7", *SMALL[:-1], "--iterations", "2")
    assert "was trained for" not in r.stderr  # iteration 1 plays iteration 0's model: no note
    _, same = resolve(str(out), load_ruleset("base", ["game.rounds=7"]), 2)
    _, other = resolve(str(out), load_ruleset("base"), 2)
    assert same is None
    assert other == f"master: model {out} was trained for base + game.rounds=7; playing base"


def test_the_note_is_one_line_on_stderr_and_the_game_plays(base_2p, tmp_path):
    copy = tmp_path / "hw.json"  # a path of its own: each note is shown once a process
    copy.write_text(base_2p.read_text())
    r = ok("play", "--strategies", f"master:model={copy},expert", "--rules", "herb-witches",
           "--games", "20")
    notes = [ln for ln in r.stderr.splitlines() if "was trained for" in ln]
    assert notes == [f"master: model {copy} was trained for base; playing herb-witches"]


# ---------------------------------------------------------------------------------------------
# 6. progress: one counter for the plain and the net runs (play_positions counts the games)


@pytest.mark.parametrize("value", ["gap", "net"])
def test_progress_counts_each_iterations_games_piece_by_piece(monkeypatch, tmp_path, value):
    """``progress(iteration, games done, games)`` after every piece of games, from
    ``play_positions`` itself (the plain run and the net cycles hand the run's hook on; the
    net's head-to-head games are not counted)."""
    monkeypatch.setattr(R, "PIECE", 25)
    calls = []
    R.train(R.TrainSettings(players=2, games=60, iterations=2, value=value), tmp_path / "m.json",
            progress=lambda it, done, total: calls.append((it, done, total)))
    assert calls == [(0, 25, 60), (0, 50, 60), (0, 60, 60), (1, 25, 60), (1, 50, 60),
                     (1, 60, 60)]
