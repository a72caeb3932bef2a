"""The bonus die."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.droplet import move_droplet
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_DIE, F_RUBIES, F_SCORE, G_DIE_N, G_DIE_PTR
from sim.kernel.records import GERR_DIE_SHORT, game_error
from sim.kernel.rng import DIE_STREAM, randint
from sim.rules.chips import O1

FACE_VP1, FACE_VP2, FACE_RUBY, FACE_DROPLET, FACE_PUMPKIN = 0, 1, 2, 3, 4


@kernel
def roll_die(P, s, G, die, DS, supply, rng, E):
    """Roll the bonus die for seat s (a scripted face if a die script is set) and apply it."""
    if G[G_DIE_N] != 0:  # scripted faces (-1: scripted, but none given)
        if G[G_DIE_PTR] >= max(G[G_DIE_N], 0):
            game_error(G, GERR_DIE_SHORT, s, 0)
            return
        face = DS[G[G_DIE_PTR]]
        G[G_DIE_PTR] += 1
    else:
        face = die[randint(rng, DIE_STREAM + s, die.shape[0])]
    record(E, G, s, EV_DIE, face, 0, 0)
    if face == FACE_VP1:
        P[s, F_SCORE] += 1
    elif face == FACE_VP2:
        P[s, F_SCORE] += 2
    elif face == FACE_RUBY:
        P[s, F_RUBIES] += 1
    elif face == FACE_DROPLET:
        move_droplet(P, s, 1)
    elif face == FACE_PUMPKIN:
        if supply[O1] > 0 and add_chip(P, s, O1):
            supply[O1] -= 1
