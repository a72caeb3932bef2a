"""What ``quacks compare`` compares: the rulesets (:class:`RulesetSpec`, their labels and
``--variant`` text) and the settings (:class:`CompareConfig`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from sim.study.tournament.plan import (
    DEFAULT_GAMES,
    TournamentError,
)


class CompareError(TournamentError):
    """Settings that cannot run; the message names the option and what would be right."""


@dataclass(frozen=True)
class RulesetSpec:
    """One column of the comparison: a label, a built-in ruleset name or TOML file, overrides."""

    label: str
    rules: str = "base"
    overrides: tuple[str, ...] = ()


def default_label(rules: str) -> str:
    """The label of a ruleset given by name (the name) or file (its stem)."""
    return Path(rules).stem if rules.lower().endswith(".toml") else rules


def ruleset_spec(x) -> RulesetSpec:
    """A RulesetSpec from itself, a (label, rules, overrides) tuple or a bare ruleset name."""
    if isinstance(x, RulesetSpec):
        return x
    if isinstance(x, str):
        return RulesetSpec(default_label(x), x)
    label, rules, *rest = x
    return RulesetSpec(str(label), str(rules), tuple(rest[0]) if rest else ())


VARIANT_FORM = "LABEL=section.key=value;section.key=value (a label has no dot)"
VARIANT_EXAMPLE = "--variant limit8=game.explosion_limit=8"


def parse_variant(text: str, rules: str = "base", common: Sequence[str] = ()) -> RulesetSpec:
    """``LABEL=section.key=value;section.key=value`` as a variant of ``rules`` (after the
    ``common`` overrides). Without a label (the text starts with ``section.key=``; a label has
    no dot) the overrides themselves, joined by ``;``, are the label. CompareError for a text
    without a label or without overrides (the first ruleset again), or with an item that is not
    ``section.key=value``; the ruleset's own error, naming ``--variant``, for an unknown key or
    a bad value."""
    head, sep, rest = text.partition("=")
    labelled = bool(sep) and "." not in head
    ovs = tuple(o.strip() for o in (rest if labelled else text).split(";") if o.strip())
    label = head.strip() if labelled else ";".join(ovs)
    if not label:
        raise CompareError(f"--variant {text!r}: expected {VARIANT_FORM}, e.g. {VARIANT_EXAMPLE}")
    if not ovs:
        raise CompareError(f"--variant {text!r}: no overrides, so it is {rules} again; expected "
                           f"{VARIANT_FORM}, e.g. {VARIANT_EXAMPLE}")
    bad = [o for o in ovs if "=" not in o or "." not in o.partition("=")[0]]
    if bad:
        raise CompareError(f"--variant {text!r}: '{bad[0]}' is not section.key=value; expected "
                           f"{VARIANT_FORM}, e.g. {VARIANT_EXAMPLE}")
    _check_overrides(text, rules, common, ovs)
    return RulesetSpec(label, rules, (*common, *ovs))


def _check_overrides(text: str, rules: str, common: Sequence[str], ovs: Sequence[str]) -> None:
    """The variant's overrides applied to ``rules`` (with ``common``) and validated, so that an
    unknown key or a bad value is reported as the --variant's (RulesetError)."""
    import copy

    from sim.rules.ruleset import RulesetError, apply_override, load_ruleset, ruleset_from_data

    try:
        d = copy.deepcopy(load_ruleset(rules, list(common)).data)
    except RulesetError:
        return  # the first ruleset's own error: the plan reports it, naming that ruleset
    for o in ovs:
        apply_override(d, o, label="--variant")
    ruleset_from_data(d, f"--variant {text!r}")


def unique_labels(specs: Sequence[RulesetSpec]) -> list[RulesetSpec]:
    """The specs with repeated labels numbered (``base``, ``base#2``, ...)."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        k = seen[s.label] = seen.get(s.label, 0) + 1
        out.append(s if k == 1 else RulesetSpec(f"{s.label}#{k}", s.rules, s.overrides))
    return out


@dataclass(frozen=True)
class CompareConfig:
    """What to compare. ``rulesets``: RulesetSpec or (label, rules, overrides) tuples, the first
    the reference; ``strategies``: the field (default: the tournament's default field);
    ``games``: per ruleset, rounded up to whole deals (with ``sequential``, the budget: deals
    are played in batches until every question is decided, see
    ``sim.study.compare.sequential``; ``width`` decides a question whose interval is within
    +-width)."""

    rulesets: tuple = ()
    strategies: tuple[str, ...] = ()
    players: int | None = None
    games: int = DEFAULT_GAMES
    seed: int = 1
    threads: int | None = None
    leader_round: int = 6
    strategy_files: tuple[str, ...] = ()
    sequential: bool = False  # play batches until every question is decided (games: the budget)
    width: float | None = None  # --sequential: a question is also decided within +-width

    def __post_init__(self):
        object.__setattr__(self, "rulesets",
                           tuple(unique_labels([ruleset_spec(r) for r in self.rulesets])))
        object.__setattr__(self, "strategies", tuple(self.strategies))
        object.__setattr__(self, "strategy_files", tuple(self.strategy_files))

    def settings(self) -> dict:
        """JSON-ready settings."""
        d = asdict(self)
        d["rulesets"] = [asdict(r) | {"overrides": list(r.overrides)} for r in self.rulesets]
        if not self.sequential:  # the settings of a fixed-size run as before --sequential
            del d["sequential"], d["width"]
        return d

