"""The users' rules files the compiled rules tests load (tests/test_rules_files.py,
test_rules_books_plugin.py, test_rules_witches.py, test_rules_file_runs.py), all of them in one
order: the kernels compiled with rules files are cached by the files' code, so the fast suite
compiles one set of them, not one a test file (about two CPU-minutes each).

The set: the example cards, two shipped cards copied word for word as rules files (only their
number and id changed), the example book, five shipped books copied with only their set number
changed, a book with its own question, and the example witch.
"""

from __future__ import annotations

import re
from pathlib import Path

from sim.rules.book_files import SHIPPED_BOOKS_FOLDER

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "experiments" / "rules"
SHIPPED = ROOT / "sim" / "kernel" / "cards"
FILES = [EXAMPLES / "lucky_clover.py", EXAMPLES / "bottled_courage.py", EXAMPLES / "market_day.py"]
COPIED = ("magic-potion", "well-stirred")  # shipped cards played again from a rules file
SPROUTS = EXAMPLES / "green_sprouts.py"
PUMPKIN = EXAMPLES / "pumpkin_purse.py"


def rules_file_copy(folder: Path, card_id: str) -> Path:
    """The shipped card's module, word for word, as a user's rules file ``<module>_copy.py``:
    only its declaration's number (0: numbered when loaded) and id (``<id>-copy``: the shipped
    id is taken) changed."""
    src = SHIPPED / f"{card_id.replace('-', '_')}.py"
    text, n = re.subn(rf'^CARD = card\(\d+, "{card_id}"', f'CARD = card(0, "{card_id}-copy"',
                      src.read_text(encoding="utf-8"), flags=re.M)
    assert n == 1, src
    path = folder / f"{src.stem}_copy.py"
    path.write_text(text, encoding="utf-8")
    return path


REWRITTEN = ("blue_4", "red_2", "red_4", "green_2", "yellow_5")
# each copy's set number: after the user's books below (Set 7), one each
USER_SET = {stem: 8 + i for i, stem in enumerate(REWRITTEN)}

def rewrite(stem: str, folder: Path) -> Path:
    """The shipped book's module text with only its set number changed (to a user's set,
    ``USER_SET``)."""
    src = (SHIPPED_BOOKS_FOLDER / f"{stem}.py").read_text(encoding="utf-8")
    colour, n = stem.split("_")
    old = f'BOOK = book("{colour}", {n}, '
    assert src.count(old) == 1
    path = folder / f"{stem}_as_user.py"
    path.write_text(src.replace(old, f'BOOK = book("{colour}", {USER_SET[stem]}, '),
                    encoding="utf-8")
    return path


# a user's book with its own question to a strategy and the built-in answer to it (``default``),
# as a card has its choice, its own round-file key (``yellow_gold``) read by its ``scripted`` and
# its own event (``gold``, recorded with the code ``event_code`` derives from its declaration):
# yellow Set 7, a yellow chip placed may buy VP (its value) for a ruby
GOLD = '''
from sim.kernel.books.common import scripted_bit, scripting
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.layout import F_RUBIES, F_SCORE, F_YELLOW_PTR
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import SCRIPT_BITS, book, event, script_key

BOOK = book("yellow", 7, "draw", name="Golden Mandrake", prices=4, questions=(
    ("yellow-gold", "the yellow chip's value", "1 pay a ruby for that many VP"),), script=(
    script_key("yellow_gold", SCRIPT_BITS, 16, doc="one per yellow chip: true pays a ruby"),),
    events=event("gold", a="chip:chip", b="vp", text="golden mandrake: {chip} buys {vp} VP "
                 "for a ruby", doc="the yellow chip; the VP bought"),
    doc="A yellow chip placed may buy VP, its value, for 1 ruby.")
Q_GOLD = BOOK.question("yellow-gold")
GOLD_AT = script_slot(BOOK, "yellow_gold")
EV_GOLD = event_code(BOOK, "gold")


def default(P, s, arg, G, R, decline):
    """The built-in answer: pay while 2 rubies or more are held (declining: never)."""
    return 0 if decline or P[s, F_RUBIES] < 2 else 1


def scripted(P, s, q, arg, SC):
    """The round file's answer: the next of its yellow_gold (yellow chips are counted)."""
    return scripted_bit(P, s, F_YELLOW_PTR, GOLD_AT, SC)


def placed(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Yellow chip t was just placed by seat s."""
    if P[s, F_RUBIES] >= 1:
        if scripting(SK, s):
            ok, a = scripted(P, s, Q_GOLD, TYPE_VALUE[t], SC)
        else:
            ok, a = book_answer(P, s, Q_GOLD, TYPE_VALUE[t], G, R, SK, SP, SC, rng, UF)
        if not ok:
            a = default(P, s, TYPE_VALUE[t], G, R, a != 0)
        if a == 1:
            P[s, F_RUBIES] -= 1
            P[s, F_SCORE] += TYPE_VALUE[t]
            record(E, G, s, EV_GOLD, t, TYPE_VALUE[t], 0)
'''


def shared_rules_files(folder: Path) -> list[Path]:
    """Every rules file of the compiled rules tests, written where needed into ``folder``, in
    the one order they are loaded: the cards, the books, the witch."""
    cards = FILES + [rules_file_copy(folder, c) for c in COPIED]
    books = [SPROUTS] + [rewrite(stem, folder) for stem in REWRITTEN]
    gold = folder / "golden_mandrake.py"
    gold.write_text(GOLD, encoding="utf-8")
    return cards + books + [gold, PUMPKIN]
