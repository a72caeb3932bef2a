"""The fortune-teller cards as a person reads them: the 24 of the base game, the three witch-hat
cards that need the herb witches (printed in The Alchemists, component-data.md 8.2), and any card
a user's rules file adds (``--rules-file``, ``add_card_file``).

Each card declares itself in its own module (``sim.rules.declare``: its number, id, timing, its
official English name and its text, a short paraphrase in our own words with the simulator's
settled readings, decisions.md, folded in). This module collects those declarations
(``sim.rules.card_numbers.CARD_SOURCES``, read from the modules' source, not imported). A
*purple* card is resolved once before the round; a *blue* card is a rule for the whole round or
for its end. A card with ``needs="herb-witches"`` (25-27) is in a deck only with
``witches.enabled``.

What the api layer needs to know of a card is in its declaration too: the words a round file may
answer its choice with (``words``), whether a round file's ``card_draws`` come after the potion's
draws (``draws_after``), whether it can put chips back into the bag during a potion
(``puts_back``: "white" or "any"; ``quacks potion --draws`` checks); whether it changes a potion
while it is brewed (``draw_time``: the cards ``quacks potion --card`` and ``quacks thresholds
--card`` accept, ``DRAW_TIME_CARDS``) follows from the hook points it uses.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sim.rules.card_files import CardSource, RulesFileError
from sim.rules.card_numbers import (
    CARD_IDS,
    CARD_LISTENERS,
    CARD_SOURCES,
    HERB_WITCHES,
    N_CARDS,
    add_card_file,
    card_number,
)

__all__ = ["BASE_CARDS", "CARDS", "CARD_IDS", "DRAW_TIME_CARDS", "Card",
           "RulesFileError", "add_card_file", "card_by_id", "card_numbered", "card_words",
           "in_deck"]


@dataclass(frozen=True)
class Card:
    """One fortune-teller card: its kernel number (1-27 shipped, then a user's), id, official
    name, timing and effect."""

    number: int
    id: str
    name: str
    timing: str  # "purple": once before the round; "blue": a rule for the round or its end
    text: str
    needs: str = ""  # HERB_WITCHES: in the deck only with the witches
    words: tuple = ()  # (word, answer): what a round file's card_choice may say for its choice
    draws_after: bool = False  # a round file's card_draws follow the potion's draws (else precede)
    puts_back: str = ""  # "white" / "any": chips it may put back into the bag during a potion
    draw_time: bool = False  # it changes a potion while it is brewed (a single potion plays it)
    source: str = ""  # the rules file of a user's card ("" for a shipped one)

    def as_json(self) -> dict:
        """The card as ``quacks rules --json`` shows it."""
        d = asdict(self)
        for k in ("words", "draws_after", "puts_back", "draw_time", "source"):
            del d[k]
        return d


def _card(src: CardSource) -> Card:
    d = src.decl
    return Card(d.number, d.id, d.name, d.timing, d.doc, d.needs, d.words, d.draws_after,
                d.puts_back, src.draw_time, "" if src.module else str(src.path))


# every known card in number order; lists kept in place, so a user's card added later
# (add_card_file) is seen by every module that imported them
CARDS: list[Card] = [_card(src) for src in CARD_SOURCES]
BASE_CARDS = sum(1 for c in CARDS[:N_CARDS] if not c.needs)  # the base game's deck (24)
DRAW_TIME_CARDS: list[str] = [c.id for c in CARDS if c.draw_time]  # potion --card


def _added(src: CardSource) -> None:
    CARDS.append(_card(src))
    if CARDS[-1].draw_time:
        DRAW_TIME_CARDS.append(src.decl.id)


CARD_LISTENERS.append(_added)


def card_by_id(card_id: str) -> Card:
    """The card with this id; ValueError (one line naming every valid id) for an unknown one."""
    return CARDS[card_number(card_id) - 1]


def card_numbered(number: int) -> Card | None:
    """The card the kernel numbers ``number`` (1..), or None for 0 ("no card")."""
    return CARDS[number - 1] if number > 0 else None


def in_deck(card: Card, witches: bool) -> bool:
    """Whether the card can be in a deck: a card that needs the herb witches only with them."""
    return not card.needs or (card.needs == HERB_WITCHES and witches)


def card_words() -> dict[str, int]:
    """Every word a round file's ``card_choice`` may use, with its answer (``none``: -1)."""
    words: dict[str, int] = {}
    for c in CARDS:
        for word, answer in c.words:
            if words.setdefault(word, answer) != answer:
                raise ValueError(f"card word '{word}' means two answers")
    return {**words, "none": -1}
