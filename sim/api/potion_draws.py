"""A potion with its draws forced (``quacks potion --draws``): the list checked, brewed in that
order, and the placements, explosion, rewards and events read back."""

from __future__ import annotations

import numpy as np

from sim.api.event_table import event_by_code
from sim.api.events import event_dict, event_text
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
from sim.rules.event_declare import LAST_CHIP_SPACE
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
    decoded = [(event_by_code(int(row[2])), event_dict(row)) for row in ev]
    placements = [{"chip": chips.chip_name(int(P[0, L.POT_T + i])), "index": int(P[0, L.POT_P + i])}
                  for i in range(int(P[0, L.F_NPOT]))]
    # a chip sent back to the bag: by the flask, or by a rule's event that declares it returns one
    returned = [{"chip": d["chip"], "index": d["index"],
                 "by": "flask" if e.code == L.EV_FLASK else e.returns}
                for e, d in decoded if e is not None and (e.code == L.EV_FLASK or e.returns)]
    # each event's one declared text (a draw is the list's own); no seat names: one potion
    events = [event_text({k: v for k, v in d.items() if k != "seat"}, [])
              for e, d in decoded if e is None or e.code != L.EV_DRAW]
    reward = int(P[0, F_REWARD])
    rs = q.ruleset
    used = sum(1 for e, _ in decoded  # a draw, or a chip looked at (declared takes_draw)
               if e is not None and (e.code == L.EV_DRAW or e.takes_draw))
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
        **book_state(P, R),  # the books' state keys a single potion shows (declared)
        **({"bowl": {"chips": [chips.chip_name(int(ev[i, 3])) for i in range(len(ev))
                               if ev[i, 2] == L.EV_BOWL and not _flasked_from_bowl(ev, i)],
                     "value": int(P[0, L.F_BOWL_SUM]), "vp": int(P[0, L.F_BOWL_SUM]) // 2}}
           if int(P[0, L.F_BOWL_N]) or any(r[2] == L.EV_BOWL for r in ev) else {}),
        "rules": rs.name,
        "overrides": list(rs.overrides),
        "events": events,
    }


def _flasked_from_bowl(ev, i: int) -> bool:
    """Whether the flask sent bowl event i's chip back (the flask event right after it, with an
    index past the last space)."""
    from sim.kernel import layout as L

    return (i + 1 < len(ev) and int(ev[i + 1, 2]) == L.EV_FLASK
            and int(ev[i + 1, 4]) > LAST_CHIP_SPACE)


def book_state(P, R) -> dict[str, str]:
    """The books' round-file state keys a single potion shows (``state_key(..., potion=True)``),
    each from the ``write_state`` of the book the ruleset (``R``) chose, else of the first
    declaring it: what the book left after the potion, "" when nothing."""
    from sim.api.round_file import state_books
    from sim.rules.book_files import state_keys

    shown = {key for key, users in state_keys().items() if any(k.potion for _, k in users)}
    return {key: module.write_state(P, 0).get(key, "")
            for key, module in state_books(R) if key in shown}
