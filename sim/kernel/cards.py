"""The fortune-teller deck: dealt at set-up, one card a round, each card a small function called at
its timing. Card numbers follow ``sim.rules.cards.CARDS`` (1-24; 0 = no card). Purple cards
(1-13) resolve once before the round, right after the round-start chips and before the rats; blue
cards (14-24) are rules for the round, called from the phase they change.

Draws a card makes never explode a pot: Strong Ingredient's, and A Second Chance's first five chips
(``free_draws``; a pot left over the limit by them explodes on the next ordinary draw, its restart
is a new potion with ordinary draws); a chip a card grants goes into the bag at once, and only if
its book is out and the supply has one.
"""

from __future__ import annotations

from sim.kernel.bag import (
    add_chip,
    draw_chip,
    remove_any_chip,
    remove_pot_entry,
    reset_potion,
    return_chip,
    show_supply,
)
from sim.kernel.bowl import place_after
from sim.kernel.decisions.choices import decide_card, grantable, next_value_type
from sim.kernel.die import roll_die
from sim.kernel.droplet import move_droplet
from sim.kernel.effects.black import black_gift
from sim.kernel.effects.red import hold_aside
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    ASIDE,
    ASIDE_NEW,
    CARD_LOOK,
    CHIPS,
    EV_CARD,
    EV_CARD_GAIN,
    EV_CARD_LOOK,
    EV_PLACE,
    F_BASE_LIMIT,
    F_BOWL_N,
    F_CARD_ARG,
    F_CARD_USED,
    F_EXPLODED,
    F_FIRST_USED,
    F_FORCED_N,
    F_LIMIT,
    F_NBAG,
    F_NCHIPS,
    F_NFIRST,
    F_NPOT,
    F_PENNY,
    F_REWARD,
    F_RUBIES,
    F_SCORE,
    F_SIX_N,
    F_START,
    F_WHITE,
    G_CARD,
    G_DECK,
    G_DECK_N,
    G_NP,
    G_ROUND,
    G_START_PLAYER,
    G_SUPPLY,
    POT_T,
    R_CARD_MASK,
    R_CARD_ORDER,
    R_CARD_ORDER_N,
    R_DECK,
    R_LAST,
    R_LIMIT,
)
from sim.kernel.rng import randint
from sim.rules.cards import CARDS, card_number
from sim.rules.chips import B2, G1, K1, P1, TYPE_VALUE, W1

N_CARDS = len(CARDS)
# card numbers: their order in sim.rules.cards.CARDS (1-24 the base game's, 25-27 the witch-hat
# cards that need the herb witches)
ROLL_THE_DIE = card_number("roll-the-die")
POT_FILLING_UP = card_number("the-pot-is-filling-up")
CHARITY = card_number("charity")
RAT_INFESTATION = card_number("rat-infestation")
BEGINNERS_BONUS = card_number("beginners-bonus")
JUST_IN_TIME = card_number("just-in-time")
CHOOSE_ONE = card_number("you-only-get-to-choose-one")
RATS_FRIENDS = card_number("rats-are-your-friends")
GOOD_START = card_number("a-good-start")
CHOOSE_WISELY = card_number("choose-wisely")
WHEEL_AND_DEAL = card_number("wheel-and-deal")
OPPORTUNISTIC = card_number("an-opportunistic-moment")
LESS_IS_MORE = card_number("less-is-more")
POT_IS_FULL = card_number("the-pot-is-full")
PUMPKIN_PARTY = card_number("pumpkin-patch-party")
LUCKY_DEVIL = card_number("lucky-devil")
SHINING = card_number("its-shining-extra-bright")
MAGIC_POTION = card_number("magic-potion")
SEASONED = card_number("seasoned-perfectly")
LUXURY = card_number("living-in-luxury")
WELL_STIRRED = card_number("well-stirred")
STRONG_INGREDIENT = card_number("strong-ingredient")
SCHADENFREUDE = card_number("schadenfreude")
SECOND_CHANCE = card_number("a-second-chance")
QUICK_EXCHANGE = card_number("a-quick-exchange")
VISIT_WITCH = card_number("visit-from-a-witch")
JOYFUL_REUNION = card_number("a-joyful-reunion")
LAST_PURPLE = LESS_IS_MORE
TAKE_RUBIES = 99  # card answer: rubies (You Only Get to Choose One) / VP (Rats Are Your Friends)
# EV_CARD_GAIN kinds
GAIN_VP, GAIN_RUBY, GAIN_DROPLET, GAIN_CHIP, GAIN_REMOVE, GAIN_FLASK, GAIN_RESTART = 1, 2, 3, 4, 5, 6, 7
GAIN_PENNY_GIVEN, GAIN_PENNY_BACK = 8, 9  # b = the witch group


