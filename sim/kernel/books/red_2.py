"""Set beside the pot when drawn. After stopping (or exploding) each one is placed after the last
chip (moving its value; into the overflow bowl past the last space), kept for a later round, or
returned to the bag. A Second Chance's restart puts the chips set aside in the abandoned potion back
into the bag.

Red Set 2 (toadstool, draw, after stop): a red chip drawn is not placed but set beside the pot;
once the potion has ended (stopped or exploded) each one is placed after the last chip (it moves
its value; into the overflow bowl past the last space), kept beside the pot for a later round, or
returned to the bag.

Question ``red-after`` (b = the red chip type; 0 place it, 1 keep it aside, 2 return it); default
place it (declining: return it). Round-file keys: ``red_after`` (answers), ``beside`` (chips kept
from earlier rounds)."""

from __future__ import annotations

from sim.kernel.bag import return_chip, take_type
from sim.kernel.books.common import scripted_entry, scripting
from sim.kernel.bowl import place_after
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    ASIDE,
    ASIDE_NEW,
    CHIPS,
    F_BOOK_PTR,
    F_NCHIPS,
    F_NPOT,
    F_NRED,
    F_REWARD,
    MAX_CHIPS,
    POT_P,
    R_LAST,
)
from sim.rules.book_numbers import question_number
from sim.rules.chips import R1, RED, TYPE_COLOUR, chip_name
from sim.rules.declare import SCRIPT_WORDS, book, event, script_key, state_key
from sim.rules.event_declare import LAST_CHIP_SPACE, chip_field

BOOK = book("red", 2, "draw, after stop", prices=2,
            choices=('per red chip: place, keep or return',), doc=__doc__,
            script=(script_key("red_after", SCRIPT_WORDS, 8, words=("place", "keep", "return"),
                               doc="one per red chip beside the pot"),),
            state=(state_key("beside", doc="red chips kept beside the pot from earlier rounds",
                             potion=True),),
            events=(
                event("red_aside", a="chip:chip", text="{chip} set beside the pot",
                      doc="the red chip type set beside the pot"),
                event("red_after", decode=lambda a, b, c: (
                    {"chip": chip_field(a), "action": "bowl", "index": None}
                    if b == 0 and c > LAST_CHIP_SPACE else  # placed past the last space
                    {"chip": chip_field(a), "action": ("place", "keep", "return")[b],
                     "index": c}),
                      text={"place": "{chip} from beside the pot -> space {index}",
                            "bowl": "{chip} from beside the pot into the overflow bowl",
                            "keep": "{chip} kept beside the pot",
                            "return": "{chip} back to the bag"},
                      text_by="action", doc="a: the red chip type; b: 0 placed / 1 kept beside "
                      "the pot / 2 returned; c: the space placed (past the last: the bowl)"),
            ))
EV_ASIDE = event_code(BOOK, "red_aside")
EV_RED_AFTER = event_code(BOOK, "red_after")
BESIDE = BOOK.state[0].key
QUESTION = question_number("red-after")
RED_AFTER = script_slot(BOOK, "red_after")  # its answers in SC
RED_PLACE, RED_KEEP, RED_RETURN = (BOOK.script[0].words.index(w)  # the answers: each word
                                   for w in ("place", "keep", "return"))  # of red_after

N_RED_TYPES = 3  # r1, r2, r4 are types R1, R1 + 1, R1 + 2


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: place the chip (declining: return it to the bag)."""
    return RED_RETURN if decline else RED_PLACE


@kernel(inline=True)
def scripted(P, s, q, arg, SC):
    """The round file's answer: the next entry of its ``red_after`` (counted in ``F_BOOK_PTR``)."""
    return scripted_entry(P, s, F_BOOK_PTR, RED_AFTER, SC)


