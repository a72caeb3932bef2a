"""The books' round-file state keys (``beside``: red Set 2, ``first``: green Set 5), declared by
their books (``state_key``) and read by their ``read_state``: the same values, messages and arrays
as when the round file read them by name (no kernel is played here)."""

from __future__ import annotations

import pytest

from sim.api.round_file import prepare_round_data
from sim.api.round_script import RoundFileError
from sim.kernel import layout as L
from sim.rules import chips


def _prepare(seat: dict, sets=()):
    d = {"players": 2, "round": 1, "set": list(sets), "player": [seat, {"bag": "o1"}]}
    return prepare_round_data(d, "t.toml")


def test_beside_is_in_the_bag_and_counted_aside_whatever_the_red_book():
    for sets in ((), ("books.red=2",)):  # accepted with red Set 1 too, as it always was
        pr = _prepare({"bag": "o1,w1", "beside": "r2,r1x2"}, sets)
        P = pr.P
        assert list(P[0, L.CHIPS:L.CHIPS + P[0, L.F_NCHIPS]]) == [
            chips.parse_chips(x)[0] for x in ("o1", "w1", "r2", "r1", "r1")]
        assert list(P[0, L.ASIDE:L.ASIDE + 3]) == [2, 1, 0]


def test_first_is_placed_first():
    pr = _prepare({"bag": "r4,g2,o1", "first": "g2,r4"}, ["books.green=5"])
    assert pr.P[0, L.F_NFIRST] == 2
    assert list(pr.P[0, L.FIRST_T:L.FIRST_T + 2]) == chips.parse_chips("g2,r4")


@pytest.mark.parametrize("seat, message", [
    ({"bag": "o1", "beside": "g1"},
     "t.toml: seat 0: key 'beside': only red chips wait beside the pot (red Set 2)"),
    ({"bag": "o1x60", "beside": "r1x3"}, "t.toml: seat 0: bag and beside hold more than 62 chips"),
    ({"bag": "o1,r4", "first": "r4,o1,o1"},
     "t.toml: seat 0: key 'first': at most 2 chips of the bag, placed first (picked by green "
     "Set 5 chips last round)"),
    ({"bag": "o1", "first": "r4"},
     "t.toml: seat 0: key 'first': at most 2 chips of the bag, placed first (picked by green "
     "Set 5 chips last round)"),
])
def test_the_state_keys_messages(seat, message):
    with pytest.raises(RoundFileError) as e:
        _prepare(seat, ["books.green=5"])
    assert str(e.value) == message
