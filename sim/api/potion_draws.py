"""A potion with its draws forced (``quacks potion --draws``): the list checked, brewed in that
order, and the placements, explosion, rewards and events read back."""

from __future__ import annotations

import numpy as np

from sim.api.potion import PotionInputError, PotionQuery, card_id
from sim.kernel.layout import (
    F_EXPLODED,
    F_REWARD,
    F_SCRIPT_ERR,
    F_WHITE,
    G_NEV,
    MAX_CHIPS,
)
from sim.kernel.potions import potion_forced
from sim.rules import chips
from sim.rules.chip_limits import parse_chips_capped
from strategies.registry import slot_table


def check_draws(q: PotionQuery, draws_spec: str) -> list[int]:
    """The chip types of ``--draws`` for this query (PotionInputError / BagSpecError when the
    notation is bad, empty or longer than a potion can draw)."""
    draws = parse_chips_capped(draws_spec, what="draws", starting=q.ruleset.game("starting_bag"),
                               most=8 * MAX_CHIPS)
    if not draws:
        raise PotionInputError("--draws is empty; list the chips in the order they are drawn")
    short = surely_short(q, draws)
    if short:
        raise PotionInputError("--draws: a listed chip is not in the bag when it is drawn (the bag "
                               f"has fewer {', '.join(short)} than listed)")
    return draws


def surely_short(q: PotionQuery, draws: list[int]) -> list[str]:
    """The chips ``draws`` lists more often than the bag holds that nothing in this potion can
    put back into the bag, so the kernel would refuse the list: found here, before it compiles.
    What can put a chip back: a blue chip's look (any chip), the card's or a chosen book's
    declared ``puts_back`` with a chip of its colours in the bag ("any": A Second Chance's
    restart, yellow Set 5's draw; "white": Well Stirred, yellow Set 1), and for a white the
    flask. Anything else the kernel finds."""
    from sim.rules.book_files import book_sources
    from sim.rules.cards import card_numbered

    in_bag = {chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]] for t in q.bag}
    books = q.ruleset.data["books"]
    backs = {card_numbered(q.card).puts_back if q.card > 0 else ""}
    backs |= {src.decl.puts_back for src in book_sources()
              if books.get(src.decl.colour) == src.decl.set
              and in_bag & set(src.decl.chip_colours)}
    have, need = chips.counts_of(q.bag), chips.counts_of(draws)
    any_back = "blue" in in_bag or "any" in backs
    white_back = q.flask is not None or bool(backs & {"any", "white"})
    return [chips.chip_name(t) for t in range(chips.N_TYPES) if need[t] > have[t] and not any_back
            and not (white_back and chips.TYPE_COLOUR[t] == chips.WHITE)]