@kernel(inline=True)
def not_placed(P, s, t, G, E):
    """Put red chip t (already out of the bag) beside the pot (``ASIDE_NEW`` counts this potion's,
    which A Second Chance's restart puts back)."""
    P[s, ASIDE + t - R1] += 1
    P[s, ASIDE_NEW + t - R1] += 1
    record(E, G, s, EV_ASIDE, t, 0, 0)
    return True


@kernel
def bag_refilled(P, s):
    """After the bag is refilled: red chips kept beside the pot from earlier rounds stay out."""
    for j in range(N_RED_TYPES):
        for _ in range(P[s, ASIDE + j]):
            take_type(P, s, R1 + j)


@kernel
def potion_restarted(P, s):
    """A Second Chance's restart: the chips set beside the pot during the abandoned potion go
    back (to the bag, refilled next); those kept from earlier rounds stay out."""
    for j in range(N_RED_TYPES):
        P[s, ASIDE + j] -= P[s, ASIDE_NEW + j]


@kernel(inline=True)
def _has_aside(P, s):
    """Whether seat s has red chips beside the pot."""
    return P[s, ASIDE] + P[s, ASIDE + 1] + P[s, ASIDE + 2] > 0


@kernel
def _after_stop(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Once the potion has ended: each red chip beside the pot is placed after the last chip,
    kept beside the pot, or returned to the bag."""
    moved = False
    for j in range(N_RED_TYPES):
        t = R1 + j
        for _ in range(P[s, ASIDE + j]):
            ok, a = (scripted(P, s, QUESTION, t, SC) if scripting(SK, s)
                     else book_answer(P, s, QUESTION, t, G, R, SK, SP, SC, rng, UF))
            a = a if ok else default(P, s, t, G, R, a != 0)
            P[s, F_BOOK_PTR] += 1
            if a == RED_PLACE:
                pos = place_after(P, s, t, G, R, E)
                P[s, F_NRED] += 1
                P[s, ASIDE + j] -= 1
                moved = True
                record(E, G, s, EV_RED_AFTER, t, RED_PLACE, pos)
            elif a == RED_RETURN:
                P[s, ASIDE + j] -= 1
                return_chip(P, s, t)
                record(E, G, s, EV_RED_AFTER, t, RED_RETURN, 0)
            else:
                record(E, G, s, EV_RED_AFTER, t, RED_KEEP, 0)
    if moved and P[s, F_NPOT] > 0:
        P[s, F_REWARD] = min(P[s, POT_P + P[s, F_NPOT] - 1] + 1, R[R_LAST] + 1)


@kernel(inline=True)
def potion_ended(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Seat s's potion has ended: its red chips beside the pot placed, kept or returned (a call
    is dear: only if it has some)."""
    if _has_aside(P, s):
        _after_stop(P, s, G, R, SK, SP, SC, rng, E, UF)



def read_state(P, s, key, beside, bag):
    """The round file's ``beside`` (plain Python, read whatever book the ruleset chose): red
    chips kept beside the pot from earlier rounds, put in seat s's chips (after its bag, already
    in ``P``) and counted in ``ASIDE``; the error message, or None."""
    if any(TYPE_COLOUR[t] != RED for t in beside):
        return f"key '{key}': only red chips wait beside the pot (red Set 2)"
    if len(bag) + len(beside) > MAX_CHIPS - 2:
        return f"bag and {key} hold more than {MAX_CHIPS - 2} chips"
    for t in beside:
        P[s, CHIPS + P[s, F_NCHIPS]] = t
        P[s, F_NCHIPS] += 1
        P[s, ASIDE + t - R1] += 1
    return None


def write_state(P, s) -> dict:
    """The round's output for seat s (plain Python): ``beside``, the red chips kept beside the
    pot (they are in its bag too), if any."""
    aside = P[s, ASIDE:ASIDE + N_RED_TYPES]
    if not aside.any():
        return {}
    return {BESIDE: ",".join(f"{chip_name(R1 + j)}x{int(k)}" if k > 1 else chip_name(R1 + j)
                             for j, k in enumerate(aside) if k)}