@kernel(inline=True)
def is_purple(card):
    """Whether a card is resolved once before the round (cards 1-13 and A Quick Exchange)."""
    return (0 < card <= LAST_PURPLE) or card == QUICK_EXCHANGE


@kernel
def deal_deck(G, R, rng, stream):
    """The game's deck: the fixed order if the ruleset gives one, else every card left in,
    shuffled from the shared random stream. No deck when ``cards.deck`` is off."""
    G[G_DECK_N] = 0
    if R[R_DECK] == 0:
        return
    if R[R_CARD_ORDER_N] > 0:
        for i in range(R[R_CARD_ORDER_N]):
            G[G_DECK + i] = R[R_CARD_ORDER + i]
        G[G_DECK_N] = R[R_CARD_ORDER_N]
        return
    k = 0
    for c in range(1, N_CARDS + 1):
        if (R[R_CARD_MASK] >> c) & 1:
            G[G_DECK + k] = c
            k += 1
    for i in range(k - 1, 0, -1):  # Fisher-Yates
        j = randint(rng, stream, i + 1)
        c = G[G_DECK + i]
        G[G_DECK + i] = G[G_DECK + j]
        G[G_DECK + j] = c
    G[G_DECK_N] = k


@kernel(inline=True)
def round_card(G, E):
    """The card of this round (0 once the deck runs out or without a deck)."""
    r = G[G_ROUND]
    card = G[G_DECK + r - 1] if r <= G[G_DECK_N] else 0
    G[G_CARD] = card
    if card > 0:
        record(E, G, -1, EV_CARD, card, 0, 0)
    return card


@kernel(inline=True)
def gain(P, s, G, E, kind, amount):
    """Apply a card's VP, ruby or droplet gain to seat s and record it."""
    if kind == GAIN_VP:
        P[s, F_SCORE] += amount
    elif kind == GAIN_RUBY:
        P[s, F_RUBIES] += amount
    elif kind == GAIN_DROPLET:
        move_droplet(P, s, amount)
    record(E, G, s, EV_CARD_GAIN, kind, amount, G[G_CARD])


@kernel
def grant_chip(P, s, t, G, R, supply, E):
    """A card gives chip t into the bag, if its book is out and the supply has one (a black chip
    with black Set 5: into the left neighbour's bag, and the droplet moves)."""
    G[G_SUPPLY + t] = supply[t]
    if 0 <= t < supply.shape[0] and grantable(G, R, t) and (black_gift(P, s, t, G, R, E)
                                                           or add_chip(P, s, t)):
        supply[t] -= 1
        record(E, G, s, EV_CARD_GAIN, GAIN_CHIP, t, G[G_CARD])
        return True
    return False


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


@kernel
def put_back(P, s, k):
    """Return the chips a card looked at to the bag."""
    for i in range(k):
        return_chip(P, s, P[s, CARD_LOOK + i])


@kernel
def fewest(P, n, field):
    """The smallest value of a player field among the seats."""
    m = P[0, field]
    for s in range(1, n):
        m = min(m, P[s, field])
    return m


