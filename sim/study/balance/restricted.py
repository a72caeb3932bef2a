"""One member of the field restricted (a strategy parameter changed in one seat) against the same
field unrestricted, paired by deal and seat: what the book and witch measurements share.

Each distinct spec of the field is restricted in an arm of its own, in the seat of its first
occurrence; the arms seat the field as the unrestricted arm does (``sim.study.balance.arms``), so
in every deal the restricted member sits in the same seat as its unrestricted self, and the seat
rotates from deal to deal: the seat advantage is the same on both sides of every difference and
cancels, and the effect is an average over the seats. A spec that fills k of the n seats weighs
k/n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.study.balance.arms import ArmGames, MeasureError, arm_plan, play_arm


def with_param(spec: str, key: str, value: str) -> str:
    """``spec`` with its parameter ``key`` set to ``value`` (replacing a value the spec gives);
    MeasureError if the strategy has no such parameter."""
    from strategies.builtin import parse_strategy, split_params

    name, _, rest = spec.strip().partition(":")
    if key not in parse_strategy(spec).values:
        raise MeasureError(f"strategy {spec!r} has no {key} parameter")
    items = [i for i in split_params(rest) if i.partition("=")[0].strip() != key]
    return f"{name}:{','.join([*items, f'{key}={value}'])}"


def members(seated: Sequence[str]) -> list[tuple[int, str, float]]:
    """The field's distinct specs: (first seat, spec, share of the seats)."""
    n = len(seated)
    return [(seated.index(s), s, seated.count(s) / n) for s in dict.fromkeys(seated)]


def restricted_effects(base: ArmGames, backend, restrict: Callable[[str], str],
                       metrics: Sequence[str], columns: Sequence[str] = (),
                       check: Callable[[ArmGames, np.ndarray, str], None] | None = None,
                       ) -> tuple[dict[str, np.ndarray], int]:
    """Per deal, for each games-table metric, the restricted member's value minus the same seat's
    in ``base`` (the unrestricted arm), over the field's distinct members as weighed above; and
    the games of the restricted arms. ``restrict(spec)`` gives the restricted spec (the spec
    itself: no change, no arm played); ``check(arm, seats, spec)`` may look at each restricted
    arm (``columns`` are kept for it) and raise."""
    cfg = base.plan.config
    seated = list(cfg.strategies)
    effect = {m: np.zeros(base.deals) for m in metrics}
    games = 0
    for j, spec, weight in members(seated):
        r = restrict(spec)
        if r == spec:
            continue
        if r in seated:
            raise MeasureError(f"restricting {spec!r} gives {r!r}, which another seat plays; give "
                               "the field without it")
        seats = [*seated[:j], r, *seated[j + 1:]]
        plan = arm_plan(cfg.rules, cfg.overrides, seats, base.deals, cfg.seed,
                        rounds=cfg.detail == "rounds")
        arm = play_arm(plan, backend, [*metrics, *columns])
        games += arm.games
        mask = arm.seats_of(r)
        if check is not None:
            check(arm, mask, spec)
        for m in metrics:
            diff = (np.where(mask, arm.cols[m], 0).sum(axis=1)
                    - np.where(mask, base.cols[m], 0).sum(axis=1))
            effect[m] += weight * arm.per_deal(diff)
    return effect, games

