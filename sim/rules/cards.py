"""The 24 fortune-teller cards of the base game, and the three witch-hat cards that need the herb
witches (printed in The Alchemists, component-data.md 8.2), as data.

The order of ``CARDS`` is a contract: the kernel numbers the cards 1..27 in this order, and
number 0 means "no card"; cards 25-27 are in a deck only with ``witches.enabled``. A *purple* card is resolved once before the round; a *blue* card is a
rule for the whole round or for its end. Names are the official English ones; every text is a
short paraphrase in our own words, with the simulator's settled readings (decisions.md) folded in.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

PURPLE, BLUE = "purple", "blue"
TIMINGS = (PURPLE, BLUE)


@dataclass(frozen=True)
class Card:
    """One fortune-teller card: its kernel number (1-24), id, official name, timing and effect."""

    number: int
    id: str
    name: str
    timing: str  # "purple": once before the round; "blue": a rule for the round or its end
    text: str
    needs: str = ""  # "herb-witches": in the deck only with the witches
    def as_json(self) -> dict:
        return asdict(self)


# (id, official English name, timing, paraphrase). Chips a card grants before brewing go into the
# bag at once (they can be drawn this round), and only chips whose book is already out.
_CARDS = (
    ("roll-the-die", "Roll the Die", PURPLE,
     "Every player rolls the bonus die once and takes what it shows; a pumpkin goes into the bag "
     "at once."),
    ("the-pot-is-filling-up", "The Pot is Filling Up", PURPLE,
     "Every player moves their droplet 1 space forward."),
    ("charity", "Charity", PURPLE,
     "The player or players with the fewest rubies take 1 ruby each."),
    ("rat-infestation", "Rat Infestation", PURPLE,
     "Rat tails count double this round."),
    ("beginners-bonus", "Beginner's Bonus", PURPLE,
     "The player or players with the fewest victory points take a green 1-chip, straight into "
     "the bag."),
    ("just-in-time", "Just in Time", PURPLE,
     "Each player chooses: 4 VP, or take one white 1-chip out of their bag for the rest of the "
     "game."),
    ("you-only-get-to-choose-one", "You Only Get to Choose One", PURPLE,
     "Each player takes one of: a black 1-chip, any 2-chip whose book is out, or 3 rubies. A chip "
     "goes into the bag at once."),
    ("rats-are-your-friends", "Rats Are Your Friends", PURPLE,
     "Each player chooses: any 4-chip whose book is out (into the bag at once), or 1 VP for every "
     "rat tail they get this round."),
    ("a-good-start", "A Good Start", PURPLE,
     "Each player chooses: use this round's rat tails as usual, or give up 1 to 3 of them for "
     "as many rubies."),
    ("choose-wisely", "Choose Wisely", PURPLE,
     "Each player chooses: move the droplet 2 spaces, or take a purple chip into the bag (only "
     "once the purple book is out)."),
    ("wheel-and-deal", "Wheel and Deal", PURPLE,
     "Each player may pay 1 ruby for one 1-chip of any colour but purple and black whose book "
     "is out; it goes into the bag at once."),
    ("an-opportunistic-moment", "An Opportunistic Moment", PURPLE,
     "Each player draws 4 chips and may swap one (never orange) for the next-higher chip of its "
     "colour, or takes a green 1-chip if no swap is possible. The drawn chips go back."),
    ("less-is-more", "Less is More", PURPLE,
     "Every player draws 5 chips: the lowest total (all tied players) takes a blue 2-chip, "
     "everyone else 1 ruby. The drawn chips go back."),
    ("the-pot-is-full", "The Pot is Full", BLUE,
     "Anyone who rolls the bonus die this round rolls it twice and takes both results."),
    ("pumpkin-patch-party", "Pumpkin Patch Party", BLUE,
     "Every orange chip placed this round moves 1 extra space."),
    ("lucky-devil", "Lucky Devil", BLUE,
     "A player whose scoring space shows a ruby gets 2 extra VP, even if the pot exploded (and "
     "they took the coins)."),
    ("its-shining-extra-bright", "It's Shining Extra Bright", BLUE,
     "A player whose scoring space shows a ruby takes 1 extra ruby."),
    ("magic-potion", "Magic Potion", BLUE,
     "At the end of the round every player's flask is refilled for free."),
    ("seasoned-perfectly", "Seasoned Perfectly", BLUE,
     "A player whose white chips total exactly the explosion limit (7, before any raise) when "
     "drawing ends moves their droplet 1 space."),
    ("living-in-luxury", "Living in Luxury", BLUE,
     "The explosion limit is 9 this round instead of 7. With yellow Set 3 the larger raise "
     "counts; the two never add up."),
    ("well-stirred", "Well Stirred", BLUE,
     "Each player may put the first white chip they draw back into the bag, without the flask."),
    ("strong-ingredient", "Strong Ingredient", BLUE,
     "In start-player order, each player who stopped without exploding draws up to 5 chips and "
     "may place one; the rest go back. These draws never explode the pot, and the placed chip "
     "has no action (past the last space it goes into the overflow bowl)."),
    ("schadenfreude", "Schadenfreude", BLUE,
     "When a player's pot explodes, the player to their left takes any 2-chip whose book is out, "
     "into their bag."),
    ("a-second-chance", "A Second Chance", BLUE,
     "Each player's first 5 chips are the card's draws: they never explode the pot. Once they "
     "are placed, the player may go on (a pot over the limit may still stop intact, and explodes "
     "on the next ordinary draw) or put everything back (chips set aside or held included) and "
     "brew the potion again from the start, with ordinary draws."),
)

_WITCH_CARDS = (
    ("a-quick-exchange", "A Quick Exchange", PURPLE,
     "Each player may give up one of their witch pennies for a chip of their choice whose book is "
     "out, into the bag at once."),
    ("visit-from-a-witch", "Visit from a Witch", BLUE,
     "A random herb witch not in play visits: this round every player may call her once, free "
     "(no penny)."),
    ("a-joyful-reunion", "A Joyful Reunion", BLUE,
     "At the end of the round each player takes back one witch penny they spent (their choice); "
     "that group's witch may be called again."),
)
CARDS: tuple[Card, ...] = tuple(
    Card(number, cid, name, timing, text, "herb-witches" if number > 24 else "")
    for number, (cid, name, timing, text) in enumerate(_CARDS + _WITCH_CARDS, start=1)
)
BASE_CARDS = 24  # cards 1-24: the base game's deck
CARD_IDS: tuple[str, ...] = tuple(c.id for c in CARDS)
NO_CARD = 0
_BY_ID = {c.id: c for c in CARDS}


def card_by_id(card_id: str) -> Card:
    """The card with this id; ValueError (one line naming every valid id) for an unknown one."""
    try:
        return _BY_ID[card_id]
    except KeyError:
        raise ValueError(f"unknown fortune card '{card_id}'; known: {', '.join(CARD_IDS)}") from None


def card_number(card_id: str) -> int:
    """The kernel's number (1-27) of the card with this id (0 is reserved for "no card")."""
    return card_by_id(card_id).number
