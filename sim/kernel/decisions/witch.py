"""The herb witch slot, compiled with Numba: how a seat's strategy answers a witch's question.

The kernel (a witch's module in ``sim.kernel.witches``) asks only when the witch is in play, the
seat still holds her penny (or she visits) and her phase has come; the questions and answers are
listed in ``slots`` (``W_*``, ``WQ_SIX_NEXT``). Each witch's module holds her built-in answer
(``default``) and asks through ``witch_answer`` here, which gives the scripted, user, never or
random answer, or says that the built-in one applies (``ask_witch``: that, else her ``default``,
for a witch whose answer has no form of its own). The built-in default calls a witch once her
gain passes a threshold (``P_W_*``) from her first round on, and in the last round whenever she
is worth more than the penny kept (``game.penny_vp``): ``last_call`` and ``penny_worth`` below.
"""

from __future__ import annotations

from sim.kernel.decisions.slot_call import call_slot
from sim.kernel.decisions.slots import (
    BUILT_IN,
    N_WITCHES,
    SC_UNSET,
    SC_WITCH,
    SCRIPTED,
    SLOT_WITCH,
    USER_BASE,
    WITCH_NEVER,
    WITCH_OFF,
    WITCH_RANDOM,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import F_DRAWS, F_PENNY, G_ROUND, G_VISIT, R_PENNY_VP, R_ROUNDS
from sim.kernel.rng import CHOICE_STREAM, uniform
from sim.rules.witch_files import FIRST_USER_WITCH, USER_OFF
from sim.rules.witch_numbers import N_GROUPS

# witch_answer's first value: how the seat answered (her module turns it into her answer)
ASK_DEFAULT = 0  # the built-in strategy: her module's ``default`` answers
ASK_ANSWER = 1  # the answer is the second value (a user slot function's; 0 before her first round)
# not called (never, the random draw said no, not scripted): her "no" (0; free twin -1)
ASK_DECLINE = 2
ASK_RANDOM = 3  # the random strategy calls her: 1, unless her module draws its own answer
# the round file's value for her (``SC_WITCH``; a follow-up question: 0), in her form
ASK_SCRIPT = 4


@kernel(inline=True)
def witch_answer(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """Seat s's strategy on witch question ``q`` (a witch 1..N_WITCHES, or a follow-up question
    beyond) with argument ``arg``: ``(how, answer)``, ``how`` one of ``ASK_*``. Inlined: the
    built-in strategy and ``never`` answer here without a call; a script, a user slot function
    and the random strategy are asked through ``slot_answer``."""
    k = SK[s, SLOT_WITCH]
    if k == WITCH_NEVER:
        return ASK_DECLINE, 0
    if k == SCRIPTED or k >= USER_BASE or k == WITCH_RANDOM:
        return slot_answer(P, s, q, arg, G, R, SK, SP, SC, rng, UF)
    return built_in_answer(s, q, G, R, SP)


@kernel(inline=True)
def built_in_answer(s, q, G, R, SP):
    """The built-in strategy's ``(how, answer)`` (``witch_answer``): never a witch it is told
    to leave (``witch_off``), 0 before her first round (``SP[s, SLOT_WITCH, q]``) unless it is
    her last chance, else her module's ``default`` answers."""
    if q <= N_WITCHES and SP[s, SLOT_WITCH, q] >= WITCH_OFF:
        return ASK_DECLINE, 0  # witch_off: this seat never calls her
    if q >= FIRST_USER_WITCH and (int(SP[s, SLOT_WITCH, USER_OFF]) >> (q - FIRST_USER_WITCH)) & 1:
        return ASK_DECLINE, 0  # witch_off naming a rules file's witch (her question: her number)
    if q <= N_WITCHES and G[G_ROUND] < SP[s, SLOT_WITCH, q] and not last_call(G, R, q):
        return ASK_ANSWER, 0  # the built-in strategy: not before her first round
    return ASK_DEFAULT, 0


@kernel
def slot_answer(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """``witch_answer`` for a scripted seat, a user slot function (which may leave it to the
    built-in strategy) and the random strategy."""
    k = SK[s, SLOT_WITCH]
    if k == SCRIPTED:
        if q > N_WITCHES:
            return ASK_SCRIPT, 0
        v = SC[s, SC_WITCH + q - 1]
        if v == SC_UNSET:
            return ASK_DECLINE, 0
        return ASK_SCRIPT, v
    if k >= USER_BASE:
        a = call_slot(UF, k - USER_BASE, P, s, G, R, SP, q, arg)
        if a != BUILT_IN:
            return ASK_ANSWER, a
        return built_in_answer(s, q, G, R, SP)  # the slot function left it to the thresholds
    if k == WITCH_NEVER:
        return ASK_DECLINE, 0
    if k == WITCH_RANDOM:
        if q > N_WITCHES:
            return ASK_RANDOM, 0
        if uniform(rng, CHOICE_STREAM + s) >= SP[s, SLOT_WITCH, 0]:
            return ASK_DECLINE, 0
        return ASK_RANDOM, 1
    return built_in_answer(s, q, G, R, SP)


@kernel(inline=True)
def ask_witch(P, s, w, arg, default, G, R, SK, SP, SC, rng, UF):
    """Seat s's answer to witch w with argument ``arg`` where her answer needs no form of its own
    (call her: not 0; an upgrade's choice): the scripted, user, never or random answer
    (``witch_answer``), or her built-in one, ``default(P, s, arg, G, R, SP)`` (her module's)."""
    how, a = witch_answer(P, s, w, arg, G, R, SK, SP, SC, rng, UF)
    return default(P, s, arg, G, R, SP) if how == ASK_DEFAULT else a


@kernel(inline=True)
def ask_witch_when(P, s, w, arg, default, G, R, SK, SP, SC, rng, UF):
    """``ask_witch`` for a witch whose round-file answer says when (``scripted_when``: the potion
    witches between draws): ``(how, answer)``, the answer her ``default``'s for ``ASK_DEFAULT``,
    the scripted one's for ``ASK_SCRIPT``, else ``witch_answer``'s (her module may draw its own
    for ``ASK_RANDOM``)."""
    how, a = witch_answer(P, s, w, arg, G, R, SK, SP, SC, rng, UF)
    if how == ASK_DEFAULT:
        return how, default(P, s, arg, G, R, SP)
    if how == ASK_SCRIPT:
        return how, scripted_when(P, s, a, arg)
    return how, a


@kernel(inline=True)
def visit_default(s, arg, G, SP, w, threshold, visiting):
    """A witch's built-in answer by one threshold: call her when ``arg`` reaches the seat's
    ``SP[s, SLOT_WITCH, threshold]``, or, when she visits (free), reaches ``visiting``."""
    return 1 if arg >= SP[s, SLOT_WITCH, threshold] or (G[G_VISIT] == w and arg >= visiting) else 0


@kernel(inline=True)
def last_call(G, R, w):
    """Whether the built-in strategy calls witch w whenever she gains anything: in the last round,
    or when she visits (Visit from a Witch: free)."""
    return G[G_ROUND] >= R[R_ROUNDS] or G[G_VISIT] == w


@kernel(inline=True)
def pennies_held(P, s):
    """How many witch pennies seat s still holds (each scores ``game.penny_vp`` at the end)."""
    n = 0
    for g in range(N_GROUPS):
        n += (P[s, F_PENNY] >> g) & 1
    return n


@kernel(inline=True)
def penny_worth(G, R, w):
    """VP the seat gives up by calling witch w (her penny; 0 for a visiting witch)."""
    return 0 if G[G_VISIT] == w else R[R_PENNY_VP]


@kernel(inline=True)
def points_default(s, arg, G, R, SP, w, threshold):
    """A points witch's built-in answer: call her for ``arg`` VP when it reaches the seat's
    threshold (``SP[s, SLOT_WITCH, threshold]``), or in her last chance when it beats the penny."""
    return 1 if arg >= SP[s, SLOT_WITCH, threshold] or (
        last_call(G, R, w) and arg > penny_worth(G, R, w)) else 0


@kernel
def scripted_when(P, s, v, arg):
    """A potion witch's round-file answer ``after * 4 + n`` (``sim.api.round_script``): n once
    ``after`` chips are drawn (after = 0: when the player is about to stop, ``arg`` = 1), else 0."""
    after = v // 4
    at = (arg == 1) if after == 0 else (P[s, F_DRAWS] == after)
    return v % 4 if at else 0
