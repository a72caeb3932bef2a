"""The potion question as a Python API: with this bag and this stop policy, how often does the pot
explode and where does the potion end? Sampled with the Numba kernel, or exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.api.exact import MAX_STATES, Setup, exact_distribution, sub_bag_count
from sim.api.rules_array import rules_scalars
from sim.kernel.decisions import slots as S
from sim.kernel.layout import (
    MAX_CHIPS,
)
from sim.kernel.potions import (
    BOWL_ROWS,
    BREW_AT,
    BREW_SUM_AT,
    HIST_ROWS,
    VP_AT,
    potion_histograms,
)
from sim.rules import chips
from sim.rules.book_files import chosen_flag
from sim.rules.chip_limits import parse_chips_capped
from sim.rules.ruleset import SET_COLOURS, Ruleset
from sim.rules.track import TRACK_LEN
from sim.stats.intervals import mean_ci, t_ci, wilson
from strategies.builtin import DEFAULT_COIN_VALUE, blank_arrays, parse_stop_policy, parse_strategy
from strategies.registry import slot_table

DEFAULT_CHUNKS = 64
PIECE_SECONDS = 0.25  # sample() works in pieces this long: Ctrl-C and progress between them
OPTIMAL_PIECE_SECONDS = 30.0  # the optimal stopper's memo restarts with every piece
FIRST_PIECE = 4096


class PotionInputError(ValueError):
    """Bad input to a potion query; the message says what would be right."""


@dataclass(frozen=True)
class PotionQuery:
    """A validated potion question."""

    bag: list[int]
    stop: str
    flask: int | None
    start: int
    ruleset: Ruleset
    card: int = 0  # fortune-teller card number (0 none): its draw-time rule applies

    def arrays(self):
        """(R, SK, SP) for the kernel: a one-seat strategy with this stop policy and flask."""
        kind, row = parse_stop_policy(self.stop)
        kinds, params = blank_arrays()
        kinds[S.SLOT_STOP] = kind
        params[S.SLOT_STOP] = row
        if kind >= S.USER_BASE and kind != S.STOP_OPTIMAL:
            params[S.SLOT_CUSTOM] = parse_strategy(self.stop).params[S.SLOT_CUSTOM]
        if self.flask is not None:
            kinds[S.SLOT_FLASK] = S.FLASK_MIN
            params[S.SLOT_FLASK, 0] = self.flask
        else:
            kinds[S.SLOT_FLASK] = S.FLASK_NEVER
        kinds[S.SLOT_BLUE] = S.BLUE_BEST
        kinds[S.SLOT_YELLOW] = S.YELLOW_ALWAYS
        from sim.kernel import layout as L

        R = rules_scalars(self.ruleset)
        R[L.R_POTION_CARD] = self.card
        return R, kinds[None, :], params[None, :, :]


def has_bowl(q: PotionQuery) -> bool:
    """Whether the query's ruleset has the overflow bowl (Herb Witches)."""
    return bool(q.ruleset.game("overflow_bowl"))


def bowl_reachable(q: PotionQuery) -> bool:
    """Whether a chip could reach the last space from the start with this bag (every chip drawn,
    each red chip with its largest pumpkin bonus): only then can the overflow bowl matter."""
    reach = q.start + sum(int(chips.TYPE_VALUE[t]) + (2 if chips.TYPE_COLOUR[t] == chips.RED else 0)
                          for t in q.bag)
    return has_bowl(q) and reach >= int(q.ruleset.data["track"]["last_chip_space"])


def exact_supported(q: PotionQuery) -> bool:
    """Whether exact enumeration (and the optimal stopper) covers this query: Set 1 books, no card,
    no overflow bowl within reach (the reference ends a potion on the last space), and no
    locoweed with a locoweed book (the reference moves a locoweed 1)."""
    locoweed = chips.L1 in q.bag and int(q.ruleset.data["books"]["locoweed"]) in (5, 6)
    return (q.card == 0 and all(int(q.ruleset.data["books"][c]) == 1 for c in SET_COLOURS)
            and not bowl_reachable(q) and not locoweed)


