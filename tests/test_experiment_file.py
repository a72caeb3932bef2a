"""Experiment files: every shipped file is valid, and a malformed file names the key at fault."""

import pytest
from experiment_texts import seats_experiment, write_experiment

from sim.study.experiments.file import (
    ExperimentFileError,
    find_experiment,
    load_experiment,
    shipped_experiments,
)

SHIPPED = {"stop-thresholds", "ingredient-value", "set-balance", "catch-up", "seat-advantage"}

GOOD = seats_experiment(title="t", seed=3, games=100, strategy="balanced")


def test_the_shipped_experiments_are_all_there_and_valid():
    names = {p.stem for p in shipped_experiments()}
    assert SHIPPED <= names
    for p in shipped_experiments():
        e = load_experiment(p)
        assert e.parts and e.title


def test_find_by_name_or_path(tmp_path):
    assert find_experiment("catch-up").name == "catch-up.toml"
    p = write_experiment(tmp_path, GOOD)
    assert find_experiment(str(p)) == p


def test_a_good_file_fills_defaults(tmp_path):
    e = load_experiment(write_experiment(tmp_path, GOOD))
    assert (e.seed, e.games, e.rules, e.players) == (3, 100, "base", 4)
    part = e.parts[0]
    assert part["kind"] == "seats" and part["player_counts"] == [2, 3]
    assert part["games"] is None and part["set"] == []


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda s: s.replace('strategy = "balanced"', 'stratgy = "balanced"'), "unknown key 'stratgy'"),
    (lambda s: s.replace('strategy = "balanced"\n', ""), "missing key 'strategy'"),
    (lambda s: s.replace('kind = "seats"', 'kind = "seat"'), "key 'kind' must be one of"),
    (lambda s: s.replace("seed = 3", 'seed = "3"'), "key 'seed' must be an integer"),
    (lambda s: s.replace("player_counts = [2, 3]", 'player_counts = ["2"]'),
     "key 'player_counts' must be a list of integers"),
    (lambda s: s.replace('title = "t"\n', ""), "missing key 'title'"),
    (lambda s: s.replace('name = "mirror"', 'name = "a/b"'), "key 'name' must be"),
    (lambda s: s.replace("games = 100", "games = 0"), "[experiment]: games = 0: expected 1 to"),
    (lambda s: s + '\n[extra]\nx = 1\n', "unknown table 'extra'"),
    (lambda s: s.split("[[part]]")[0], "no [[part]] table"),
    (lambda s: s.replace("[experiment]", "[experiment\n"), "not valid TOML"),
])
def test_a_malformed_file_names_the_key(tmp_path, edit, needle):
    text = edit(GOOD)
    with pytest.raises(ExperimentFileError, match=needle.replace("[", r"\[").replace("]", r"\]")):
        load_experiment(write_experiment(tmp_path, text))


def test_part_names_are_unique(tmp_path):
    text = GOOD + "\n[[part]]" + GOOD.split("[[part]]")[1]
    with pytest.raises(ExperimentFileError, match="two parts are named 'mirror'"):
        load_experiment(write_experiment(tmp_path, text))


def test_compare_needs_two_variants(tmp_path):
    text = GOOD.replace('kind = "seats"', 'kind = "compare"').replace(
        'strategy = "balanced"\nplayer_counts = [2, 3]',
        'strategies = ["balanced"]\nvariants = [{ label = "a" }]')
    with pytest.raises(ExperimentFileError, match="at least two rulesets"):
        load_experiment(write_experiment(tmp_path, text))
    bad = text.replace('{ label = "a" }', '{ label = "a" }, { lable = "b" }')
    with pytest.raises(ExperimentFileError, match=r"variants\[1\]: unknown key 'lable'"):
        load_experiment(write_experiment(tmp_path, bad))


def test_missing_file():
    with pytest.raises(ExperimentFileError, match="not found"):
        load_experiment("no/such/file.toml")
