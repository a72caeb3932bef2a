"""Knobs: ruleset keys (any key ``--set`` accepts) with the values a study gives them.

Notation of ``--knob`` (one knob per option):

- ``KEY=LO:HI``: a range. ``quacks sensitivity`` plays ``--steps`` values evenly spaced from LO
  to HI (both included); ``quacks design`` searches the whole interval. A key that holds a
  whole number (every number of a ruleset does: prices, limits, rounds) takes whole numbers
  only, and its values are rounded (and repeats dropped).
- ``KEY=LO:HI:STEP``: a range in steps: LO, LO + STEP, ... up to HI (included when a step lands
  on it); ``quacks design`` searches the same grid.
- ``KEY=A|B|...``: alternatives, each a TOML value as ``--set`` reads it (``7``, ``true``,
  ``"pot"`` or a bare word ``pot``, a list ``[1, 4, 7]``); inside a list bare words need no
  quotes: ``cards.exclude=[]|[charity]|[charity,rat-infestation]``. For list-valued keys and
  for any key the values of which are not a range.

Every value is checked by loading the ruleset with it (the one-line ``RulesetError`` of
``--set``) before a game is played.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.rules.ruleset import load_ruleset
from sim.rules.schema import is_int
from sim.study.design.defaults import DEFAULT_STEPS, MAX_STEPS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RANGE, CHOICE = "range", "choice"


class KnobError(ValueError):
    """A knob that cannot be used; the message (one line) names the option and the fix."""


def _value_text(v, real, sep: str, word) -> str:
    """A knob's value as text: a truth value as TOML writes it, an integer in digits, a float by
    ``real``, a list in brackets (its items joined by ``sep``), anything else by ``word``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if is_int(v):
        return str(v)
    if isinstance(v, float):
        return real(v)
    if isinstance(v, list):
        return "[" + sep.join(_value_text(x, real, sep, word) for x in v) + "]"
    return word(str(v))


def toml_literal(v) -> str:
    """A value as the TOML text ``--set`` reads back to the same value."""
    return _value_text(v, repr, ", ", json.dumps)


def value_label(v) -> str:
    """A value as tables and plots show it: numbers short, lists as ``[a,b]``, words bare."""
    return _value_text(v, lambda x: f"{x:g}", ",", str)


def _toml_value(text: str):
    """``text`` read as a TOML value, or None when it is not one."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return None


def parse_alternative(text: str, option: str):
    """One alternative of ``KEY=A|B``: a TOML value, a list of bare words, or a bare word."""
    t = text.strip()
    if not t:
        raise KnobError(f"{option}: an empty alternative; write KEY=A|B, e.g. "
                        "cards.exclude=[]|[charity]")
    v = _toml_value(t)
    if v is not None:
        return v
    if t.startswith("[") and t.endswith("]"):
        items = [x.strip() for x in t[1:-1].split(",")]
        if any(not x for x in items):
            raise KnobError(f"{option}: {t}: an empty item in the list")
        return [x if (y := _toml_value(x)) is None else y for x in items]
    return t


def current_value(data: dict, key: str):
    """The value at the dotted ``key`` of resolved ruleset tables (None when it has none)."""
    node = data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


@dataclass(frozen=True)
class Knob:
    """One knob: its ruleset ``key``, ``kind`` (range or choice), the ``values`` a sensitivity
    plays (in order), and for a range ``lo``, ``hi``, ``step`` (None: continuous) and ``whole``
    (whole numbers only). ``text`` is the option as given."""

    key: str
    kind: str
    values: tuple
    text: str
    lo: float | None = None
    hi: float | None = None
    step: float | None = None
    whole: bool = False

    def override(self, v) -> str:
        """The ``--set`` assignment of value ``v``."""
        return f"{self.key}={toml_literal(self.cast(v))}"

    def cast(self, v):
        """``v`` as this knob's type (whole numbers as int)."""
        if self.kind == RANGE:
            return int(round(v)) if self.whole else float(v)
        return v

    def label(self, v) -> str:
        """How tables show value ``v``."""
        return value_label(self.cast(v))

    @property
    def labels(self) -> list[str]:
        """The labels of the sensitivity's values."""
        return [self.label(v) for v in self.values]

    def x(self, v) -> float:
        """Where value ``v`` sits on a plot's axis (a range's number; a choice's index)."""
        return float(v) if self.kind == RANGE else float(self.values.index(v))

    def points(self) -> int | None:
        """How many distinct values the search can try (None: continuous)."""
        if self.kind == CHOICE:
            return len(self.values)
        if self.step is not None:
            return int(math.floor((self.hi - self.lo) / self.step + 1e-9)) + 1
        return int(self.hi - self.lo) + 1 if self.whole else None

    def to_json(self) -> dict:
        """The knob as saved in a report."""
        return {"key": self.key, "kind": self.kind, "text": self.text, "lo": self.lo,
                "hi": self.hi, "step": self.step, "whole": self.whole,
                "values": [self.cast(v) for v in self.values], "labels": self.labels}