@kernel
def purple_card(P, G, R, supply, die, DS, FD, SK, SP, SC, rng, E, UF):
    """Resolve this round's purple card for every player, in start-player order."""
    card = G[G_CARD]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    least_rubies = fewest(P, n, F_RUBIES)
    least_vp = fewest(P, n, F_SCORE)
    for k in range(n):
        s = (sp + k) % n
        P[s, F_CARD_ARG] = 0
        if card == ROLL_THE_DIE:
            roll_die(P, s, G, die, DS, supply, rng, E)
        elif card == POT_FILLING_UP:
            gain(P, s, G, E, GAIN_DROPLET, 1)
        elif card == CHARITY:
            if P[s, F_RUBIES] == least_rubies:
                gain(P, s, G, E, GAIN_RUBY, 1)
        elif card == BEGINNERS_BONUS:
            if P[s, F_SCORE] == least_vp:
                grant_chip(P, s, G1, G, R, supply, E)
        elif card == JUST_IN_TIME:
            nw1 = 0
            for i in range(P[s, F_NCHIPS]):
                if P[s, CHIPS + i] == W1:
                    nw1 += 1
            a = decide_card(P, s, card, nw1, G, R, SK, SP, SC, rng, UF)
            if a == W1 and remove_any_chip(P, s, W1):
                supply[W1] += 1
                record(E, G, s, EV_CARD_GAIN, GAIN_REMOVE, W1, card)
            else:
                gain(P, s, G, E, GAIN_VP, 4)
        elif card == CHOOSE_ONE:
            show_supply(G, supply)
            a = decide_card(P, s, card, 0, G, R, SK, SP, SC, rng, UF)
            if a == TAKE_RUBIES or not (a == K1 or (0 <= a < supply.shape[0] and TYPE_VALUE[a] == 2)) \
                    or not grant_chip(P, s, a, G, R, supply, E):
                gain(P, s, G, E, GAIN_RUBY, 3)
        elif card == CHOOSE_WISELY:
            show_supply(G, supply)
            a = decide_card(P, s, card, 0, G, R, SK, SP, SC, rng, UF)
            if a != P1 or not grant_chip(P, s, P1, G, R, supply, E):
                gain(P, s, G, E, GAIN_DROPLET, 2)
        elif card == WHEEL_AND_DEAL:
            show_supply(G, supply)
            a = decide_card(P, s, card, P[s, F_RUBIES], G, R, SK, SP, SC, rng, UF)
            if P[s, F_RUBIES] >= 1 and 0 <= a < supply.shape[0] and TYPE_VALUE[a] == 1 \
                    and a != P1 and a != K1 and a != W1:
                if grant_chip(P, s, a, G, R, supply, E):
                    gain(P, s, G, E, GAIN_RUBY, -1)
        elif card == OPPORTUNISTIC:
            opportunistic(P, s, G, R, supply, FD, SK, SP, SC, rng, E, UF)
        elif card == QUICK_EXCHANGE and P[s, F_PENNY] != 0:
            show_supply(G, supply)
            a = decide_card(P, s, card, P[s, F_PENNY], G, R, SK, SP, SC, rng, UF)
            g = a // 32
            if a >= 0 and g < 3 and (P[s, F_PENNY] >> g) & 1 and grant_chip(P, s, a % 32, G, R, supply, E):
                P[s, F_PENNY] &= ~(1 << g)
                record(E, G, s, EV_CARD_GAIN, GAIN_PENNY_GIVEN, g, card)
        elif card == LESS_IS_MORE:
            reset_potion(P, s, P[s, F_START], R[R_LIMIT])
            hold_aside(P, s)
            m = look(P, s, 5, FD, rng, E, G)
            total = 0
            for i in range(m):
                total += TYPE_VALUE[P[s, CARD_LOOK + i]]
            put_back(P, s, m)
            P[s, F_CARD_ARG] = total
    if card == LESS_IS_MORE:
        low = P[0, F_CARD_ARG]
        for s in range(1, n):
            low = min(low, P[s, F_CARD_ARG])
        for k in range(n):
            s = (sp + k) % n
            if P[s, F_CARD_ARG] == low:
                grant_chip(P, s, B2, G, R, supply, E)
            else:
                gain(P, s, G, E, GAIN_RUBY, 1)
            P[s, F_CARD_ARG] = 0
    if card == RAT_INFESTATION:
        record(E, G, -1, EV_CARD_GAIN, 0, 2, card)


