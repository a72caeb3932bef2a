"""The behaviour descriptors of ``quacks styles``, declared once: each one's name, what it
measures and the range the map's grid spans (values outside it land in the edge cells). What
the games give for each is ``sim.study.styles.measures``. This module imports nothing of the
simulation: the command line's help lists the names."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Descriptor:
    """A behaviour descriptor: ``name``, a ``label`` for plots and tables, the grid's range."""

    name: str
    label: str
    lo: float
    hi: float


# in the order of the columns of sim.study.styles.measures.game_measures (after the win share)
DESCRIPTORS = (
    Descriptor("explosion_rate", "pots exploded (share of its potions)", 0.0, 0.6),
    Descriptor("white_at_stop", "white total of a potion it stopped", 5.0, 7.5),
    Descriptor("droplet", "droplet position at the end", 0.0, 14.0),
    Descriptor("chips_bought", "chips bought in the game", 8.0, 18.0),
    Descriptor("cheap_share", "share of chips bought that are orange or green", 0.0, 0.6),
)
BY_NAME = {d.name: d for d in DESCRIPTORS}
DEFAULT_DESCRIPTORS = ("explosion_rate", "droplet")
