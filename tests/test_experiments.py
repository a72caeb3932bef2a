"""Every shipped experiment runs end to end on a small game count and writes its report; the
same file and seed give the same tables; the CLI refuses malformed files with exit 2."""


import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers
from experiment_checks import (
    NOTEBOOK_GAMES,
    check_report_folder,
    notebook_experiments,
    notebooks_run,
)

from sim.cli.main import app
from sim.study.experiments.file import find_experiment, load_experiment, shipped_experiments
from sim.study.experiments.parts import best_other, gap_table
from sim.study.experiments.run import run_experiment

invoke, ok = invokers(app)

SHIPPED = shipped_experiments()
# the experiments a notebook runs (sim.experiment, the same games and seed): test_notebooks.py
# checks their report folders with check_report_folder, so they are not run twice
IN_NOTEBOOKS = notebook_experiments() if notebooks_run() else {}
RUN_HERE = [p for p in SHIPPED if p.stem not in IN_NOTEBOOKS]


def test_the_experiments_left_to_the_notebooks_are_shipped_ones():
    """(A notebook's experiment not shipped would be run by nobody here.)"""
    assert set(notebook_experiments()) <= {p.stem for p in SHIPPED}


@pytest.mark.parametrize("path", RUN_HERE, ids=[p.stem for p in RUN_HERE])
def test_shipped_experiment_runs_end_to_end(path, tmp_path):
    exp = load_experiment(path)
    res = run_experiment(exp, tmp_path / "out", games=NOTEBOOK_GAMES)
    check_report_folder(exp, tmp_path / "out", res)


def test_same_seed_same_tables(tmp_path):
    exp = load_experiment(find_experiment("seat-advantage"))
    a = run_experiment(exp, tmp_path / "a", games=200)
    b = run_experiment(exp, tmp_path / "b", games=200)
    for pa, pb in zip(a.parts, b.parts):
        for name in pa.tables:
            pd.testing.assert_frame_equal(pa.tables[name], pb.tables[name])
    exp.seed = 2
    c = run_experiment(exp, tmp_path / "c", games=200)
    assert not c.parts[0].tables["seats"]["win_share"].equals(
        a.parts[0].tables["seats"]["win_share"])


def test_best_other_and_gap_bins_by_hand():
    import numpy as np

    game = np.array([0, 0, 0, 1, 1])
    score = np.array([10, 20, 20, 7, 3])
    assert best_other(game, score).tolist() == [20, 20, 20, 3, 7]
    games = pd.DataFrame({"game": [0, 0, 0, 1, 1], "deal": [0, 0, 0, 1, 1], "seat": [0, 1, 2, 0, 1],
                          "win_share": [0.0, 0.5, 0.5, 1.0, 0.0]})
    rounds = pd.DataFrame({"game": [0, 0, 0, 1, 1], "round": [3] * 5, "seat": [0, 1, 2, 0, 1],
                           "score": score})
    t = gap_table(games, rounds, 3, [-5, 0, 1, 5]).set_index("gap")
    # gaps: -10, 0, 0 (game 0); +4, -4 (game 1)
    assert t.loc["< -5", "rows"] == 1 and t.loc["< -5", "win_share"] == 0.0
    assert t.loc["0", "rows"] == 2 and t.loc["0", "win_share"] == 0.5
    assert t.loc["1..4", "rows"] == 1 and t.loc["1..4", "win_share"] == 1.0
    assert t.loc["-5..-1", "rows"] == 1 and t.loc["-5..-1", "win_share"] == 0.0
    assert t.loc[">= 5", "rows"] == 0


def test_cli_list_and_bad_files(tmp_path):
    r = ok("experiment", "list")
    for p in SHIPPED:
        assert p.stem in r.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[experiment]\ntitle = "x"\n\n[[part]]\nkind = "seats"\nname = "a"\n'
                   'strategy = "balanced"\nplayer_count = [2]\n')
    r = invoke("experiment", "run", bad, "--out", tmp_path / "o")
    assert_user_error(r, "unknown key 'player_count'", "part 1 (seats)")
    assert not (tmp_path / "o").exists()
    assert_user_error(invoke("experiment", "run", "no-such-experiment"), "not found")
    assert_user_error(invoke("experiment", "run", bad, "--games", "0"), "--games 0")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    good = tmp_path / "good.toml"
    good.write_text(bad.read_text().replace("player_count", "player_counts"))
    r = invoke("experiment", "run", good, "--out", tmp_path / "busy", "--games", "40")
    assert_user_error(r, "not an experiment report")
    assert (tmp_path / "busy" / "keep.txt").read_text() == "mine"
    r = ok("experiment", "run", good, "--out", tmp_path / "ok", "--games", "40", "--json")
    assert '"parts"' in r.stdout
    assert (tmp_path / "ok" / "a" / "seats.parquet").is_file()
