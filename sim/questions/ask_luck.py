"""``sim.luck``: how much of a game's outcome is luck, and from which source (``quacks luck``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_rules import as_list
from sim.questions.report import Report
from sim.questions.running import RunOptions, open_run_backend, run_options, run_settings
from sim.study.luck.defaults import DEFAULT_GAMES, DEFAULT_PLAYERS, DEFAULT_STRATEGIES

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+

VARIANT_FORM = ("LABEL=RULES or LABEL=section.key=value;... or LABEL=RULES;section.key=value;... "
                "(a label has no dot)")


def parse_variant(text: str, rules: str, common: Sequence[str]):
    """A ``--variant``: ``LABEL=`` then ``;``-separated items, each a ruleset name or file (at
    most one; default ``rules``) or a ``section.key=value`` override (after ``common``)."""
    from sim.study.luck.design import LuckError, Variant

    head, sep, rest = text.partition("=")
    label = head.strip()
    if not sep or not label or "." in label:
        raise LuckError(f"--variant {text!r}: expected {VARIANT_FORM}, e.g. --variant "
                        "hw=herb-witches")
    items = [x.strip() for x in rest.split(";") if x.strip()]
    named = [x for x in items if "=" not in x]
    ovs = tuple(x for x in items if "=" in x)
    if len(named) > 1 or not items:
        raise LuckError(f"--variant {text!r}: expected {VARIANT_FORM}, e.g. --variant "
                        "hw=herb-witches")
    bad = [o for o in ovs if "." not in o.partition("=")[0]]
    if bad:
        raise LuckError(f"--variant {text!r}: '{bad[0]}' is not section.key=value")
    return Variant(label, named[0] if named else rules, (*common, *ovs))


@run_options
def luck(
    *,
    rules: Sequence[str] | str | None = None,
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    variant: Sequence[str] | str | None = None,
    players: int = DEFAULT_PLAYERS,
    strategies: Sequence[str] | str | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    out: str | Path | None = None,
    force: bool = False,
    **run: Unpack[RunOptions],
) -> Report:
    """How much of seat 0's outcome (win share, VP, rank) is luck and from which source
    (``quacks luck``): each source of randomness (each seat's bag, the bonus die, the deck,
    the witches, the strategies' own draws) and the seating (which strategy sits where: the
    skill side) gets its first-order and total Sobol index with a 95% interval, from one
    pick-freeze design of ``games`` games per variant; every pair of strategies in the lineup
    gets the best-of-N the stronger needs to win with 95% probability.

    ``rules`` (one ruleset or a list; default base; the first is the reference, labelled by its
    name) and ``set`` (one override or a list, applied to every variant); each further ruleset
    and each ``variant`` (``LABEL=RULES``, ``LABEL=section.key=value;...`` or both,
    ``;``-separated, based on the first ruleset) is played on the same rows beside the
    reference, with the differences of its indices. ``strategies``: specs,
    comma-separated or a list, cycled to ``players`` seats (default: a strong and a weak one).
    With ``out`` the report folder is written there; without it, to a temporary folder when
    first needed. The run options (``threads``, ``rules_file``, ``backend`` ..., the hooks) as in
    :func:`sim.sensitivity`. A bad argument raises a ValueError (``LuckError`` or the ruleset's,
    strategy parser's own) with the command's one line."""
    from sim.questions.ask_sensitivity import checked_out, study_report, study_setup, warm_seated
    from sim.questions.running import strategy_specs
    from sim.study.compare.config import default_label
    from sim.study.luck.design import LuckError, LuckSettings, Variant
    from sim.study.luck.report import plot_jobs, write_report
    from sim.study.luck.run import plan_luck, run_luck

    study_setup(LuckError, run, players=players, games=games, seed=seed)
    common = tuple(as_list(set))
    texts = tuple(as_list(variant))
    names = as_list(rules) or ["base"]
    variants = [Variant(default_label(r), r, common) for r in names]
    variants += [parse_variant(t, names[0], common) for t in texts]
    labels = [v.label for v in variants]
    if len(dict.fromkeys(labels)) < len(labels):
        opt = "--variant" if texts else "--rules"
        raise LuckError(f"{opt}: the labels {', '.join(labels)} repeat; give each its own")
    specs = tuple(strategy_specs(strategies)) if strategies is not None else DEFAULT_STRATEGIES
    settings = LuckSettings(
        variants=tuple(variants), players=players, strategies=specs, games=games, seed=seed,
        variant_texts=texts, rules=names[0], overrides=common, more_rules=tuple(names[1:]),
        **run_settings(run))
    plan = plan_luck(settings)
    target = checked_out(out, force, LuckError)
    for rs in plan.rulesets:
        warm_seated(rs, plan.seated, run["on_compile"])
    progress = run["progress"]
    with open_run_backend(run) as be:
        if progress is not None:
            progress(0, plan.games)
        res = run_luck(plan, backend=be, progress=progress)
    return study_report("luck", res, target, force=force, argv=run["argv"], write=write_report,
                        jobs=plot_jobs)

