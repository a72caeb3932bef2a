"""``sim.compare``: the same field of strategies under two or more rulesets or variants, on the
same deals, with the paired differences to the first (``quacks compare``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.questions.ask_rules import as_list, load_rules_files
from sim.questions.report import Report
from sim.questions.running import check_ints, set_threads, strategy_specs, warm_games


def compare(
    *,
    rules: Sequence[str] | str | None = None,
    variant: Sequence[str] | str | None = None,
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    strategies: Sequence[str] | str | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int = 1,
    leader_round: int = 6,
    sequential: bool = False,
    width: float | None = None,
    out: str | Path | None = None,
    force: bool = False,
    threads: int | None = None,
    strategy_file: Sequence[str] | str | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_compile: Callable[[str], None] | None = None,
) -> Report:
    """Compare rulesets side by side (``quacks compare``): the same field on the same deals
    under each ruleset (``rules``: one name or TOML file, or a list; default base) and each
    ``variant`` (``"LABEL=section.key=value;..."``, the first ruleset with these overrides; one
    or a list); ``set`` applies to all. Score level and spread, explosions, game length, seat
    advantage, the round-``leader_round`` leader, each strategy's win share, and the paired
    differences to the first ruleset, each with its 95% interval and its counts.

    ``strategies`` is the field (comma-separated or a list; default the built-in presets);
    ``games`` per ruleset (default the tournament's; with ``sequential=True`` the budget: deals
    are played in batches until every question, each ruleset's difference to the first in mean
    VP, explosions per potion and each strategy's win share, is decided by a 95% anytime-valid
    confidence sequence (its interval excludes 0 or, with ``width``, is within +-width);
    ``result.sequential`` and the table ``sequential`` say how it stopped). With ``out`` the
    report folder is written there (new or empty, or any with ``force``); without it, to a
    temporary folder when first needed. The result's ``result`` is the study's ``CompareResult``
    (``to_json()`` is what ``--json`` prints, less ``out`` and ``files``); ``tables`` holds
    ``rulesets``, ``strategies``, ``differences`` and ``deals``. The same seed gives the same
    numbers as the command. ``progress(games, total)`` is called from 0 as the games go;
    ``on_compile(entry)`` before the game kernel is first used. Raises a ValueError with the
    command's one line on a bad argument (an OSError naming ``out`` when the report cannot be
    written); Ctrl-C (KeyboardInterrupt) writes nothing.
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad)."""
    load_rules_files(rules_file)
    from sim.study.compare.config import CompareError
    from sim.study.compare.plots import plot_jobs
    from sim.study.compare.run import check_out, plan_compare, run_compare

    check_ints(CompareError, players=players, games=games, seed=seed, leader_round=leader_round)
    set_threads(threads, CompareError)
    if out is not None and not str(out).strip():
        raise CompareError("--out '': empty; give a path")
    config = compare_config(rules, variant, set, strategies, players, games, seed, leader_round,
                            threads, strategy_file)
    if sequential or width is not None:
        import dataclasses

        config = dataclasses.replace(config, sequential=bool(sequential), width=width)
    plans = plan_compare(config)
    if out is not None:
        check_out(out, force)
    warm_games(plans[0].ruleset, plans[0].lineup(0), on_compile=on_compile)  # outside the clock
    res = run_compare(config, progress=progress)
    if out is None:
        return Report("compare", None, res, figures=lambda: plot_jobs(res),
                      write=lambda folder: res.write(folder, argv=sys.argv))
    try:
        files = res.write(out, force=force, argv=sys.argv)
    except OSError as e:  # a disk, a permission: the command's line names --out
        raise OSError(f"--out {out}: {e}") from e
    return Report("compare", out, res, figures=lambda: plot_jobs(res), written=files)


def compare_config(rules: Sequence[str] | str | None, variants: Sequence[str] | str | None,
                   overrides: Sequence[str] | str | None, strategies: Sequence[str] | str | None,
                   players: int | None, games: int | None, seed: int, leader_round: int,
                   threads: int | None, strategy_files: Sequence[str] | str | None):
    """The study's ``CompareConfig`` of the command's options: every ``rules`` in order, then
    every ``variant`` (the first ruleset with its overrides); ``overrides`` (``--set``) apply
    to all. CompareError for a variant label used twice or an empty field."""
    from sim.study.compare.config import (
        CompareConfig,
        CompareError,
        RulesetSpec,
        default_label,
        parse_variant,
    )
    from sim.study.tournament.defaults import DEFAULT_GAMES

    common = tuple(as_list(overrides))
    names = as_list(rules) or ["base"]
    texts = as_list(variants)
    specs = [RulesetSpec(default_label(r), r, common) for r in names]
    given = [parse_variant(v, names[0], common) for v in texts]
    taken = [s.label for s in specs]
    for v, text in zip(given, texts):
        if v.label in taken:
            raise CompareError(f"--variant {text}: the label '{v.label}' is used twice; give each "
                               "variant its own LABEL=")
        taken.append(v.label)
    specs += given
    field = ()
    if strategies is not None:
        field = tuple(strategy_specs(strategies))
        if not field:
            raise CompareError("--strategies: give at least one strategy, e.g. "
                               "cautious,balanced,greedy")
    return CompareConfig(rulesets=tuple(specs), strategies=field, players=players,
                         games=games if games is not None else DEFAULT_GAMES, seed=seed,
                         threads=threads, leader_round=leader_round,
                         strategy_files=tuple(str(Path(f).resolve())
                                              for f in as_list(strategy_files)))
