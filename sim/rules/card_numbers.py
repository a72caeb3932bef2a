"""The fortune-teller cards as the kernel knows them: numbers, timings and the kinds of a card's
effect event, and nothing a person reads (names and texts are in ``sim.rules.cards``, which the
kernel does not import: editing a card's text recompiles no kernel module).

The order of ``CARD_DECK`` is a contract: the kernel numbers the cards 1.. in this order (number
0 means "no card"), so a new card goes at the very end. A card with ``needs=HERB_WITCHES`` (25-27)
is in a deck only with ``witches.enabled``. A card's own numbers (how many VP, rubies, spaces it
gives) are declared in its kernel module, ``sim.kernel.cards.<id>``: editing one recompiles only
what uses that card.
"""

from __future__ import annotations

PURPLE, BLUE = "purple", "blue"  # resolved once before the round / a rule for the round or its end
TIMINGS = (PURPLE, BLUE)
HERB_WITCHES = "herb-witches"  # in the deck only with witches.enabled
TAKE_OTHER = 99  # a card's answer: the other option (rubies, VP), see the kernel's card modules

# (id, timing[, needs]) in the kernel's order: a card's number is its place here, from 1
CARD_DECK: tuple[tuple[str, ...], ...] = (
    ("roll-the-die", PURPLE),
    ("the-pot-is-filling-up", PURPLE),
    ("charity", PURPLE),
    ("rat-infestation", PURPLE),
    ("beginners-bonus", PURPLE),
    ("just-in-time", PURPLE),
    ("you-only-get-to-choose-one", PURPLE),
    ("rats-are-your-friends", PURPLE),
    ("a-good-start", PURPLE),
    ("choose-wisely", PURPLE),
    ("wheel-and-deal", PURPLE),
    ("an-opportunistic-moment", PURPLE),
    ("less-is-more", PURPLE),
    ("the-pot-is-full", BLUE),
    ("pumpkin-patch-party", BLUE),
    ("lucky-devil", BLUE),
    ("its-shining-extra-bright", BLUE),
    ("magic-potion", BLUE),
    ("seasoned-perfectly", BLUE),
    ("living-in-luxury", BLUE),
    ("well-stirred", BLUE),
    ("strong-ingredient", BLUE),
    ("schadenfreude", BLUE),
    ("a-second-chance", BLUE),
    ("a-quick-exchange", PURPLE, HERB_WITCHES),
    ("visit-from-a-witch", BLUE, HERB_WITCHES),
    ("a-joyful-reunion", BLUE, HERB_WITCHES),
)
CARD_IDS: tuple[str, ...] = tuple(entry[0] for entry in CARD_DECK)
N_CARDS = len(CARD_DECK)
PURPLE_CARDS = sum(1 << n for n, entry in enumerate(CARD_DECK, 1) if entry[1] == PURPLE)  # bit c
NO_CARD = 0

# EV_CARD_GAIN kinds, numbered in this order (0..); their texts are sim.rules.cards.GAIN_TEXTS. A
# new kind goes at the end.
CARD_GAINS = ("rats_doubled", "vp", "rubies", "droplet", "chip", "chip_removed", "flask",
              "restart", "penny_given", "penny_back")  # penny_*: b = the witch group


def card_number(card_id: str) -> int:
    """The kernel's number (1-27) of the card with this id (0 is reserved for "no card");
    ValueError (one line naming every valid id) for an unknown one."""
    if card_id not in CARD_IDS:
        raise ValueError(f"unknown fortune card '{card_id}'; known: {', '.join(CARD_IDS)}")
    return CARD_IDS.index(card_id) + 1


def gain_number(name: str) -> int:
    """The EV_CARD_GAIN kind of a card effect name in ``CARD_GAINS``."""
    return CARD_GAINS.index(name)