@kernel
def opportunistic(P, s, G, R, supply, FD, SK, SP, SC, rng, E, UF):
    """An Opportunistic Moment: draw 4; exchange one for the next-higher value of its colour (to
    the bag), or take a green 1 if none can be exchanged; the drawn chips go back."""
    reset_potion(P, s, P[s, F_START], R[R_LIMIT])
    hold_aside(P, s)
    m = look(P, s, 4, FD, rng, E, G)
    show_supply(G, supply)
    possible = False
    for i in range(m):
        u = next_value_type(P[s, CARD_LOOK + i])
        if u >= 0 and supply[u] > 0:
            possible = True
    if not possible:
        put_back(P, s, m)
        grant_chip(P, s, G1, G, R, supply, E)
        return
    want = decide_card(P, s, OPPORTUNISTIC, m, G, R, SK, SP, SC, rng, UF)
    pick = -1
    for i in range(m):
        if P[s, CARD_LOOK + i] == want:
            pick = i
    put_back(P, s, m)
    if pick < 0:
        return
    u = next_value_type(want)
    if u >= 0 and supply[u] > 0 and remove_any_chip(P, s, want):
        supply[want] += 1
        supply[u] -= 1
        add_chip(P, s, u)
        record(E, G, s, EV_CARD_GAIN, GAIN_CHIP, u, OPPORTUNISTIC)


@kernel
def rat_card(P, s, tails_n, G, R, supply, SK, SP, SC, rng, E, UF):
    """Rats Are Your Friends / A Good Start, once seat s's rat tails are known; return the tails
    the seat keeps. Called before the seat's bag is refilled, so a granted chip can be drawn."""
    card = G[G_CARD]
    show_supply(G, supply)
    a = decide_card(P, s, card, tails_n, G, R, SK, SP, SC, rng, UF)
    if card == RATS_FRIENDS:
        if a == TAKE_RUBIES or not (0 <= a < supply.shape[0] and TYPE_VALUE[a] == 4) \
                or not grant_chip(P, s, a, G, R, supply, E):
            gain(P, s, G, E, GAIN_VP, tails_n)
        return tails_n
    k = max(0, min(a, 3, tails_n))
    if k > 0:
        gain(P, s, G, E, GAIN_RUBY, k)
    return tails_n - k


