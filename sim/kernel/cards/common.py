"""What the fortune-teller cards share: a player's answer to a card's choice, a card's gain of VP,
rubies or a droplet move, a chip it grants, the chips it looks at, and the kinds of its
``EV_CARD_GAIN`` events.

A card's functions run only when the round's card (``G[G_CARD]``) is that card (the generated
hook table, ``sim.kernel.cards.hooks``), so the helpers here take the card's number from there: a
card's module names its number once, in its declaration.

A chip a card grants goes into the bag at once, and only if its book is out and the supply has
one: ``grant_chip``, in ``sim.kernel.cards.grant`` (it calls the books' generated ``chip_bought``;
nothing here does, so the cards that grant no chip are compiled once for every user's books).
"""

from __future__ import annotations

from sim.kernel.bag import draw_chip, return_looked
from sim.kernel.decisions.choices import card_answer, card_slot_answers
from sim.kernel.droplet import move_droplet
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    CARD_LOOK,
    EV_CARD_GAIN,
    EV_CARD_LOOK,
    F_NBAG,
    F_RUBIES,
    F_SCORE,
    G_CARD,
    G_NP,
)
from sim.rules.card_numbers import TAKE_OTHER, gain_number

# card answer: rubies (You Only Get to Choose One) / VP (Rats Are Your Friends)
TAKE_RUBIES = TAKE_OTHER
# EV_CARD_GAIN kinds (declared in sim.rules.card_numbers.CARD_GAINS)
GAIN_RATS_DOUBLED = gain_number("rats_doubled")
GAIN_VP = gain_number("vp")
GAIN_RUBY = gain_number("rubies")
GAIN_DROPLET = gain_number("droplet")
GAIN_CHIP = gain_number("chip")
GAIN_REMOVE = gain_number("chip_removed")
GAIN_FLASK = gain_number("flask")
GAIN_RESTART = gain_number("restart")
GAIN_PENNY_GIVEN = gain_number("penny_given")  # b = the witch group
GAIN_PENNY_BACK = gain_number("penny_back")  # b = the witch group


@kernel(inline=True)
def gain(P, s, G, E, kind, amount):
    """Apply a card's VP, ruby or droplet gain to seat s and record it."""
    if kind == GAIN_VP:
        P[s, F_SCORE] += amount
    elif kind == GAIN_RUBY:
        P[s, F_RUBIES] += amount
    elif kind == GAIN_DROPLET:
        move_droplet(P, s, amount)
    card_event(E, G, s, kind, amount)


@kernel(inline=True)
def card_event(E, G, s, kind, b):
    """Record the round's card's ``EV_CARD_GAIN`` event of ``kind`` (a ``GAIN_*``) for seat s
    (-1: every seat), with the kind's value ``b``."""
    record(E, G, s, EV_CARD_GAIN, kind, b, G[G_CARD])


@kernel(inline=True)
def answer(P, s, arg, built_in, G, R, SK, SP, SC, rng, UF):
    """Seat s's answer to the round's card's choice with argument ``arg``: the scripted or
    strategy answer (``card_answer``), else ``built_in`` (the card's ``default(P, s, arg, G,
    R)``, which reads and changes nothing)."""
    if not card_slot_answers(SK, s):  # the built-in answer, without a call passing 11 arrays
        return built_in
    ok, a = card_answer(P, s, G[G_CARD], arg, G, R, SK, SP, SC, rng, UF)
    return a if ok else built_in


@kernel
def look(P, s, m, FD, rng, E, G):
    """Draw up to m chips into CARD_LOOK (out of the bag); return how many."""
    k = min(m, P[s, F_NBAG], 5)
    for i in range(k):
        t = draw_chip(P, s, FD, rng)
        if t < 0:
            return i
        P[s, CARD_LOOK + i] = t
        record(E, G, s, EV_CARD_LOOK, t, 0, 0)
    return k


@kernel(inline=True)
def looked_at(P, s, m, t):
    """Where chip type t lies among the m chips a card looked at (``CARD_LOOK``; the last of
    them if more than one), -1 if it is not among them."""
    pick = -1
    for i in range(m):
        if P[s, CARD_LOOK + i] == t:
            pick = i
    return pick


@kernel
def put_back(P, s, k):
    """Return the k chips a card just looked at (``look``, nothing out of the bag since) to the
    bag, in one pass (``return_looked``)."""
    return_looked(P, s, P[s, CARD_LOOK : CARD_LOOK + k], k, -1)


@kernel
def fewest(P, G, field):
    """The smallest value of a player field among the seats."""
    m = P[0, field]
    for s in range(1, G[G_NP]):
        m = min(m, P[s, field])
    return m
