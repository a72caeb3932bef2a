"""The random streams of a game (``sim.kernel.rng``) as the study layer sees them: one block
of streams per source of randomness, for designs that share some sources between games
(``quacks luck``)."""

from sim.kernel.rng import (
    BAG_STREAM,
    CHOICE_STREAM,
    DECK_STREAM,
    DIE_STREAM,
    N_STREAMS,
    WITCH_STREAM,
)

__all__ = ["BAG_STREAM", "CHOICE_STREAM", "DECK_STREAM", "DIE_STREAM", "N_STREAMS",
           "WITCH_STREAM"]
