"""What access to each ingredient colour is worth (``quacks balance``, books).

Design. The reference arm plays the field on deals 0..deals-1 (``sim.study.balance.arms``). For
each colour sold with the ruleset's books (a chip of that colour has a price), the restricted
arms are the same deals and seats with one member of the field forbidden to buy the colour, in
the seat of its first occurrence, which rotates from deal to deal
(``sim.study.balance.restricted``: each distinct spec in an arm of its own, weighed by its
seats). A strategy is forbidden a colour by taking the colour's chips out of its ``buy``
parameter, the list its buyer keeps to (priority, expensive, value, per-coin and marginal
buyers; every built-in strategy but ``random`` has one, and so may a user strategy). A
strategy without a ``buy`` parameter, or one whose buyer ignores it (``buyer=random``,
``master:buy_by=model``, a user buying slot function) cannot be restricted: a MeasureError says
so (the restricted seat must buy none of the colour, which is checked). A list left empty
becomes ``buyer=none``. Chips of the colour a card, the die or a witch gives are still taken:
this measures buying.

- ``win_share``, ``vp``: the restricted seat's win share (a shared win counts 1/k) and final VP
  minus the same seat's in the reference arm, paired by deal and seat (the seat advantage is on
  both sides and cancels), with a 95% t interval over deals; negative: access to the colour is
  worth that much.
- ``winner_buy_share``: in the reference arm, the share of the chips the winners bought that are
  of this colour (each winner weighed by its win share), a ratio over deals with its Wilson
  interval at the cluster effective sample size.

``rank``: 1 for the colour most worth buying (the one whose loss costs the seat the most win
share: the most negative ``win_share``; ties share a rank), with its 95% interval
``rank_lo``/``rank_hi`` (a bootstrap over deals, ``sim.study.balance.ranks``). ``games``: games
of the restricted arms of the colour; ``deals``: deals paired.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.rules import chips
from sim.rules.ruleset import Ruleset, load_ruleset
from sim.stats.clusters import ratio_mean_var, share_interval
from sim.study.balance.arms import ArmGames, MeasureError, arm_plan, play_arm, seated_field
from sim.study.balance.paired import diff_columns, interval_names
from sim.study.balance.ranks import RANK_COLUMNS, rank_columns
from sim.study.balance.restricted import restricted_effects, with_param

METRICS = ("win_share", "vp")
RANK_BY = "win_share"  # rank 1: the colour whose loss costs the most win share
COLUMNS = ["colour", *interval_names((*METRICS, "winner_buy_share")), *RANK_COLUMNS, "games",
           "deals"]


def bought(colour: str) -> str:
    """The games-table column of the chips of a colour a seat bought."""
    return f"bought_{colour}"


def sold_colours(ruleset: Ruleset) -> list[str]:
    """The colours with a chip for sale under the ruleset's books, in colour order."""
    sold = {int(chips.TYPE_COLOUR[t]) for t in range(chips.N_TYPES) if ruleset.price[t] >= 0}
    return [name for c, name in enumerate(chips.COLOUR_NAMES) if c in sold and c != chips.WHITE]


def forbid(spec: str, colour: str) -> str:
    """``spec`` with the chips of ``colour`` out of its buy list (``buyer=none`` if that empties
    it; the spec itself if the list has none); MeasureError for a strategy without a buy list or
    whose buyer does not keep to it."""
    from strategies.builtin import parse_strategy

    v = parse_strategy(spec).values
    if "buy" not in v:
        raise MeasureError(f"strategy {spec!r} has no buy list: it cannot be forbidden a colour")
    if v.get("buyer") == "random" or v.get("buy_by") == "model":
        raise MeasureError(f"strategy {spec!r} buys without keeping to its buy list: it cannot "
                           "be forbidden a colour")
    c = chips.COLOUR_NAMES.index(colour)
    kept = [x for x in v["buy"] if chips.TYPE_COLOUR[chips.parse_chips(x)[0]] != c]
    if kept == list(v["buy"]):
        return spec  # it never buys the colour: nothing to restrict
    if not kept:
        return with_param(spec, "buyer", "none")
    return with_param(spec, "buy", ">".join(kept))


def winner_buy_shares(ref: ArmGames, colours: list[str]) -> dict[str, dict[str, float]]:
    """Per colour, the share of the winners' bought chips of that colour (see the module)."""
    w = ref.cols["win_share"].astype(np.float64)
    total = sum(ref.cols[bought(c)].astype(np.float64) for c in chips.COLOUR_NAMES
                if bought(c) in ref.cols)
    N = ref.per_deal((w * total).sum(axis=1))
    out = {}
    for c in colours:
        X = ref.per_deal((w * ref.cols[bought(c)]).sum(axis=1))
        m, v = ratio_mean_var(X.sum(), N.sum(), (X * X).sum(), (X * N).sum(), (N * N).sum(),
                              ref.deals)
        lo, hi = share_interval(m, v, ref.deals, n=N.sum() * ref.plan.games_per_deal)
        out[c] = {"winner_buy_share": float(m), "winner_buy_share_lo": float(lo[0]),
                  "winner_buy_share_hi": float(hi[0])}
    return out


def book_effects(rules: str, overrides: list[str], players: int, field: list[str], deals: int,
                 seed: int, backend) -> pd.DataFrame:
    """One row per colour for sale (see the module): ``colour``, ``win_share``, ``vp``,
    ``winner_buy_share`` (each with ``_lo``/``_hi``), ``games``, ``deals``. ``backend``: an
    entered backend (None: this process)."""
    rs = load_ruleset(rules, list(overrides))
    colours = sold_colours(rs)
    seated = seated_field(field, players)
    for s in dict.fromkeys(seated):  # every member can be restricted, before anything is played
        forbid(s, colours[0])
    cols = [bought(c) for c in chips.COLOUR_NAMES if c != "white"]
    ref = play_arm(arm_plan(rules, overrides, seated, deals, seed), backend,
                   ["win_share", "vp", *cols])
    shares = winner_buy_shares(ref, colours)
    rows, worth = [], []
    for colour in colours:
        def kept_out(arm: ArmGames, seats: np.ndarray, spec: str, colour=colour) -> None:
            n = int(np.where(seats, arm.cols[bought(colour)], 0).sum())
            if n:
                raise MeasureError(f"strategy {spec!r} bought {n} {colour} chips with {colour} "
                                   "out of its buy list: its buyer does not keep to the list")

        effect, games = restricted_effects(ref, backend, lambda s, c=colour: forbid(s, c),
                                           METRICS, [bought(colour)], kept_out)
        row = {"colour": colour}
        for m in METRICS:
            row.update(diff_columns(m, effect[m]))
        row.update(shares[colour], games=games, deals=ref.deals)
        rows.append(row)
        worth.append(-effect[RANK_BY])
    ranks = rank_columns(np.column_stack(worth), lambda means: means, seed, "books")
    return pd.DataFrame(rows).assign(**ranks)[COLUMNS]