def make_query(bag_spec: str, stop: str, flask: int | None, start: int, ruleset: Ruleset,
               card: str | None = None) -> PotionQuery:
    """Parse and validate the inputs of a potion query (raises PotionInputError / BagSpecError)."""
    starting = ruleset.game("starting_bag")
    bag = parse_chips_capped(bag_spec, what="bag", starting=starting, most=MAX_CHIPS)
    if not bag:
        raise PotionInputError("bag is empty; give at least one chip, e.g. --bag start")
    parse_stop_policy(stop)
    if start < 0:
        raise PotionInputError(f"--start {start}: must be 0 or more (a space on the 0..52 track)")
    if start > 52:
        raise PotionInputError(f"--start {start}: the last chip space is 52")
    if flask is not None and not 1 <= flask <= 3:
        raise PotionInputError(f"--flask {flask}: white chips have values 1, 2 and 3")
    return PotionQuery(bag=bag, stop=stop, flask=flask, start=start, ruleset=ruleset,
                       card=potion_card_number(card))


def potion_card_number(card: str | None) -> int:
    """The kernel number of ``--card`` (0 for none); PotionInputError for an unknown card or one
    that does nothing while a potion is brewed (its effect is before the round, at its end, or
    on the other players), naming the cards a single potion plays (``Card.draw_time``)."""
    from sim.rules.cards import CARD_IDS, DRAW_TIME_CARDS, card_number

    if card is None:
        return 0
    if card in DRAW_TIME_CARDS:
        return card_number(card)
    why = ("has no effect while a potion is brewed" if card in CARD_IDS else "no such card")
    raise PotionInputError(f"--card {card}: {why}; a single potion plays only "
                           f"{', '.join(DRAW_TIME_CARDS)}")


def card_id(q: PotionQuery) -> str | None:
    """The id of the card the query's potion is brewed under, or None."""
    from sim.rules.cards import card_numbered

    c = card_numbered(q.card)
    return c.id if c is not None else None


def sample(q: PotionQuery, n: int, seed: int, chunks: int = DEFAULT_CHUNKS, *,
           progress: Callable[[int, int], None] | None = None,
           piece_seconds: float = PIECE_SECONDS, full: bool = False) -> np.ndarray:
    """Histogram counts[reward space, outcome] of n sampled potions; outcome 0 intact, 1 exploded,
    2 exploded inside a blue Set 2 protection window (VP and coins both count). ``full``: the
    rows after the 54 spaces too (``sim.kernel.potions``): 54 + b counting the potions whose
    overflow bowl scores b VP (they are in row 53 too), ``VP_AT`` + v those that score v VP in
    all (space, bowl and what the chips scored while brewing), ``BREW_AT`` + v those whose chips
    scored v VP while brewing, ``BREW_SUM_AT`` + s the VP the chips of the potions ending on
    space s scored; :func:`summarize` and :func:`hist_value` read them.

    Potion i uses random stream (seed, i), so the counts are the same however the index range
    is split: it is worked through in pieces of about ``piece_seconds`` each (one compiled call
    each, ``chunks`` threads' chunks inside), so Ctrl-C (KeyboardInterrupt) is seen between
    pieces, and ``progress(done, n)`` is called after every piece.
    """
    R, SK, SP = q.arrays()
    bag = np.array(q.bag, dtype=np.int64)
    limit = int(q.ruleset.game("explosion_limit"))
    flask = 1 if q.flask is not None else 0
    uf = slot_table(SK)
    hist = np.zeros((HIST_ROWS, N_OUTCOMES), dtype=np.int64)
    done, step = 0, min(n, FIRST_PIECE)
    while done < n:
        m = min(step, n - done)
        t = time.perf_counter()
        hist += potion_histograms(np.uint64(seed), done, m, bag, q.start, limit, flask, R, SK, SP,
                                  max(1, min(chunks, m)), *uf)
        dt = time.perf_counter() - t
        done += m
        if progress is not None:
            progress(done, n)
        # the next piece: about piece_seconds at the rate just seen (at most 8 times bigger)
        step = max(1, min(8 * m, int(m * piece_seconds / dt) if dt > 0 else 8 * m))
    return hist if full else hist[:TRACK_LEN]


def is_optimal(q: PotionQuery) -> bool:
    """True when the query's stop rule is the compiled optimal stopper."""
    return parse_stop_policy(q.stop)[0] == S.STOP_OPTIMAL


