"""The potion phase for one player: draw, place, chip effects, flask, explosion.

``potion_step`` draws and resolves one chip (a blue chip's look-and-place included); the caller
asks the strategy between steps whether to draw again, so the same step serves independent,
synchronized and sequential brewing, and the scripted scenarios of the tests and ``quacks round``.
Book effects are called through the book hook table ``sim.kernel.books.hooks``.
"""

from __future__ import annotations

from sim.kernel.bag import count_chip, draw_chip_ahead, finish_potion, take_type, white_back
from sim.kernel.books.common import ACTION_ABORT, offer_extra
from sim.kernel.books.hooks import (
    NO_BOOK_MOVE,
    acting_type,
    before_draw_chip,
    chip_action,
    chip_move,
    doubled_move,
    doubles_next,
    draw_protected,
    has_action,
    not_placed,
    potion_ended,
)
from sim.kernel.bowl import bowl_white_back, in_bowl, into_bowl
from sim.kernel.cards.hooks import after_chip, after_placed, exploded, free_draws, placed_move
from sim.kernel.decisions.decide import decide_flask
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_DRAW,
    EV_FIRST,
    EV_FLASK,
    EV_PLACE,
    EV_PROTECTED,
    F_ANCHOR,
    F_DONE,
    F_DRAWS,
    F_EXPLODED,
    F_FIRST_USED,
    F_FLASK,
    F_NBAG,
    F_NFIRST,
    F_NHOLD,
    F_NORANGE,
    F_NPOT,
    F_PLACED_NO,
    F_PROTECTED,
    F_REWARD,
    FIRST_T,
    G_NP,
    G_START_PLAYER,
    HOLD_T,
    POT_P,
    POT_T,
    R_BOWL,
    R_LAST,
    STOP_EMPTY,
    STOP_EXPLODED,
    STOP_SCRIPT,
    STOP_TRACK,
)
from sim.kernel.seats import seat_after
from sim.kernel.witches import hooks as witch_hooks
from sim.rules.chips import ORANGE, TYPE_COLOUR, TYPE_VALUE, WHITE

RESOLVE_ASIDE = -1  # resolve_chip: the chip was set beside the pot
RESOLVE_ABORT = -2  # resolve_chip: a scripted draw failed


@kernel(llvm_inline=True)
def place_chip(P, s, t, act, drawn, G, R, SK, SP, SC, rng, E, UF):
    """Place chip t after the anchor, moving as chip ``act`` does (t itself, or the chip a Set 6
    locoweed copies), with its book's extra distance and a card's (``placed_move``), doubled after a
    yellow Set 2 chip (each extra distance may be declined), a Set 5 locoweed's cap of 4 last;
    then count it (``count_chip``: ``drawn`` False for a held chip placed once the potion ended)."""
    free = free_draws(P, s, G)
    c = TYPE_COLOUR[act]
    move = chip_move(P, s, act, c, G, R, SK, SP, SC, rng, E, UF)
    if move == NO_BOOK_MOVE:  # a colour without a book's extra distance: a card's (one compare)
        move = TYPE_VALUE[act] + placed_move(c, G)
    if doubles_next(P, s, R):  # a book doubles this chip's distance (yellow Set 2)
        move += offer_extra(P, s, move, t, G, R, SK, SP, SC, rng, E, UF)
        move = doubled_move(c, move, R)
    pos = min(P[s, F_ANCHOR] + move, R[R_LAST])
    k = P[s, F_NPOT]
    P[s, POT_T + k] = t
    P[s, POT_P + k] = pos
    P[s, F_NPOT] = k + 1
    P[s, F_ANCHOR] = pos
    if TYPE_COLOUR[t] == ORANGE:
        P[s, F_NORANGE] += 1
    record(E, G, s, EV_PLACE, t, pos, 0 if drawn else 1)
    count_chip(P, s, t, drawn, free, G, E)


@kernel(llvm_inline=True)
def place_acting(P, s, t, t_no, G, R, SK, SP, SC, rng, E, UF):
    """Place drawn chip t (draw number t_no) as the chip it acts as (``acting_type``) and return
    that chip, or ``RESOLVE_ASIDE`` when a book does not place it (``not_placed``)."""
    if not_placed(P, s, t, G, R, E):
        return RESOLVE_ASIDE
    act = acting_type(P, s, t, G, R, E)
    P[s, F_PLACED_NO] = t_no
    place_chip(P, s, t, act, True, G, R, SK, SP, SC, rng, E, UF)
    return act


