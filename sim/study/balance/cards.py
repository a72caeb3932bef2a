"""What each fortune-teller card does to a game (``quacks balance``, cards): every card of the
ruleset's deck (the 24 of the base game, 27 with the herb witches) forced into one round of
every game (``cards.force``) against the same deals unforced.

Design. Each card is an arm: the field on deals 0..deals-1 (``sim.study.balance.arms``) with
``cards.force = <card>`` and ``cards.force_round = 0``, so each deal plays the card in a round of
its own, drawn uniformly from rounds 1..rounds from a random stream nothing else uses; the
reference arm is the same deals with no card forced. Deal d's round K is the same in every arm,
and the forced card takes round K's place by a swap: the game is the reference game with this
card in round K instead of the card that would have come (that card moves to the forced card's
old place; with ``cards.deck = false`` the reference round K has no card). So an effect is the
card against the card it displaced, averaged over the deck and over rounds; with the deck off
it is the card against no card.

Metrics, each a paired difference per deal (forced minus reference) with its 95% t interval over
deals (``sim.study.balance.paired``):

- ``vp``: the change in mean final VP over all seats;
- ``explosions``: the change in explosions per potion (every seat, every round);
- ``trailing_win``: the change in the win share of the player last after round K-1, the player
  trailing before the card comes (a shared win counts 1/k; players tied last share, i.e. their
  mean win share; before round 1 every player is tied, so a card forced into round 1 leaves it
  at 1/players). Each arm finds its own trailing player: when the forced card would have come
  before K, the swap changes round K's card's old round too, and so the rounds before K.

Rank: 1 is the card with the largest ``score``, the root mean square of the three effects each
divided by its metric's standard deviation over the reference arm's deals (a standardised
effect: how far the card moves each metric in units of how much it varies from deal to deal);
ties share a rank. ``rank_lo`` and ``rank_hi``: the rank's 95% interval, a bootstrap over deals
that recomputes every card's score from the resampled deals' per-deal values
(``sim.study.balance.ranks``). ``games`` and ``deals``: games and deals of each card's arm (the
reference arm plays the same deals once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from sim.api.forced_card import forced_rounds
from sim.rules.cards import CARDS, in_deck
from sim.rules.ruleset import load_ruleset
from sim.study.balance.arms import ArmGames, arm_plan, play_arm, seated_field
from sim.study.balance.paired import diff_columns, interval_names
from sim.study.balance.ranks import RANK_COLUMNS, rank_columns

METRICS = ("vp", "explosions", "trailing_win")
COLUMNS = ["card", "name", *interval_names(METRICS), "score", *RANK_COLUMNS, "games", "deals"]


def deck_cards(rules: str, overrides: Sequence[str]) -> list:
    """The cards a game of this ruleset can deal (``sim.rules.cards.CARDS`` in order): every
    base card, and the witch-hat ones with the witches."""
    witches = load_ruleset(rules, list(overrides)).data["witches"]["enabled"]
    return [c for c in CARDS if in_deck(c, witches)]


def per_deal_metrics(arm: ArmGames, forced: np.ndarray) -> dict[str, np.ndarray]:
    """Per deal, the mean of each metric over the deal's games; ``forced`` is each game's
    forced round K (the trailing player is the last after round K - 1)."""
    vp = arm.cols["vp"].astype(np.float64)
    expl = arm.cols["explosions"].astype(np.float64)
    share = arm.cols["win_share"].astype(np.float64)
    k = np.asarray(forced, np.int64)
    score = np.zeros_like(share)
    later = k > 1
    score[later] = arm.score[np.nonzero(later)[0], k[later] - 2, :]
    last = score == score.min(axis=1, keepdims=True)
    return {"vp": arm.per_deal(vp.mean(axis=1)),
            "explosions": arm.per_deal(expl.mean(axis=1) / arm.plan.rounds),
            "trailing_win": arm.per_deal((share * last).sum(axis=1) / last.sum(axis=1))}


def rank_scores(effects: np.ndarray, reference_sd: np.ndarray) -> np.ndarray:
    """Per card the root mean square of its effects (cards, metrics) over the reference's
    per-deal standard deviation of each metric (a metric that never varies counts 0, or
    infinitely much if the card moves it)."""
    e = np.asarray(effects, np.float64)
    sd = np.asarray(reference_sd, np.float64)
    z = np.where(sd > 0, e / np.where(sd > 0, sd, 1.0), np.where(e == 0, 0.0, np.inf))
    return np.sqrt((z * z).mean(axis=-1))


def score_of_means(cards: int, deals: int) -> Callable[[np.ndarray], np.ndarray]:
    """The cards' scores from the means over deals (draws, columns) of :func:`score_columns`:
    the effects, then each metric's reference value and its square (for the standard
    deviation over deals, ``deals - 1`` in the denominator)."""
    k = len(METRICS)

    def score(means: np.ndarray) -> np.ndarray:
        e = means[:, :cards * k].reshape(-1, cards, k)
        m1, m2 = means[:, cards * k:cards * k + k], means[:, cards * k + k:]
        var = np.maximum(m2 - m1 * m1, 0.0) * deals / max(deals - 1, 1)
        return rank_scores(e, np.sqrt(var)[:, None, :])
    return score


def score_columns(diffs: list[dict[str, np.ndarray]], base: dict[str, np.ndarray]) -> np.ndarray:
    """(deals, columns): every card's per-deal effect on each metric, then each metric's
    per-deal reference value and its square: what a card's score is computed from."""
    cols = [d[m] for d in diffs for m in METRICS]
    cols += [base[m] for m in METRICS] + [base[m] ** 2 for m in METRICS]
    return np.column_stack(cols)


def card_effects(rules: str, overrides: list[str], players: int, field: list[str], deals: int,
                 seed: int, backend) -> pd.DataFrame:
    """One row per card of the deck, ranked (see the module): ``card``, ``name``, ``vp``,
    ``explosions``, ``trailing_win`` (each with ``_lo``/``_hi``), ``score``, ``rank``,
    ``games``, ``deals``. ``backend``: an entered backend
    (``sim.study.tournament.backend.make_backend``; None: this process)."""
    seated = seated_field(field, players)
    cards = deck_cards(rules, overrides)
    spread = [*overrides, "cards.force_round=0"]

    def arm(force: str):
        plan = arm_plan(rules, [*spread, f'cards.force="{force}"'], seated, deals, seed,
                        rounds=True)
        return play_arm(plan, backend, ["vp", "explosions", "win_share"])

    ref = arm("")
    k = forced_rounds(ref.plan.ruleset, seed, np.arange(ref.deals))
    k = np.repeat(k, ref.plan.games_per_deal)
    base = per_deal_metrics(ref, k)
    rows, diffs = [], []
    for c in cards:
        a = arm(c.id)
        x = per_deal_metrics(a, k)
        diffs.append({m: x[m] - base[m] for m in METRICS})
        row = {"card": c.id, "name": c.name}
        for m in METRICS:
            row.update(diff_columns(m, diffs[-1][m]))
        row.update(games=a.games, deals=a.deals)
        rows.append(row)
    df = pd.DataFrame(rows)
    Y, score = score_columns(diffs, base), score_of_means(len(cards), ref.deals)
    df["score"] = score(Y.mean(axis=0)[None, :])[0]  # rank_scores over the deals' means
    df = df.assign(**rank_columns(Y, score, seed, "cards"))
    return df.sort_values(["rank", "rank_hi"], kind="stable").reset_index(drop=True)[COLUMNS]