def _number(text: str, option: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise KnobError(f"{option}: {text!r} is not a number; write KEY=LO:HI, e.g. "
                        "game.explosion_limit=5:9") from None
    if not math.isfinite(v):
        raise KnobError(f"{option}: {text!r}: expected a finite number")
    return v


def range_values(lo: float, hi: float, step: float | None, steps: int, whole: bool) -> list:
    """The values of a range: ``steps`` evenly spaced (no ``step``), or LO, LO + STEP, ... up to
    HI; whole numbers rounded and repeats dropped."""
    if step is None:
        xs = np.linspace(lo, hi, steps)
    else:
        n = int(math.floor((hi - lo) / step + 1e-9)) + 1
        xs = lo + step * np.arange(n)
    if whole:
        return list(dict.fromkeys(int(round(x)) for x in xs))
    return list(dict.fromkeys(float(f"{x:.10g}") for x in xs))


def parse_knob(text: str, rules: str = "base", overrides: Sequence[str] = (),
               steps: int = DEFAULT_STEPS, option: str = "--knob") -> Knob:
    """A knob from its ``--knob`` text (see the module), every value checked against the
    ruleset ``rules`` with ``overrides``; KnobError (or the ruleset's RulesetError) otherwise."""
    where = f"{option} {text}"
    key, eq, spec = text.partition("=")
    key, spec = key.strip(), spec.strip()
    if not eq or not key or not spec:
        raise KnobError(f"{where}: expected KEY=LO:HI or KEY=A|B, e.g. game.explosion_limit=5:9 "
                        "or cards.exclude=[]|[charity]")
    if "." not in key:
        raise KnobError(f"{where}: {key!r} is not a ruleset key; write section.key (the keys "
                        "--set takes, e.g. game.explosion_limit or prices.set1.r1)")
    if not 2 <= steps <= MAX_STEPS:
        raise KnobError(f"--steps {steps}: expected 2 to {MAX_STEPS}")
    base = load_ruleset(rules, list(overrides))
    now = current_value(base.data, key)
    if "|" in spec:
        values = [parse_alternative(a, where) for a in spec.split("|")]
        labels = [value_label(v) for v in values]
        if len(set(labels)) < len(labels):
            raise KnobError(f"{where}: an alternative is given twice")
        knob = Knob(key, CHOICE, tuple(values), text.strip())
    else:
        parts = spec.split(":")
        if len(parts) not in (2, 3):
            raise KnobError(f"{where}: expected KEY=LO:HI, KEY=LO:HI:STEP or KEY=A|B (a single "
                            "value is not a knob: use --set)")
        lo, hi = _number(parts[0], where), _number(parts[1], where)
        step = _number(parts[2], where) if len(parts) == 3 else None
        if not lo < hi:
            raise KnobError(f"{where}: expected LO < HI")
        if step is not None and not 0 < step <= hi - lo:
            raise KnobError(f"{where}: STEP must be above 0 and at most HI - LO")
        if now is not None and (isinstance(now, (bool, list, str, dict))):
            kind = "a list" if isinstance(now, list) else f"the value {value_label(now)!r}"
            raise KnobError(f"{where}: {key} holds {kind}, not a number; give alternatives, "
                            f"KEY=A|B")
        whole = is_int(now) if now is not None else all(float(x).is_integer()
                                                        for x in (lo, hi, step or 1))
        if whole and not all(float(x).is_integer() for x in (lo, hi, step or 1)):
            raise KnobError(f"{where}: {key} takes whole numbers; LO, HI and STEP must be whole")
        values = range_values(lo, hi, step, steps, whole)
        knob = Knob(key, RANGE, tuple(values), text.strip(), lo, hi, step, whole)
    for v in knob.values:
        load_ruleset(rules, [*overrides, knob.override(v)]).check_implemented()
    return knob


def start_value(knob: Knob, data: dict):
    """The knob's value in the ruleset tables ``data``, as the search's starting point: a range's
    value clipped into the range (rounded to its grid), a choice's alternative equal to it (else
    the first)."""
    now = current_value(data, knob.key)
    if knob.kind == CHOICE:
        return now if any(value_label(now) == value_label(v) for v in knob.values) \
            else knob.values[0]
    if now is None or isinstance(now, bool) or not isinstance(now, (int, float)):
        return knob.cast(knob.lo)
    v = min(max(float(now), knob.lo), knob.hi)
    if knob.step is not None:
        v = knob.lo + knob.step * round((v - knob.lo) / knob.step)
        v = min(v, knob.hi)
    return knob.cast(v)


def check_distinct(knobs: Sequence[Knob]) -> None:
    """KnobError when a key is given twice."""
    seen = set()
    for k in knobs:
        if k.key in seen:
            raise KnobError(f"--knob {k.key}: given twice; one --knob per key")
        seen.add(k.key)
