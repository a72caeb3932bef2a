"""The game variants, as data: what each changes, the ruleset setting that turns it on, and
whether the kernel implements it yet (``implemented``). Texts are short paraphrases in our own
words of the rules guide and decisions.md."""

from __future__ import annotations

from dataclasses import dataclass


def glass_text(bonus: str) -> str:
    """A ruleset's glass bonus (``ruby``, ``ruby:N``, ``vp:N``, a chip) in words: ``2 VP``."""
    from sim.rules import chips

    if bonus.startswith("vp:"):
        return f"{bonus[3:]} VP"
    if bonus.startswith("ruby"):
        n = bonus[5:] or "1"
        return f"{n} ruby" if n == "1" else f"{n} rubies"
    t = chips.parse_chips(bonus)[0]
    return f"{chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]]} {chips.TYPE_VALUE[t]}-chip"


def _base_glasses() -> tuple[tuple[int, str], ...]:
    """The test-tube side of the pot (component-data.md 2.1) as the base ruleset gives it: the
    bonus of each glass, 1 to 12 (glass 0 is the start and gives nothing)."""
    from sim.rules.ruleset import load_ruleset

    return tuple((i, glass_text(b))
                 for i, b in enumerate(load_ruleset("base").data["pot"]["test_tube"], 1))


@dataclass(frozen=True)
class Variant:
    """One variant: its id, the ``section.key = value`` setting that turns it on, whether the
    kernel implements it yet, and what it changes."""

    id: str
    setting: str
    implemented: bool
    text: str
    has_glasses: bool = False  # the test-tube track: list the base ruleset's glasses

    @property
    def glasses(self) -> tuple[tuple[int, str], ...]:
        """(glass, bonus in words) of the base ruleset's test-tube track, or () (read on use, not
        at import: it loads the base ruleset)."""
        return _base_glasses() if self.has_glasses else ()

    @property
    def status(self) -> str:
        return "available" if self.implemented else "not yet implemented"

    def as_json(self) -> dict:
        d = {"id": self.id, "setting": self.setting, "implemented": self.implemented,
             "status": self.status, "text": self.text}
        if self.has_glasses:
            d["glasses"] = [{"glass": g, "bonus": b} for g, b in self.glasses]
        return d


VARIANTS: tuple[Variant, ...] = (
    Variant("test-tube", 'pot.side = "test-tube"', True,
            "The pot's reverse side: every droplet move (card, chip, die, 2 rubies) goes either to "
            "the pot droplet or one glass along the test-tube track, whose bonus is taken at once "
            "(chips straight into the bag, if their book is out and the supply has one). A 2-space "
            "move is two single moves; after glass 12 only the pot droplet moves. The strategy's "
            "tube slot decides each move.",
            has_glasses=True),
    Variant("synchronized", 'game.info_model = "synchronized"', True,
            "Every round is brewed like the last: draws in lock-step, and before each draw every "
            "player sees what the others have placed so far."),
    Variant("teams", "game.teams = true", True,
            "Four players in two teams of two (players 0 and 2, 1 and 3), one cauldron (bag, "
            "score, rubies) per team, the 2-player black book, and one shared shopping allowance "
            "(two chips of different colours) per team. Teammates take turns deciding, a round "
            "each (the first-named in odd rounds); both get the team's result."),
    Variant("sequential", 'game.info_model = "sequential"', True,
            "An analysis option: players brew one after another in seat order from the start "
            "player, and later players see earlier results (what waiting and seeing is worth; "
            "ev:die=1 uses them). Independent brewing, the default, shows nobody another potion "
            "of the round."),
    Variant("no-cards", "cards.deck = false", True,
            "Play without the fortune-teller cards."),
    Variant("card-exclude", 'cards.exclude = ["card-id", ...]', True,
            "Take the named cards out of the deck (ids as `quacks rules` lists them)."),
    Variant("card-order", 'cards.order = ["card-id", ...]', True,
            "Fix the order in which cards are turned up, one a round, instead of shuffling."),
    Variant("card-force", 'cards.force = "card-id"', True,
            "Play the card in round cards.force_round of every game (0: each deal its own round, "
            "at random): it swaps places with the card that round would have had; a card not in "
            "the deck replaces it. How quacks balance measures a card."),
)
VARIANT_IDS = tuple(v.id for v in VARIANTS)