def sample_optimal(q: PotionQuery, n: int, seed: int,
                   progress: Callable[[int, int], None] | None = None,
                   full: bool = False) -> np.ndarray:
    """:func:`sample` for the compiled optimal stopper: one chunk a thread and pieces of about
    30 s, so each chunk's memo of solved states stays warm over many potions (a fresh memo per
    chunk and piece makes it many times slower). The counts are those of :func:`sample`."""
    import numba

    return sample(q, n, seed, chunks=numba.get_num_threads(), progress=progress,
                  piece_seconds=OPTIMAL_PIECE_SECONDS, full=full)


def exact_setup(q: PotionQuery, stop: str | None = None, *, coin_value: float | None = None,
                ruby_value: float | None = None) -> Setup:
    """The exact reference's setup for this query (and another stop rule, if given).

    The value of a reward space (for the ev and optimal rules, and for regrets) comes from the
    stop rule's parameters, or from ``coin_value`` / ``ruby_value`` when given.
    """
    kind, row = parse_stop_policy(stop or q.stop)
    if kind >= S.USER_BASE and kind != S.STOP_OPTIMAL:
        raise PotionInputError(
            f"stop rule '{stop or q.stop}' is a user strategy: it can be sampled but not "
            f"enumerated exactly; drop --exact"
        )
    g = q.ruleset.data["game"]
    uses_value = kind in (S.STOP_EV, S.STOP_OPTIMAL)
    cv = (coin_value if coin_value is not None
          else (float(row[0]) if uses_value else DEFAULT_COIN_VALUE[0]))
    rv = (ruby_value if ruby_value is not None
          else (float(row[S.P_RUBY_VALUE]) if uses_value else 0.5))
    return Setup(
        start=q.start,
        limit=int(g["explosion_limit"]),
        last=int(q.ruleset.data["track"]["last_chip_space"]),
        stop_kind=kind,
        stop_param=float(row[0]),
        flask_min=q.flask or 0,
        flask_reuse=g["flask_space"] == "reuse",
        coins=tuple(int(x) for x in q.ruleset.coins),
        vp=tuple(int(x) for x in q.ruleset.vp),
        ruby=tuple(int(x) for x in q.ruleset.ruby),
        coin_value=cv,
        ruby_value=rv,
    )


def exact(q: PotionQuery) -> np.ndarray:
    """Probabilities [reward space, outcome] computed exactly (raises TooLargeError); exact odds
    cover the Set 1 books, so the protected column is 0."""
    return dist_to_hist(exact_distribution(chips.counts_of(q.bag), exact_setup(q)))


def dist_to_hist(dist: dict) -> np.ndarray:
    """An exact {(reward space, exploded): p} distribution as a [reward space, outcome] array."""
    out = np.zeros((TRACK_LEN, N_OUTCOMES), dtype=np.float64)
    for (space, exploded), p in dist.items():
        out[space, exploded] += float(p)
    return out


def outcome_values(q: PotionQuery, coin_value: float, ruby_value: float) -> np.ndarray:
    """The value of ending in each [reward space, outcome] (VP + coins x ``coin_value`` + ruby x
    ``ruby_value``; an exploded pot takes the better of VP and coins, a protected explosion (blue
    Set 2) is worth what an intact potion is): what the optimal stopper maximises."""
    base = exact_setup(q, "never", coin_value=coin_value, ruby_value=ruby_value)
    return np.array([[base.value(sp, 0), base.value(sp, 1), base.value(sp, 0)]
                     for sp in range(TRACK_LEN)])


def hist_value(hist: np.ndarray, values: np.ndarray, *, is_exact: bool):
    """(expected value, 95% interval or None) of a histogram: probabilities when exact, counts
    when sampled; ``values`` from :func:`outcome_values`. A sampled histogram with every row
    (``sample(full=True)``) adds the VP each potion's chips scored while brewing, whatever its
    outcome (scored at once, not part of an exploded pot's choice); its interval is from each
    potion's value in all (the chips' VP summed by reward space gives the covariance)."""
    cells = hist[:TRACK_LEN]
    if is_exact:
        return float((cells * values).sum() / cells.sum()), None
    if not scores_while_brewing(hist):
        ev, ci = mean_ci(values.ravel(), cells.ravel())
        return ev, list(ci)
    brew = brewing_counts(hist)
    b = np.arange(len(brew), dtype=np.float64)
    s1 = float((cells * values).sum() + (b * brew).sum())
    s2 = float((cells * values ** 2).sum()
               + 2 * (values * hist[BREW_SUM_AT:BREW_SUM_AT + TRACK_LEN]).sum()
               + (b * b * brew).sum())
    ev, ci = t_ci(s1, s2, float(cells.sum()))
    return ev, list(ci)