@kernel(inline=True)
def use_flask(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The flask: only for the last chip placed, if it is white and the pot is intact."""
    k = P[s, F_NPOT]
    tl = P[s, POT_T + k - 1]
    if TYPE_COLOUR[tl] == WHITE and P[s, F_FLASK] != 0:
        if decide_flask(P, s, tl, G, R, SK, SP, SC, rng, UF):
            wpos = P[s, POT_P + k - 1]
            white_back(P, s, tl, R)
            P[s, F_FLASK] = 0
            record(E, G, s, EV_FLASK, tl, wpos, 0)


@kernel(inline=True)
def resolve_chip(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF):
    """Place drawn chip t (draw number t_no) with its action (``chip_actions``, a call: only
    yellow, blue and red Set 6 chips act). Returns the last chip placed, ``RESOLVE_ASIDE`` (a red
    Set 2 chip set beside the pot, or a red Set 6 draw held) or ``RESOLVE_ABORT`` (a scripted
    draw failed; the potion is finished)."""
    act = place_acting(P, s, t, t_no, G, R, SK, SP, SC, rng, E, UF)
    if act == RESOLVE_ASIDE:
        return RESOLVE_ASIDE
    if P[s, F_EXPLODED] != 0 or not has_action(act, R):
        return t
    return chip_actions(P, s, t, act, G, R, SK, SP, SC, FD, rng, E, UF)


@kernel
def chip_actions(P, s, t, act, G, R, SK, SP, SC, FD, rng, E, UF):
    """The action of chip t just placed (acting as ``act``); a chip a blue chip picks, or the
    chip drawn after a red Set 6 chip, is placed next with its own. Returns as ``resolve_chip``."""
    while True:
        nxt, nxt_no = chip_action(P, s, act, G, R, SK, SP, SC, FD, rng, E, UF)
        if nxt == ACTION_ABORT:
            return RESOLVE_ABORT
        if nxt < 0:
            return t
        t = nxt
        act = place_acting(P, s, t, nxt_no, G, R, SK, SP, SC, rng, E, UF)
        if act == RESOLVE_ASIDE:
            return RESOLVE_ASIDE
        if P[s, F_EXPLODED] != 0 or not has_action(act, R):
            return t


@kernel(inline=True)
def potion_end_check(P, s, R, E, G, more):
    """End the potion at the last space (unless the ruleset has the overflow bowl) or when the
    bag is empty (unless ``more``: a witch's chips are still in hand)."""
    k = P[s, F_NPOT]
    if k > 0 and P[s, POT_P + k - 1] >= R[R_LAST] and R[R_BOWL] == 0:
        finish_potion(P, s, STOP_TRACK, E, G)
    elif P[s, F_NBAG] == 0 and not more:
        finish_potion(P, s, STOP_EMPTY, E, G)


@kernel
def on_explosion(P, s, t, bowl, protected, G, R, SK, SP, SC, rng, E, UF, more):
    """The pot exploded on chip t: the card's hook (A Second Chance not yet decided: an action
    placed a sixth chip with the fifth), the witches' hook (second flask), a book's protection
    window (``draw_protected``: VP and coins both), else the potion ends."""
    if exploded(P, s, G, R, SK, SP, SC, rng, E, UF):
        return
    if witch_hooks.on_explosion(P, s, t, bowl, G, R, SK, SP, SC, rng, E, UF):
        potion_end_check(P, s, R, E, G, more)
        return
    if protected:
        P[s, F_PROTECTED] = 1
        record(E, G, s, EV_PROTECTED, 0, 0, 0)
    finish_potion(P, s, STOP_EXPLODED, E, G)


@kernel
def bowl_step(P, s, t, t_no, protected, G, R, SK, SP, SC, rng, E, UF, more):
    """Drawn chip t goes into the overflow bowl: no action; a white counts towards the explosion
    and may go back with the flask."""
    into_bowl(P, s, t, True, free_draws(P, s, G), G, E)
    P[s, F_PLACED_NO] = t_no
    if P[s, F_EXPLODED] != 0:
        on_explosion(P, s, t, True, protected, G, R, SK, SP, SC, rng, E, UF, more)
        return
    if TYPE_COLOUR[t] == WHITE and P[s, F_FLASK] != 0:
        if decide_flask(P, s, t, G, R, SK, SP, SC, rng, UF):
            bowl_white_back(P, s, t)
            P[s, F_FLASK] = 0
            record(E, G, s, EV_FLASK, t, R[R_LAST] + 1, 0)
    if after_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
        return
    potion_end_check(P, s, R, E, G, more)


@kernel(llvm_inline=True)
def place_drawn(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF, more):
    """Chip t, just drawn (draw number t_no), into the pot with its action (or into the bowl),
    then what may follow: the explosion, the card's hooks (Well Stirred before the flask, A Second
    Chance after it) and the end of the potion (``more``: a witch's chips still in hand, so an
    empty bag does not end it)."""
    protected = draw_protected(P, s, R)  # a book's protection window (blue Set 2)
    if in_bowl(P, s, R):
        bowl_step(P, s, t, t_no, protected, G, R, SK, SP, SC, rng, E, UF, more)
        return
    t = resolve_chip(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF)
    if t == RESOLVE_ABORT:
        return
    if P[s, F_EXPLODED] != 0:
        on_explosion(P, s, t, False, protected, G, R, SK, SP, SC, rng, E, UF, more)
        return
    if t >= 0:
        after_placed(P, s, t, G, R, SK, SP, SC, rng, E, UF)
        use_flask(P, s, G, R, SK, SP, SC, rng, E, UF)
    if after_chip(P, s, G, R, SK, SP, SC, rng, E, UF):
        return
    potion_end_check(P, s, R, E, G, more)


@kernel
def place_drawn_call(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF, more):
    """``place_drawn`` as a call, for the rare paths (chips placed first, a held chip placed
    before a draw, a witch's chips): one compiled copy serves them
    all instead of one inlined into each (about a minute of compiling apiece)."""
    place_drawn(P, s, t, t_no, G, R, SK, SP, SC, FD, rng, E, UF, more)


@kernel
def place_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The chips a rule picked to go first (``FIRST_T``: a book's picks at the last round's step
    B) are placed first, in order, each with its action, before any draw (a chip no longer in the
    bag is skipped); ``F_FIRST_USED`` keeps how many, for a rule that places them again (a
    restarted potion)."""
    n = P[s, F_NFIRST]
    P[s, F_NFIRST] = 0
    P[s, F_FIRST_USED] = n
    for i in range(n):
        t = P[s, FIRST_T + i]
        if P[s, F_DONE] == 0 and take_type(P, s, t):
            record(E, G, s, EV_FIRST, t, 0, 0)
            place_drawn_call(P, s, t, 0, G, R, SK, SP, SC, FD, rng, E, UF, False)


@kernel
def before_draw(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """What comes before a draw, rarely: chips a rule put back to go first (a restart), a chip
    held beside the pot that a book's ``before_draw_chip`` places now."""
    if P[s, F_NFIRST] > 0:
        place_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
    if P[s, F_NHOLD] > 0 and P[s, F_DONE] == 0:
        t = before_draw_chip(P, s, G, R, SK, SP, SC, rng, E, UF)  # a held chip placed now
        if t >= 0:
            place_drawn_call(P, s, t, 0, G, R, SK, SP, SC, FD, rng, E, UF, False)


@kernel(inline=True)
def next_draw(P, s, G, R, SK, SP, SC, FD, rng, E, UF, ahead):
    """The chip seat s draws next (recorded), after any chip placed before a draw; -1 when the
    potion ended instead (a placed chip ended it, or the draws ran out: finished here).
    ``ahead``: the bag's random number peeked ahead (``draw_chip_ahead``)."""
    if P[s, F_NFIRST] + P[s, F_NHOLD] > 0:
        before_draw(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
        if P[s, F_DONE] != 0:
            return -1
    t = draw_chip_ahead(P, s, FD, rng, ahead)
    if t < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return -1
    record(E, G, s, EV_DRAW, t, 0, 0)
    return t


@kernel(inline=True)
def potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF, ahead):
    """Draw and resolve one chip for seat s; finish the potion if it can go no further.
    ``ahead``: ``peek_u64`` of a bag stream, the draw's random number if still s's next one."""
    t = next_draw(P, s, G, R, SK, SP, SC, FD, rng, E, UF, ahead)
    if t >= 0:
        place_drawn(P, s, t, P[s, F_DRAWS], G, R, SK, SP, SC, FD, rng, E, UF, False)


@kernel
def place_held(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Once the potion has ended, every chip still held beside the pot (``HOLD_T``: a book's, red
    Set 6) is placed after the last chip by the same placement as a drawn chip (its book's
    distance, Pumpkin Patch Party, the doubling; into the bowl past the last space) but without
    its action; a white still counts towards the explosion, even after the stop."""
    for i in range(P[s, F_NHOLD]):
        t = P[s, HOLD_T + i]
        if in_bowl(P, s, R):
            into_bowl(P, s, t, False, False, G, E)
            continue
        act = acting_type(P, s, t, G, R, E)
        place_chip(P, s, t, act, False, G, R, SK, SP, SC, rng, E, UF)
    if P[s, F_NHOLD] > 0 and P[s, F_NPOT] > 0:
        P[s, F_REWARD] = min(P[s, POT_P + P[s, F_NPOT] - 1] + 1, R[R_LAST] + 1)
    P[s, F_NHOLD] = 0


@kernel(inline=True)
def after_potion(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Seat s's potion has ended (``quacks potion``): its books' hook point ``potion_ended``, then
    the chips it holds beside the pot placed (``place_held``)."""
    potion_ended(P, s, G, R, SK, SP, SC, rng, E, UF)
    if P[s, F_NHOLD] > 0:
        place_held(P, s, G, R, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def after_potions(P, G, R, SK, SP, SC, rng, E, UF):
    """Every potion of the round has ended: each seat's books' hook point ``potion_ended`` in
    start-player order, then the chips held beside the pot placed, seat by seat
    (``place_held``)."""
    n = G[G_NP]
    for k in range(n):
        potion_ended(P, seat_after(G[G_START_PLAYER], k, n), G, R, SK, SP, SC, rng, E, UF)
    for s in range(n):
        if P[s, F_NHOLD] > 0:
            place_held(P, s, G, R, SK, SP, SC, rng, E, UF)
