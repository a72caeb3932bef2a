"""The types behind strategy specs: typed parameters (``Param``), a registered strategy
(``StrategyDef``), a resolved one (``Strategy``: slot kinds and parameters), the default player's
arrays, and chip-list parsing (``r4>b4>orange``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.kernel.decisions import slots as S
from sim.rules import chips
from sim.rules.chip_limits import parse_chips_capped


class StrategySpecError(ValueError):
    """A strategy or stop-policy spec that does not parse; the message says what is accepted."""


@dataclass(frozen=True)
class Param:
    """A typed strategy parameter with a default and a range.

    Kinds: ``int``, ``float``, ``round`` (one number, or one per round separated by ``/``),
    ``chips`` (chips or colour names separated by ``>``), ``choice`` (one of ``choices``),
    ``text`` (any text without a comma, e.g. a file path), ``witches`` (Herb Witches ids
    separated by ``/``, or ``none``).
    """

    name: str
    kind: str
    default: object
    lo: float | None = None
    hi: float | None = None
    help: str = ""
    choices: tuple[str, ...] = ()

    def parse(self, text: str, strategy: str):
        """Read a value from text, or raise StrategySpecError naming what is accepted."""
        where = f"{strategy}: parameter {self.name}={text}"
        if self.kind == "chips":
            return parse_chip_list(text, where)
        if self.kind == "text":
            if not text:
                raise StrategySpecError(f"{where}: give a value")
            return text
        if self.kind == "witches":
            return parse_witch_list(text, where)
        if self.kind == "choice":
            if text not in self.choices:
                raise StrategySpecError(f"{where}: expected one of {', '.join(self.choices)}")
            return text
        if self.kind == "round":
            parts = text.split("/")
            vals = [self._number(p, where, float) for p in parts]
            if len(vals) == 1:
                return vals[0]
            if len(vals) > S.ROUND_PARAMS - 1:
                raise StrategySpecError(f"{where}: at most {S.ROUND_PARAMS - 1} per-round values")
            return vals
        return self._number(text, where, int if self.kind == "int" else float)

    def text(self, value) -> str:
        """The spec text of a value, which ``parse`` reads back to it."""
        if self.kind == "chips":
            return ">".join(value)
        if self.kind == "witches":
            return "/".join(value) or WITCHES_NONE
        if isinstance(value, list):
            return "/".join(f"{x:g}" for x in value)
        return str(value)

    def _number(self, text, where, cast):
        try:
            v = cast(text)
        except ValueError:
            what = "an integer" if cast is int else "a number"
            raise StrategySpecError(
                f"{where}: expected {what} from {self.lo:g} to {self.hi:g}") from None
        if not (self.lo <= v <= self.hi):
            raise StrategySpecError(f"{where}: out of range; expected {self.lo:g} to {self.hi:g}")
        return v

    def describe(self) -> str:
        """One line: name, type, default, range."""
        if self.kind == "chips":
            return (f"{self.name} (chips/colours, best first, default {'>'.join(self.default)}): "
                    f"{self.help}")
        if self.kind == "text":
            return f"{self.name} (text, default {self.default}): {self.help}"
        if self.kind == "witches":
            return (f"{self.name} (witch ids a/b/..., or none; default "
                    f"{self.text(self.default)}): {self.help}")
        if self.kind == "choice":
            return (f"{self.name} (one of {'|'.join(self.choices)}, default {self.default}): "
                    f"{self.help}")
        d = (self.default if not isinstance(self.default, list)
             else "/".join(f"{x:g}" for x in self.default))
        per = ", or one value per round a/b/c..." if self.kind == "round" else ""
        return f"{self.name} ({self.kind} {self.lo:g}..{self.hi:g}{per}, default {d}): {self.help}"

    def as_json(self) -> dict:
        """The parameter as a JSON-ready dict."""
        return {"name": self.name, "type": self.kind, "default": self.default, "min": self.lo,
                "max": self.hi, "choices": list(self.choices) or None, "help": self.help}


@dataclass(frozen=True)
class StrategyDef:
    """A registered strategy: name, one-line description, parameters, and its array builder."""

    name: str
    description: str
    params: tuple[Param, ...]
    build: Callable[[dict], tuple[np.ndarray, np.ndarray]] = field(repr=False)
    idea: str = ""
    source: str = "built-in"


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
    params[S.SLOT_TUBE, : len(S.TUBE_DEFAULTS)] = S.TUBE_DEFAULTS
    params[S.SLOT_WITCH, : len(S.WITCH_DEFAULTS)] = S.WITCH_DEFAULTS
    return kinds, params


WITCHES_NONE = "none"


def parse_witch_list(text: str, where: str) -> list[str]:
    """Witch ids separated by ``/`` (``none``: no witch), each checked against the expansion."""
    from sim.rules.witches import WITCH_IDS

    if text == WITCHES_NONE:
        return []
    ids = text.split("/")
    bad = [w for w in ids if w not in WITCH_IDS]
    if bad or not text:
        raise StrategySpecError(f"{where}: expected witch ids separated by / "
                                f"({', '.join(WITCH_IDS)}) or {WITCHES_NONE}")
    return list(dict.fromkeys(ids))


COLOUR_WORDS = {name: i for i, name in enumerate(chips.COLOUR_NAMES)}
COLOUR_WORDS.update({"pumpkin": chips.ORANGE, "pumpkins": chips.ORANGE, "spider": chips.GREEN,
                      "crow": chips.BLUE, "toadstool": chips.RED, "mandrake": chips.YELLOW,
                      "ghost": chips.PURPLE, "moth": chips.BLACK})


def parse_chip_list(text: str, where: str = "buy") -> list[str]:
    """``r4>b4>orange`` to chip names, best first; a colour name stands for its chips, big first."""
    out: list[str] = []
    for item in text.replace(",", ">").split(">"):
        item = item.strip().lower()
        if not item:
            continue
        if item in COLOUR_WORDS:
            c = COLOUR_WORDS[item]
            if c == chips.WHITE:
                raise StrategySpecError(f"{where}: white chips are never for sale")
            names = [chips.chip_name(t) for t in sorted(
                (t for t in range(chips.N_TYPES) if chips.TYPE_COLOUR[t] == c),
                key=lambda t: -chips.TYPE_VALUE[t])]
        else:
            try:
                ts = parse_chips_capped(item, what=where, most=chips.N_TYPES)
            except chips.BagSpecError as e:
                raise StrategySpecError(
                    f"{e}; or a colour name "
                    f"({', '.join(n for n in chips.COLOUR_NAMES if n != 'white')})"
                ) from None
            if any(chips.TYPE_COLOUR[t] == chips.WHITE for t in ts):
                raise StrategySpecError(f"{where}: white chips are never for sale")
            names = [chips.chip_name(t) for t in ts]
        for n in names:
            if n not in out:
                out.append(n)
    if not out:
        raise StrategySpecError(f"{where}: give at least one chip or colour, e.g. r4>b4>orange")
    return out


def set_round(params: np.ndarray, slot: int, value) -> None:
    """Fill SP[slot, 0..20] with one value, or with per-round values (round r at index r)."""
    if isinstance(value, list):
        params[slot, 0] = value[0]
        for r in range(1, S.ROUND_PARAMS):
            params[slot, r] = value[min(r, len(value)) - 1]
    else:
        params[slot, : S.ROUND_PARAMS] = value


def chip_types(names: list[str]) -> list[int]:
    return [chips.parse_chips(n)[0] for n in names]
