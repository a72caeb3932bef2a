"""``sim.kernel.decisions.choices.next_value_type``: the next-higher chip of a colour (An
Opportunistic Moment's upgrade), read from a table built once from the chip types."""

from __future__ import annotations

from sim.kernel.decisions.choices import NEXT_VALUE, next_value_type
from sim.rules.chips import (
    B1,
    B2,
    B4,
    BLACK,
    G1,
    G2,
    G4,
    LOCOWEED,
    N_TYPES,
    O1,
    O6,
    PURPLE,
    W1,
    W2,
    W3,
    chip_type,
)


def test_next_higher_chip_of_the_colour_or_none():
    assert [next_value_type(t) for t in (W1, W2, W3)] == [W2, W3, -1]
    assert [next_value_type(t) for t in (G1, G2, G4)] == [G2, G4, -1]
    assert [next_value_type(t) for t in (B1, B2, B4)] == [B2, B4, -1]
    assert next_value_type(O1) == next_value_type(O6) == -1  # orange 1 -> 6 is no upgrade
    for colour in (PURPLE, BLACK, LOCOWEED):
        assert next_value_type(chip_type(colour, 1)) == -1
    assert [next_value_type(t) for t in range(N_TYPES)] == NEXT_VALUE.tolist()
