"""Chip types and the bag notation.

Every chip in the game is one of a fixed list of *chip types* (a colour and a value). The kernels
only ever see the type index; this module owns the table and the text notation
``<colour><value>[x<count>]`` used on the command line and in scenario files.
"""

from __future__ import annotations

import re

import numpy as np

# Colour indices, fixed for every ruleset.
WHITE, ORANGE, GREEN, BLUE, RED, YELLOW, PURPLE, BLACK, LOCOWEED = range(9)
N_COLOURS = 9
COLOUR_LETTERS = "wogbrypkl"
COLOUR_NAMES = ("white", "orange", "green", "blue", "red", "yellow", "purple", "black", "locoweed")

# The chip types, in kernel order: (colour, value). Locoweed has no printed value; it counts 1.
CHIP_TYPES: tuple[tuple[int, int], ...] = (
    (WHITE, 1), (WHITE, 2), (WHITE, 3),
    (ORANGE, 1), (ORANGE, 6),
    (GREEN, 1), (GREEN, 2), (GREEN, 4),
    (BLUE, 1), (BLUE, 2), (BLUE, 4),
    (RED, 1), (RED, 2), (RED, 4),
    (YELLOW, 1), (YELLOW, 2), (YELLOW, 4),
    (PURPLE, 1),
    (BLACK, 1),
    (LOCOWEED, 1),
)
N_TYPES = len(CHIP_TYPES)
TYPE_COLOUR = np.array([c for c, _ in CHIP_TYPES], dtype=np.int64)
TYPE_VALUE = np.array([v for _, v in CHIP_TYPES], dtype=np.int64)
_TYPE_INDEX = {ct: i for i, ct in enumerate(CHIP_TYPES)}

W1, W2, W3 = 0, 1, 2
O1, O6 = 3, 4
G1, G2, G4 = 5, 6, 7
B1, B2, B4 = 8, 9, 10
R1, R2, R4 = 11, 12, 13
Y1, Y2, Y4 = 14, 15, 16
P1, K1, L1 = 17, 18, 19


class BagSpecError(ValueError):
    """A bag or draw list that does not parse; the message says what would be right."""


def chip_type(colour: int, value: int) -> int:
    """The type index of a chip, or raise BagSpecError."""
    try:
        return _TYPE_INDEX[(colour, value)]
    except KeyError:
        raise BagSpecError(
            f"there is no {COLOUR_NAMES[colour]} {value}-chip; "
            f"{COLOUR_NAMES[colour]} chips come as "
            + "/".join(str(v) for c, v in CHIP_TYPES if c == colour)
        ) from None


def chip_name(t: int) -> str:
    """Short name of a chip type, e.g. ``w1`` or ``r4``."""
    c, v = CHIP_TYPES[t]
    return f"{COLOUR_LETTERS[c]}{v}"


_ITEM = re.compile(r"^([a-z])(\d+)(?:x(\d+))?$")

STARTING_BAG_SPEC = "w1x4,w2x2,w3,o1,g1"


def parse_chips(spec: str, *, what: str = "bag", starting: str | None = None) -> list[int]:
    """Parse bag notation into an ordered list of chip type indices.

    ``start`` expands to the starting bag (``starting`` overrides its spec). Case and spaces do
    not matter. An empty string is an empty list.
    """
    text = spec.replace(" ", "").lower()
    if text == "":
        return []
    out: list[int] = []
    for item in text.split(","):
        if item == "":
            raise BagSpecError(f"{what} '{spec}': empty item between commas")
        if item == "start":
            out.extend(parse_chips(starting or STARTING_BAG_SPEC, what=what))
            continue
        m = _ITEM.match(item)
        if not m:
            raise BagSpecError(
                f"{what} '{spec}': cannot read '{item}'; write <colour><value>[x<count>] "
                f"with colour one of {','.join(COLOUR_LETTERS)} (e.g. w1x4,o1,r2)"
            )
        letter, value, count = m.group(1), int(m.group(2)), m.group(3)
        if letter not in COLOUR_LETTERS:
            raise BagSpecError(
                f"{what} '{spec}': unknown colour '{letter}' in '{item}'; "
                f"colours are {', '.join(f'{a}={n}' for a, n in zip(COLOUR_LETTERS, COLOUR_NAMES))}"
            )
        try:
            t = chip_type(COLOUR_LETTERS.index(letter), value)
        except BagSpecError as e:
            raise BagSpecError(f"{what} '{spec}': {e}") from None
        n = 1 if count is None else int(count)
        if count is not None and n < 1:
            raise BagSpecError(f"{what} '{spec}': count in '{item}' must be at least 1")
        out.extend([t] * n)
    return out


def counts_of(chips: list[int] | np.ndarray) -> np.ndarray:
    """Per-type counts of a list of chip types."""
    return np.bincount(np.asarray(chips, dtype=np.int64), minlength=N_TYPES).astype(np.int64)


def format_counts(counts: np.ndarray) -> str:
    """Bag notation for per-type counts, in kernel type order (``w1x4,w2x2,w3,o1,g1``)."""
    parts = []
    for t in range(N_TYPES):
        n = int(counts[t])
        if n == 1:
            parts.append(chip_name(t))
        elif n > 1:
            parts.append(f"{chip_name(t)}x{n}")
    return ",".join(parts)
