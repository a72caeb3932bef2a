"""The 24 fortune-teller cards of the base game, and the three witch-hat cards that need the herb
witches (printed in The Alchemists, component-data.md 8.2), as data: what a person reads of them.

Their numbers, timings and what each needs are ``sim.rules.card_numbers.CARD_DECK`` (the kernel's
part; its order is a contract: the kernel numbers the cards 1.. in that order, 0 means "no card");
a card's own numbers are declared in its kernel module. Here, and nowhere the kernel looks, is each
card's official English name and its text: a short paraphrase in our own words, with the
simulator's settled readings (decisions.md) folded in. A *purple* card is resolved once before the
round; a *blue* card is a rule for the whole round or for its end. A card with
``needs="herb-witches"`` (25-27) is in a deck only with ``witches.enabled``.

A card's effect is its own module in ``sim.kernel.cards`` (named after the id), hooked in
``sim.kernel.cards.hooks``. What the api layer needs to know of a card is here too: the words a
round file may answer its choice with (``words``), whether a round file's ``card_draws`` come after
the potion's draws (``draws_after``), whether it can put chips back into the bag during a potion
(``puts_back``: "white" or "any"; ``quacks potion --draws`` checks), and whether it changes a
potion while it is brewed (``draw_time``: the cards ``quacks potion --card`` and ``quacks
thresholds --card`` accept, ``DRAW_TIME_CARDS``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sim.rules.card_numbers import CARD_DECK, CARD_IDS, HERB_WITCHES, TAKE_OTHER, card_number
from sim.rules.chips import P1

# The text of an EV_CARD_GAIN kind in ``quacks potion --draws`` (``{b}``: the amount, ``{chip}``:
# the chip's name); a kind not here shows nothing
GAIN_TEXTS = {
    "vp": "card: {b:+d} VP",
    "rubies": "card: {b:+d} rubies",
    "droplet": "card: droplet +{b}",
    "chip": "card: {chip} into the bag",
    "chip_removed": "card: {chip} back to the bag",
    "restart": "card: everything back, brewing again",
}


@dataclass(frozen=True)
class Card:
    """One fortune-teller card: its kernel number (1-24), id, official name, timing and effect."""

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

    def as_json(self) -> dict:
        """The card as ``quacks rules --json`` shows it."""
        d = asdict(self)
        for k in ("words", "draws_after", "puts_back", "draw_time"):
            del d[k]
        return d


# id: (official English name, paraphrase[, the Card's optional fields]), in the order of
# CARD_DECK (checked below). Chips a card grants before brewing go into the bag at once (they can
# be drawn this round), and only chips whose book is already out.
_WORDING = {
    "roll-the-die": ("Roll the Die",
        "Every player rolls the bonus die once and takes what it shows; a pumpkin goes into the "
        "bag at once."),
    "the-pot-is-filling-up": ("The Pot is Filling Up",
        "Every player moves their droplet 1 space forward."),
    "charity": ("Charity",
        "The player or players with the fewest rubies take 1 ruby each."),
    "rat-infestation": ("Rat Infestation",
        "Rat tails count double this round."),
    "beginners-bonus": ("Beginner's Bonus",
        "The player or players with the fewest victory points take a green 1-chip, straight into "
        "the bag."),
    "just-in-time": ("Just in Time",
        "Each player chooses: 4 VP, or take one white 1-chip out of their bag for the rest of "
        "the game."),
    "you-only-get-to-choose-one": ("You Only Get to Choose One",
        "Each player takes one of: a black 1-chip, any 2-chip whose book is out, or 3 rubies. A "
        "chip goes into the bag at once.", {"words": (("rubies", TAKE_OTHER),)}),
    "rats-are-your-friends": ("Rats Are Your Friends",
        "Each player chooses: any 4-chip whose book is out (into the bag at once), or 1 VP for "
        "every rat tail they get this round.", {"words": (("vp", TAKE_OTHER),)}),
    "a-good-start": ("A Good Start",
        "Each player chooses: use this round's rat tails as usual, or give up 1 to 3 of them for "
        "as many rubies."),
    "choose-wisely": ("Choose Wisely",
        "Each player chooses: move the droplet 2 spaces, or take a purple chip into the bag "
        "(only once the purple book is out).", {"words": (("droplet", 0), ("purple", P1))}),
    "wheel-and-deal": ("Wheel and Deal",
        "Each player may pay 1 ruby for one 1-chip of any colour but purple and black whose book "
        "is out; it goes into the bag at once."),
    "an-opportunistic-moment": ("An Opportunistic Moment",
        "Each player draws 4 chips and may swap one (never orange) for the next-higher chip of "
        "its colour, or takes a green 1-chip if no swap is possible. The drawn chips go back."),
    "less-is-more": ("Less is More",
        "Every player draws 5 chips: the lowest total (all tied players) takes a blue 2-chip, "
        "everyone else 1 ruby. The drawn chips go back."),
    "the-pot-is-full": ("The Pot is Full",
        "Anyone who rolls the bonus die this round rolls it twice and takes both results."),
    "pumpkin-patch-party": ("Pumpkin Patch Party",
        "Every orange chip placed this round moves 1 extra space.", {"draw_time": True}),
    "lucky-devil": ("Lucky Devil",
        "A player whose scoring space shows a ruby gets 2 extra VP, even if the pot exploded "
        "(and they took the coins)."),
    "its-shining-extra-bright": ("It's Shining Extra Bright",
        "A player whose scoring space shows a ruby takes 1 extra ruby."),
    "magic-potion": ("Magic Potion",
        "At the end of the round every player's flask is refilled for free."),
    "seasoned-perfectly": ("Seasoned Perfectly",
        "A player whose white chips total exactly the explosion limit (7, before any raise) when "
        "drawing ends moves their droplet 1 space."),
    "living-in-luxury": ("Living in Luxury",
        "The explosion limit is 9 this round instead of 7. With yellow Set 3 the larger raise "
        "counts; the two never add up.", {"draw_time": True}),
    "well-stirred": ("Well Stirred",
        "Each player may put the first white chip they draw back into the bag, without the "
        "flask.", {"puts_back": "white", "draw_time": True}),
    "strong-ingredient": ("Strong Ingredient",
        "In start-player order, each player who stopped without exploding draws up to 5 chips "
        "and may place one; the rest go back. These draws never explode the pot, and the placed "
        "chip has no action (past the last space it goes into the overflow bowl).",
        {"draws_after": True}),
    "schadenfreude": ("Schadenfreude",
        "When a player's pot explodes, the player to their left takes any 2-chip whose book is "
        "out, into their bag."),
    "a-second-chance": ("A Second Chance",
        "Each player's first 5 chips are the card's draws: they never explode the pot. Once they "
        "are placed, the player may go on (a pot over the limit may still stop intact, and "
        "explodes on the next ordinary draw) or put everything back (chips set aside or held "
        "included) and brew the potion again from the start, with ordinary draws.",
        {"puts_back": "any", "draw_time": True}),
    "a-quick-exchange": ("A Quick Exchange",
        "Each player may give up one of their witch pennies for a chip of their choice whose "
        "book is out, into the bag at once."),
    "visit-from-a-witch": ("Visit from a Witch",
        "A random herb witch not in play visits: this round every player may call her once, free "
        "(no penny)."),
    "a-joyful-reunion": ("A Joyful Reunion",
        "At the end of the round each player takes back one witch penny they spent (their "
        "choice); that group's witch may be called again."),
}
if tuple(_WORDING) != CARD_IDS:
    raise ValueError("sim.rules.cards: the cards' wording must follow CARD_DECK, id for id")
CARDS: tuple[Card, ...] = tuple(
    Card(number, card_id, name, timing, text, *needs, **(options[0] if options else {}))
    for number, ((card_id, timing, *needs), (name, text, *options))
    in enumerate(zip(CARD_DECK, _WORDING.values()), start=1)
)
BASE_CARDS = sum(1 for c in CARDS if not c.needs)  # how many cards the base game's deck has (24)
DRAW_TIME_CARDS: tuple[str, ...] = tuple(c.id for c in CARDS if c.draw_time)  # potion --card


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