def forced(q: PotionQuery, draws_spec: str) -> dict:
    """Brew with the listed chips drawn in that order; placements, explosion and rewards.

    ``placements`` are the chips in the pot at the end, in order; a white chip placed and then
    sent back to the bag (by the flask, or by a yellow chip) is listed in ``returned`` instead,
    with the space it left and what returned it (``"flask"`` or ``"yellow"``).
    """
    from sim.kernel import layout as L

    draws = check_draws(q, draws_spec)
    have = chips.counts_of(q.bag)
    need = chips.counts_of(draws)
    R, SK, SP = q.arrays()
    E = np.zeros((512, 6), dtype=np.int64)
    P, G = potion_forced(
        np.array(q.bag, dtype=np.int64), np.array(draws, dtype=np.int64), q.start,
        int(q.ruleset.game("explosion_limit")), 1 if q.flask is not None else 0, R, SK, SP, E,
        slot_table(),
    )
    err = int(P[0, F_SCRIPT_ERR])
    if err:
        over = [chips.chip_name(t) for t in range(chips.N_TYPES) if need[t] > have[t]]
        if err == 1:
            raise PotionInputError(
                "--draws: a listed chip is not in the bag when it is drawn"
                + (f" (the bag has fewer {', '.join(over)} than listed)" if over else
                   " (it was already drawn and is still in the pot)")
            )
        raise PotionInputError(
            "--draws: a blue chip looks at more chips than the list gives; list the chips it looks "
            "at right after it"
        )
    ev = E[: G[G_NEV]]
    placements = [{"chip": chips.chip_name(int(P[0, L.POT_T + i])), "index": int(P[0, L.POT_P + i])}
                  for i in range(int(P[0, L.F_NPOT]))]
    returned = []
    events = []
    for row in ev:
        code, a, b, c = int(row[2]), int(row[3]), int(row[4]), int(row[5])
        if code in (L.EV_FLASK, L.EV_YELLOW):
            returned.append({"chip": chips.chip_name(a), "index": b,
                             "by": "flask" if code == L.EV_FLASK else "yellow"})
        events.append(_event_text(code, a, b, c))
    reward = int(P[0, F_REWARD])
    rs = q.ruleset
    used = sum(1 for row in ev if row[2] in (5, 8))  # EV_DRAW, EV_BLUE_LOOK
    return {
        "bag": chips.format_counts(have),
        "draws": draws_spec,
        "card": card_id(q),
        "placements": placements,
        "returned": returned,
        "exploded": bool(P[0, F_EXPLODED]),
        "white_total": int(P[0, F_WHITE]),
        "reward_space": reward,
        "coins": int(rs.coins[reward]),
        "vp": int(rs.vp[reward]),
        "ruby": bool(rs.ruby[reward]),
        "draws_unused": len(draws) - used,
        "explosion_limit": int(P[0, L.F_LIMIT]),
        "protected": bool(P[0, L.F_PROTECTED]),
        "book_rubies": int(P[0, L.F_RUBIES]),
        "book_vp": int(P[0, L.F_SCORE]),
        "beside": chips.format_counts(_beside(P)),
        **({"bowl": {"chips": [chips.chip_name(int(ev[i, 3])) for i in range(len(ev))
                               if ev[i, 2] == L.EV_BOWL and not _flasked_from_bowl(ev, i)],
                     "value": int(P[0, L.F_BOWL_SUM]), "vp": int(P[0, L.F_BOWL_SUM]) // 2}}
           if int(P[0, L.F_BOWL_N]) or any(r[2] == L.EV_BOWL for r in ev) else {}),
        "rules": rs.name,
        "overrides": list(rs.overrides),
        "events": [e for e in events if e],
    }


def _flasked_from_bowl(ev, i: int) -> bool:
    """Whether the flask sent bowl event i's chip back (the flask event right after it, with an
    index past the last space)."""
    from sim.kernel import layout as L

    return i + 1 < len(ev) and int(ev[i + 1, 2]) == L.EV_FLASK and int(ev[i + 1, 4]) > 52


def _beside(P) -> np.ndarray:
    """Per-type counts of the red chips left beside the pot (red Set 2)."""
    from sim.kernel import layout as L

    counts = np.zeros(chips.N_TYPES, dtype=np.int64)
    counts[chips.R1 : chips.R1 + 3] = P[0, L.ASIDE : L.ASIDE + 3]
    return counts


def _card_gain_text(kind: int, b: int) -> str:
    """Text of a card's effect event (kinds declared in sim.rules.card_numbers.CARD_GAINS, their
    texts in sim.rules.cards.GAIN_TEXTS)."""
    from sim.rules.card_numbers import CARD_GAINS
    from sim.rules.cards import GAIN_TEXTS

    name = chips.chip_name(b) if 0 <= b < chips.N_TYPES else ""
    text = GAIN_TEXTS.get(CARD_GAINS[kind], "") if 0 <= kind < len(CARD_GAINS) else ""
    return text.format(b=b, chip=name)


def _event_text(code: int, a: int, b: int, c: int = 0) -> str:
    from sim.kernel import layout as L

    if code in (L.EV_BLUE_ORANGE, L.EV_BLUE_WHITE):  # blue Sets 5, 6: the declared text
        from sim.api.events import event_dict, event_text

        return event_text(event_dict((0, -1, code, a, b, c)), [])
    name = chips.chip_name(a) if 0 <= a < chips.N_TYPES else "none"
    return {
        L.EV_RED: f"{name}: {'takes' if c else 'declines'} +{b} extra",
        L.EV_ASIDE: f"{name} set beside the pot",
        L.EV_RED_AFTER: (f"{name} placed after the last chip -> space {c}" if b == 0 else
                         f"{name} kept beside the pot" if b == 1 else
                         f"{name} returned to the bag"),
        L.EV_PROTECT: f"protected for the next {a} draws",
        L.EV_PROTECTED: "explosion inside the protection window: VP and coins both count",
        L.EV_BLUE_RUBY: f"blue on a ruby space: +{a} ruby",
        L.EV_BLUE_VP: f"blue on a ruby space: +{a} VP",
        L.EV_DOUBLE: "the next chip moves twice as far",
        L.EV_LIMIT: f"explosion limit now {a}",
        L.EV_CARD_GAIN: _card_gain_text(a, b),
        L.EV_CARD_LOOK: f"card looks at {name}",
        L.EV_PLACE: f"{name} -> space {b}",
        L.EV_EXPLODE: f"explode (white total {a})",
        L.EV_BLUE_LOOK: f"blue looks at {name}",
        L.EV_BLUE_PICK: f"blue places {name}" if a >= 0 else "blue places nothing",
        L.EV_YELLOW: f"yellow returns {name} from space {b} to the bag",
        L.EV_FLASK: f"flask returns {name} from space {b} to the bag",
        L.EV_STOP: f"stop, reward space {b}",
        L.EV_BOWL: f"{name} into the overflow bowl (value {b})",
    }.get(code, "")