def brewing_counts(hist: np.ndarray) -> np.ndarray | None:
    """Counts of the potions whose chips scored v VP while brewing (index v), from a histogram
    with every row (``sample(full=True)``); None for a histogram of the 54 spaces only."""
    if hist.shape[0] < HIST_ROWS:
        return None
    return hist[BREW_AT:BREW_SUM_AT].sum(axis=1)


def scores_while_brewing(hist: np.ndarray) -> bool:
    """Whether the chips of some potion of a histogram with every row scored VP while brewing."""
    brew = brewing_counts(hist)
    return brew is not None and bool(brew[1:].any())


N_OUTCOMES = 3  # histogram columns: intact, exploded, exploded but protected (blue Set 2)
DEFAULT_COMPARE = ("white:5", "white:6", "white:7", "risk:0.1", "risk:0.2", "risk:0.3", "ev",
                   "optimal")


def regret(q: PotionQuery, rules: list[str] | tuple[str, ...] = DEFAULT_COMPARE, *,
           coin_value: float,
           ruby_value: float, n: int, seed: int, exact_if_possible: bool = True,
           n_optimal: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> dict:
    """Expected value of each stop rule against the optimal stopper's, for this bag and start.

    Every rule is valued with the same value of a reward space (VP + coins x ``coin_value`` +
    ruby x ``ruby_value``; an exploded pot takes the better of VP and coins). Exact when the bag
    is small enough to enumerate, else sampled (``n`` potions each; the optimal stopper, which
    solves the potion at every draw, samples ``n_optimal``) with 95% intervals; a sampled value
    adds the VP the chips scored while brewing (:func:`hist_value`).
    ``progress(rules done, rules)`` is called after every rule.
    """
    rules = list(rules)
    if "optimal" not in [r.split(":")[0] for r in rules]:
        rules.append("optimal")
    value_params = f"coin={coin_value:g},ruby={ruby_value:g}"
    specs = [f"{r}:{value_params}" if r in ("ev", "optimal") else r for r in rules]
    counts = chips.counts_of(q.bag)
    can_exact = exact_if_possible and exact_supported(q) and sub_bag_count(counts) <= MAX_STATES
    rows = []
    values = outcome_values(q, coin_value, ruby_value)
    for rule, spec in zip(rules, specs):
        qq = PotionQuery(bag=q.bag, stop=spec, flask=q.flask, start=q.start, ruleset=q.ruleset,
                         card=q.card)
        kind, _ = parse_stop_policy(spec)
        if can_exact and (kind < S.USER_BASE or kind == S.STOP_OPTIMAL):
            # the rule decides with its own parameters; every rule is valued with the same value
            hist = exact(qq)
            ev, ci = hist_value(hist, values, is_exact=True)
            row = {"rule": rule, "exact": True, "expected_value": ev, "expected_value_ci": ci,
                   "n": None}
        else:
            m = n_optimal if (n_optimal and rule.split(":")[0] == "optimal") else n
            hist = (sample_optimal(qq, m, seed, full=True) if kind == S.STOP_OPTIMAL
                    else sample(qq, m, seed, full=True))
            ev, ci = hist_value(hist, values, is_exact=False)
            hist = hist[:TRACK_LEN]
            row = {"rule": rule, "exact": False, "expected_value": ev, "expected_value_ci": ci,
                   "n": int(hist.sum())}
        tot = hist.sum()
        row["p_explode"] = float(hist[:, 1:].sum() / tot)
        row["expected_reward_space"] = float((hist.sum(axis=1) * np.arange(TRACK_LEN)).sum() / tot)
        rows.append(row)
        if progress is not None:
            progress(len(rows), len(rules))
    best = next(r for r in rows if r["rule"].split(":")[0] == "optimal")["expected_value"]
    for r in rows:
        r["regret"] = best - r["expected_value"]
    return {"bag": chips.format_counts(counts), "start": q.start, "flask": q.flask,
            "card": card_id(q), "value": {"coin": coin_value, "ruby": ruby_value, "vp": 1.0},
            "exact": can_exact,
            "ruleset": q.ruleset.name, "overrides": list(q.ruleset.overrides), "rules": rows}


def summarize(hist: np.ndarray, q: PotionQuery, *, is_exact: bool, seed: int | None) -> dict:
    """The JSON-ready answer from a histogram of counts (sampled) or probabilities (exact). A
    sampled histogram with every row (``sample(full=True)``) counts the VP a potion scores in all:
    its space's, its overflow bowl's (reported on its own, ``expected_bowl_vp``, when the ruleset
    has the bowl) and what its chips scored while brewing (``expected_brewing_vp``: a book or
    card that scores as a chip is placed); without them the expected VP is the space's."""
    rs = q.ruleset
    full = hist
    rows = hist[TRACK_LEN:] if hist.shape[0] > TRACK_LEN else None
    hist = hist[:TRACK_LEN]
    total = float(hist.sum())
    probs = hist / total
    spaces = np.arange(TRACK_LEN)
    p_explode = float(probs[:, 1:].sum())  # a protected pot exploded too
    reward_w = hist.sum(axis=1)
    coins_mean = float((probs.sum(axis=1) * rs.coins).sum())
    vp_values, vp_weights = rs.vp, reward_w
    if rows is not None:  # each potion's VP in all
        vp_weights = rows[VP_AT - TRACK_LEN:BREW_AT - TRACK_LEN].sum(axis=1)
        vp_values = np.arange(len(vp_weights))
    vp_mean = float((vp_values * vp_weights).sum() / total)
    out = {
        "bag": chips.format_counts(chips.counts_of(q.bag)),
        "stop": q.stop,
        "flask": q.flask,
        "start": q.start,
        "card": card_id(q),
        "rules": rs.name,
        "overrides": list(rs.overrides),
        "exact": is_exact,
        "n": int(total) if not is_exact else None,
        "seed": seed,
        "p_explode": p_explode,
        "expected_reward_space": float((reward_w * spaces).sum() / total),
        "expected_coins": coins_mean,
        "expected_vp": vp_mean,
    }
    if not is_exact:
        n = int(total)
        out["p_explode_ci"] = list(wilson(hist[:, 1:].sum(), n))
        m, ci = mean_ci(spaces, reward_w)
        out["expected_reward_space_ci"] = list(ci)
        out["expected_coins_ci"] = list(mean_ci(rs.coins, reward_w)[1])
        out["expected_vp_ci"] = list(mean_ci(vp_values, vp_weights)[1])
    brew = brewing_counts(full)
    if brew is not None:
        out["expected_brewing_vp"] = float((np.arange(len(brew)) * brew).sum() / total)
        out["expected_brewing_vp_ci"] = list(mean_ci(np.arange(len(brew)), brew)[1])
    if rows is not None and has_bowl(q):
        by_b = rows[:BOWL_ROWS].sum(axis=1)
        out["expected_bowl_vp"] = float((np.arange(len(by_b)) * by_b).sum() / total)
        out["p_bowl"] = float(by_b.sum() / total)
        bv = np.concatenate([[0], np.arange(len(by_b))])
        out["expected_bowl_vp_ci"] = list(
            mean_ci(bv, np.concatenate([[total - by_b.sum()], by_b]))[1])
        out["p_bowl_ci"] = list(wilson(by_b.sum(), int(total)))
    key = (lambda x: float(x)) if is_exact else (lambda x: int(x))
    out["distribution"] = {
        "intact": {str(s): key(hist[s, 0]) for s in range(TRACK_LEN) if hist[s, 0] > 0},
        "exploded": {str(s): key(hist[s, 1]) for s in range(TRACK_LEN) if hist[s, 1] > 0},
    }
    if chosen_flag("protects", rs.data["books"]):  # explosions protected: VP and coins
        out["distribution"]["protected"] = {str(s): key(hist[s, 2]) for s in range(TRACK_LEN)
                                            if hist[s, 2] > 0}
        out["p_protected"] = float(probs[:, 2].sum())
        if not is_exact:
            out["p_protected_ci"] = list(wilson(hist[:, 2].sum(), int(total)))
    out["distribution_unit"] = "probability" if is_exact else "count"
    return out
