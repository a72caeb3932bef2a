"""The game variants, as data: what each changes, the ruleset setting that turns it on, and
whether the kernel implements it yet (``implemented``). Texts are short paraphrases in our own
words of the rules guide and decisions.md."""

from __future__ import annotations

from dataclasses import dataclass

# The test-tube side of the pot (component-data.md 2.1): the bonus of each glass, 1 to 12
# (glass 0 is the start and gives nothing).
TEST_TUBE_GLASSES: tuple[tuple[int, str], ...] = (
    (1, "1 ruby"), (2, "1 VP"), (3, "blue 1-chip"), (4, "2 VP"), (5, "black 1-chip"), (6, "2 VP"),
    (7, "red 2-chip"), (8, "3 VP"), (9, "purple 1-chip"), (10, "3 VP"), (11, "yellow 4-chip"),
    (12, "4 VP"),
)


@dataclass(frozen=True)
class Variant:
    """One variant: its id, the ``section.key = value`` setting that turns it on, whether the
    kernel implements it yet, and what it changes."""

    id: str
    setting: str
    implemented: bool
    text: str
    glasses: tuple[tuple[int, str], ...] = ()

    @property
    def status(self) -> str:
        return "available" if self.implemented else "not yet implemented"

    def as_json(self) -> dict:
        d = {"id": self.id, "setting": self.setting, "implemented": self.implemented,
             "status": self.status, "text": self.text}
        if self.glasses:
            d["glasses"] = [{"glass": g, "bonus": b} for g, b in self.glasses]
        return d


VARIANTS: tuple[Variant, ...] = (
    Variant("test-tube", 'pot.side = "test-tube"', False,
            "The pot's reverse side: every droplet move (card, chip, die, 2 rubies) goes either to "
            "the pot droplet or one glass along the test-tube track, whose bonus is taken at once "
            "(chips straight into the bag). A 2-space move is two single moves; after glass 12 "
            "only the pot droplet moves.",
            TEST_TUBE_GLASSES),
    Variant("synchronized", 'game.info_model = "synchronized"', True,
            "Every round is brewed like the last: draws in lock-step, and before each draw every "
            "player sees what the others have placed so far."),
    Variant("teams", "game.teams = true", False,
            "Four players in two teams of two, one cauldron (bag, score, rubies) per team, the "
            "2-player black book, and one shared shopping allowance (two chips of different "
            "colours) per team."),
    Variant("sequential", 'game.info_model = "sequential"', False,
            "An analysis option: players brew one after another in seat order, and later players "
            "see earlier results (what waiting and seeing is worth)."),
    Variant("no-cards", "cards.deck = false", True,
            "Play without the fortune-teller cards."),
    Variant("card-exclude", 'cards.exclude = ["card-id", ...]', True,
            "Take the named cards out of the deck (ids as `quacks rules` lists them)."),
    Variant("card-order", 'cards.order = ["card-id", ...]', True,
            "Fix the order in which cards are turned up, one a round, instead of shuffling."),
)
VARIANT_IDS = tuple(v.id for v in VARIANTS)
