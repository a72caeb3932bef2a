"""sim.api.round_file.file_ruleset: one reading of a round or game file's ``rules``, ``set`` and
top-level keys, used by both kinds of file."""

import pytest

from sim.api.game_file import play_scripted_game
from sim.api.round_file import file_ruleset
from sim.api.round_script import RoundFileError


def test_rules_must_be_a_name_or_path_in_a_game_file_too():
    with pytest.raises(RoundFileError, match="g.toml: key 'rules': expected a ruleset name"):
        play_scripted_game({"players": 2, "rules": 5, "round": []}, "g.toml")


def test_unknown_top_level_key_named_with_the_keys_allowed():
    with pytest.raises(RoundFileError, match="x.toml: unknown key 'colour'; expected players"):
        file_ruleset({"colour": 1}, "x.toml", {"players", "rules"})


def test_one_override_or_a_list():
    one = file_ruleset({"set": "books.blue=2"}, "x.toml", {"set"})
    listed = file_ruleset({"set": ["books.blue=2"]}, "x.toml", {"set"})
    assert one.overrides == listed.overrides and len(one.overrides) == 1


def test_a_ruleset_file_beside_the_file(tmp_path):
    """``rules = "mine.toml"`` is the file beside the round or game file, wherever it runs."""
    from pathlib import Path

    import sim.rules

    base = Path(sim.rules.__file__).parent / "rulesets" / "base.toml"
    (tmp_path / "mine.toml").write_text(base.read_text())
    assert file_ruleset({"rules": "mine.toml"}, str(tmp_path / "g.toml"), {"rules"}).name == "base"
    with pytest.raises(RoundFileError, match="mine.toml"):  # not beside this one
        file_ruleset({"rules": "mine.toml"}, str(tmp_path / "elsewhere" / "g.toml"), {"rules"})