@kernel
def well_stirred(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Well Stirred: the first white chip drawn (just placed) may go back into the bag."""
    P[s, F_CARD_USED] = 1
    k = P[s, F_NPOT]
    t = P[s, POT_T + k - 1]
    if decide_card(P, s, WELL_STIRRED, t, G, R, SK, SP, SC, rng, UF) == 1:
        remove_pot_entry(P, s, k - 1)
        P[s, F_WHITE] -= TYPE_VALUE[t]
        return_chip(P, s, t)
        record(E, G, s, EV_CARD_GAIN, GAIN_REMOVE, t, WELL_STIRRED)


@kernel(inline=True)
def free_draws(P, s, G):
    """True while a chip placed now is one of A Second Chance's first five: the card's draws,
    which carry no risk (the explosion check skips them)."""
    return G[G_CARD] == SECOND_CHANCE and P[s, F_CARD_USED] == 0 and P[s, F_NPOT] + P[s, F_BOWL_N] < 5


@kernel
def second_chance(P, s, G, R, SK, SP, SC, rng, E, UF):
    """A Second Chance, once the first 5 chips are placed (drawn without risk): the strategy may
    put everything back and brew again from the start; return True if it did. Everything of the
    abandoned potion goes back to the bag: the pot, the bowl, red Set 2 chips set beside the pot
    during it (those kept from earlier rounds stay out), held red Set 6 chips and a witch's chips
    in hand; green Set 5 picks are placed first again. The flask and witch pennies stay spent."""
    P[s, F_CARD_USED] = 1
    over = 1 if P[s, F_WHITE] > P[s, F_LIMIT] else 0
    if decide_card(P, s, SECOND_CHANCE, over, G, R, SK, SP, SC, rng, UF) != 1:
        return False
    for j in range(3):
        P[s, ASIDE + j] -= P[s, ASIDE_NEW + j]
    first = P[s, F_FIRST_USED]
    reset_potion(P, s, P[s, F_START], P[s, F_BASE_LIMIT])
    hold_aside(P, s)
    P[s, F_NFIRST] = first  # placed before the next draw (sim.kernel.brew.before_draw)
    P[s, F_SIX_N] = 0
    P[s, F_CARD_USED] = 1
    record(E, G, s, EV_CARD_GAIN, GAIN_RESTART, 0, SECOND_CHANCE)
    return True


@kernel
def after_brewing(P, G, R, supply, FD, SK, SP, SC, rng, E, UF):
    """Blue cards acting once every potion has ended: Seasoned Perfectly, Strong Ingredient,
    Schadenfreude."""
    card = G[G_CARD]
    n = G[G_NP]
    sp = G[G_START_PLAYER]
    for k in range(n):
        s = (sp + k) % n
        if card == SEASONED:
            if P[s, F_EXPLODED] == 0 and P[s, F_WHITE] == R[R_LIMIT]:
                gain(P, s, G, E, GAIN_DROPLET, 1)
        elif card == STRONG_INGREDIENT:
            if P[s, F_EXPLODED] == 0:
                strong_ingredient(P, s, G, R, FD, SK, SP, SC, rng, E, UF)
        elif card == SCHADENFREUDE:
            if P[s, F_EXPLODED] != 0:
                left = (s + 1) % n
                show_supply(G, supply)
                t = decide_card(P, left, SCHADENFREUDE, s, G, R, SK, SP, SC, rng, UF)
                if 0 <= t < supply.shape[0] and TYPE_VALUE[t] == 2:
                    grant_chip(P, left, t, G, R, supply, E)


@kernel
def strong_ingredient(P, s, G, R, FD, SK, SP, SC, rng, E, UF):
    """Strong Ingredient: draw up to 5 chips, place one after the last chip (no action, never
    explodes; into the overflow bowl past the last space), the rest go back."""
    if P[s, F_FORCED_N] > 0:  # scripted: the card's draws follow the potion's in the list
        P[s, F_FORCED_N] += P[s, F_CARD_ARG]
    m = look(P, s, 5, FD, rng, E, G)
    want = decide_card(P, s, STRONG_INGREDIENT, m, G, R, SK, SP, SC, rng, UF)
    pick = -1
    for i in range(m):
        if P[s, CARD_LOOK + i] == want:
            pick = i
    for i in range(m):
        if i != pick:
            return_chip(P, s, P[s, CARD_LOOK + i])
    if pick < 0:
        return
    pos = place_after(P, s, want, G, R, E)  # a white counts, but a card's draw never explodes
    if pos <= R[R_LAST]:
        P[s, F_REWARD] = pos + 1
        record(E, G, s, EV_PLACE, want, pos, 0)


@kernel
def joyful_reunion(P, G, R, SK, SP, SC, rng, E, UF):
    """A Joyful Reunion, at the end of the round: each seat takes back one witch penny it has
    spent (the group it chooses; the group's witch may be called again)."""
    n = G[G_NP]
    for k in range(n):
        s = (G[G_START_PLAYER] + k) % n
        spent = 7 & ~P[s, F_PENNY]
        if spent == 0:
            continue
        g = decide_card(P, s, JOYFUL_REUNION, spent, G, R, SK, SP, SC, rng, UF)
        if 0 <= g < 3 and (spent >> g) & 1:
            P[s, F_PENNY] |= 1 << g
            record(E, G, s, EV_CARD_GAIN, GAIN_PENNY_BACK, g, JOYFUL_REUNION)
