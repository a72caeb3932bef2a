"""Built-in strategies, their typed parameters, and the ``name:key=value,...`` spec notation.

A strategy is a row of slot kinds and a table of float parameters (see ``strategies.slots``);
this module turns a spec such as ``threshold:t=6,flask=3`` into those arrays. The full registry
with presets and user files grows on this in the strategy-layer issue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim import chips
from strategies import slots as S


class StrategySpecError(ValueError):
    """A strategy or stop-policy spec that does not parse; the message says what is accepted."""


@dataclass(frozen=True)
class Param:
    """A typed strategy parameter with a default and a range (or a chip-list)."""

    name: str
    kind: str  # "float", "int" or "chips"
    default: object
    lo: float | None = None
    hi: float | None = None
    help: str = ""

    def parse(self, text: str, strategy: str):
        """Read a value from text, or raise StrategySpecError naming what is accepted."""
        if self.kind == "chips":
            try:
                chip_list = chips.parse_chips(text.replace(">", ","), what=f"{strategy}.{self.name}")
            except chips.BagSpecError as e:
                raise StrategySpecError(str(e)) from None
            return [chips.chip_name(t) for t in chip_list]
        try:
            v = int(text) if self.kind == "int" else float(text)
        except ValueError:
            raise StrategySpecError(
                f"{strategy}: parameter {self.name}={text!r}: expected {'an integer' if self.kind == 'int' else 'a number'}"
                f" from {self.lo:g} to {self.hi:g}"
            ) from None
        if not (self.lo <= v <= self.hi):
            raise StrategySpecError(
                f"{strategy}: parameter {self.name}={text}: out of range; expected {self.lo:g} to {self.hi:g}"
            )
        return v

    def describe(self) -> str:
        """One line: name, type, default, range."""
        if self.kind == "chips":
            return f"{self.name} (chip list, default {'>'.join(self.default)}): {self.help}"
        return f"{self.name} ({self.kind} {self.lo:g}..{self.hi:g}, default {self.default}): {self.help}"


@dataclass(frozen=True)
class StrategyDef:
    """A registered strategy: name, one-line description, parameters, and its array builder."""

    name: str
    description: str
    params: tuple[Param, ...]
    build: Callable[[dict], tuple[np.ndarray, np.ndarray]] = field(repr=False)


@dataclass(frozen=True)
class Strategy:
    """A strategy resolved from a spec: the arrays the kernel reads for one seat."""

    spec: str
    name: str
    values: dict
    kinds: np.ndarray
    params: np.ndarray


def blank_arrays() -> tuple[np.ndarray, np.ndarray]:
    """Kinds and params of the default player: every slot at kind 0 (the sensible defaults)."""
    kinds = np.zeros(S.N_SLOTS, dtype=np.int64)
    params = np.zeros((S.N_SLOTS, S.PARAM_WIDTH), dtype=np.float64)
    params[S.SLOT_BUY, :] = -1
    return kinds, params


def _chip_list(names: list[str]) -> list[int]:
    return [chips.parse_chips(n)[0] for n in names]


DEFAULT_BUY = ["r4", "b4", "y4", "g4", "p1", "k1", "r2", "b2", "y2", "g2", "o1", "r1", "b1"]


def _build_threshold(v: dict) -> tuple[np.ndarray, np.ndarray]:
    kinds, params = blank_arrays()
    kinds[S.SLOT_STOP] = S.STOP_WHITE
    params[S.SLOT_STOP, 0] = v["t"]
    kinds[S.SLOT_FLASK] = S.FLASK_MIN if v["flask"] > 0 else S.FLASK_NEVER
    params[S.SLOT_FLASK, 0] = v["flask"]
    kinds[S.SLOT_BLUE] = S.BLUE_BEST
    kinds[S.SLOT_YELLOW] = S.YELLOW_ALWAYS
    kinds[S.SLOT_EXPLODE] = S.EXPLODE_BY_ROUND
    params[S.SLOT_EXPLODE, 0] = v["coins_until"]
    kinds[S.SLOT_BUY] = S.BUY_PRIORITY
    for i, t in enumerate(_chip_list(v["buy"])[: S.PARAM_WIDTH]):
        params[S.SLOT_BUY, i] = t
    kinds[S.SLOT_RUBY] = S.RUBY_DEFAULT
    params[S.SLOT_RUBY, 0] = v["refill"]
    params[S.SLOT_RUBY, 1] = v["droplet_until"]
    kinds[S.SLOT_PURPLE] = S.PURPLE_MAX
    return kinds, params


def _build_random(v: dict) -> tuple[np.ndarray, np.ndarray]:
    kinds, params = blank_arrays()
    kinds[S.SLOT_STOP] = S.STOP_RANDOM
    params[S.SLOT_STOP, 0] = v["p"]
    kinds[S.SLOT_FLASK] = S.FLASK_RANDOM
    params[S.SLOT_FLASK, 0] = 0.5
    kinds[S.SLOT_BLUE] = S.BLUE_RANDOM
    kinds[S.SLOT_YELLOW] = S.YELLOW_RANDOM
    kinds[S.SLOT_EXPLODE] = S.EXPLODE_RANDOM
    kinds[S.SLOT_BUY] = S.BUY_RANDOM
    kinds[S.SLOT_RUBY] = S.RUBY_RANDOM
    kinds[S.SLOT_PURPLE] = S.PURPLE_MAX
    return kinds, params


REGISTRY: dict[str, StrategyDef] = {
    "threshold": StrategyDef(
        "threshold",
        "Stops at a white total, flasks big whites, buys from a fixed priority list.",
        (
            Param("t", "int", 6, 1, 30, "stop once the white total is at least t"),
            Param("flask", "int", 2, 0, 3, "use the flask on a white of at least this value (0 never)"),
            Param("buy", "chips", DEFAULT_BUY, help="buying priority, best first"),
            Param("coins_until", "int", 6, 0, 9, "an exploded pot takes coins up to this round, then VP"),
            Param("droplet_until", "int", 8, 0, 9, "buy droplet moves with rubies up to this round"),
            Param("refill", "int", 1, 0, 1, "refill an empty flask before buying droplet moves"),
        ),
        _build_threshold,
    ),
    "random": StrategyDef(
        "random",
        "A random legal player: stops, buys, spends and chooses at random.",
        (Param("p", "float", 0.25, 0.0, 1.0, "chance of stopping after each chip"),),
        _build_random,
    ),
}


def parse_strategy(spec: str) -> Strategy:
    """Resolve ``name`` or ``name:key=value,key=value`` against the registry."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in REGISTRY:
        raise StrategySpecError(
            f"unknown strategy '{name}'; known: {', '.join(sorted(REGISTRY))}"
        )
    d = REGISTRY[name]
    values = {p.name: p.default for p in d.params}
    by_name = {p.name: p for p in d.params}
    if rest.strip():
        for item in rest.split(","):
            if "=" not in item:
                raise StrategySpecError(
                    f"strategy '{spec}': '{item}' is not key=value; parameters of {name}: "
                    f"{', '.join(by_name)}"
                )
            k, _, val = item.partition("=")
            k = k.strip()
            if k not in by_name:
                raise StrategySpecError(
                    f"strategy '{spec}': unknown parameter '{k}'; parameters of {name}: "
                    f"{', '.join(by_name) or 'none'}"
                )
            values[k] = by_name[k].parse(val.strip(), name)
    kinds, params = d.build(values)
    return Strategy(spec=text, name=name, values=values, kinds=kinds, params=params)


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs; commas inside ``name:k=v,k=v`` stay.

    A new spec starts at an item that has no ``=`` before a ``:`` or has no ``=`` at all.
    """
    out: list[str] = []
    for item in text.split(","):
        head = item.split(":", 1)[0]
        if out and "=" in head and ":" not in item.split("=", 1)[0]:
            out[-1] += "," + item
        else:
            out.append(item)
    return [o.strip() for o in out if o.strip()]


def parse_stop_policy(spec: str) -> tuple[int, np.ndarray]:
    """``white:T``, ``risk:P`` or ``never`` to a stop kind and its parameter row."""
    text = spec.strip().lower()
    row = np.zeros(S.PARAM_WIDTH, dtype=np.float64)
    head, _, arg = text.partition(":")
    try:
        if head == "white" and arg:
            t = int(arg)
            if t < 1:
                raise ValueError
            row[0] = t
            return S.STOP_WHITE, row
        if head == "risk" and arg:
            p = float(arg)
            if not 0.0 <= p <= 1.0:
                raise ValueError
            row[0] = p
            return S.STOP_RISK, row
        if head == "never" and not arg:
            return S.STOP_NEVER, row
    except ValueError:
        pass
    raise StrategySpecError(
        f"stop policy '{spec}': expected white:T (T a whole number >= 1), risk:P (0 <= P <= 1) or never"
    )
