"""Reading the scripted parts of a round file: key readers, and the card, book and witch
decisions a seat may script (``card``, ``card_choice``, ``extra``, the round-file keys each book
declares, ``pennies``, ``witch``), the forced draws and the die faces."""

from __future__ import annotations

import numpy as np

from sim.api.errors import RoundFileError
from sim.api.events import FACE_KEYS
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.rules import chips
from sim.rules.book_files import books_text, script_keys
from sim.rules.cards import card_words
from sim.rules.chip_limits import parse_chips_capped
from sim.rules.declare import (
    NOT_SCRIPTED,
    SCRIPT_BAG,
    SCRIPT_BITS,
    SCRIPT_CHIPS,
    SCRIPT_UPGRADE,
    SCRIPT_WORDS,
)
from sim.rules.schema import POT_SIDES


def cauldrons_of(d: dict, rs, where: str) -> int:
    """The ``players`` key of a round file or scripted game, checked, and the number of cauldrons
    (one ``[[player]]`` table each) they brew in: one each, or with ``game.teams`` two teams of
    two sharing a cauldron each, counted as ``quacks play`` counts them
    (``sim.api.game.check_players``)."""
    n = int_of(d, "players", where, lo=rs.game("min_players"), hi=rs.game("max_players"))
    if not rs.game("teams"):
        return n
    from sim.api.errors import GameInputError
    from sim.api.game import check_players

    try:
        check_players(rs, n)
    except GameInputError as e:  # "--players N: <why>": the flag is the file's key here
        raise RoundFileError(f"{where}: key 'players' = {n}: {str(e).partition(': ')[2]}, "
                             "with one [[player]] table per team's cauldron") from None
    return n // 2  # team t: players t and t + n/2 (sim.kernel.game.play_game)


def check_tables(tables, n: int, rs, where: str, what: str = "[[player]]") -> None:
    """RoundFileError unless ``tables`` is a list of ``n`` tables, one per cauldron."""
    if not isinstance(tables, list) or len(tables) != n:
        team = ", one per team's cauldron (game.teams)" if rs.game("teams") else ""
        raise RoundFileError(f"{where}: expected {n} {what} tables{team}, found "
                             f"{len(tables) if isinstance(tables, list) else 0}")


def int_of(d: dict, key: str, where: str, default=None, lo=0, hi=10_000) -> int:
    """Key ``key`` of table ``d`` as an integer from lo to hi (RoundFileError naming ``where``)."""
    v = d.get(key, default)
    if v is None:
        raise RoundFileError(f"{where}: missing key '{key}' (an integer)")
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RoundFileError(f"{where}: key '{key}' = {v!r}: expected an integer from {lo} to {hi}")
    return v


MOST_CHIPS = 10_000  # no key of a round file needs more chips than this (a whole supply)


def chips_of(d: dict, key: str, where: str, starting: str, default=None,
           most: int = MOST_CHIPS) -> list[int]:
    """Key ``key`` of table ``d`` in bag notation, as chip types (RoundFileError naming
    ``where``)."""
    v = d.get(key, default)
    if v is None:
        raise RoundFileError(f"{where}: missing key '{key}' (bag notation, e.g. 'w1x4,o1')")
    if isinstance(v, list):
        v = ",".join(str(x) for x in v)
    if not isinstance(v, str):
        raise RoundFileError(f"{where}: key '{key}': expected bag notation such as 'w1,o1,r2'")
    try:
        return parse_chips_capped(v, what=f"{where} {key}", starting=starting, most=most)
    except chips.BagSpecError as e:
        raise RoundFileError(str(e)) from None


def card_of(d: dict, where: str) -> int:
    """The card number of a table's optional ``card`` key (0: no card)."""
    from sim.rules.cards import CARD_IDS, card_number

    if "card" not in d:
        return 0
    if d["card"] not in CARD_IDS:
        raise RoundFileError(f"{where}: key 'card': expected a card id ({', '.join(CARD_IDS)})")
    return card_number(d["card"])


CARD_WORDS = card_words()  # declared with each card (sim.rules.cards), and "none"


def card_choice(x, where: str, starting: str) -> int:
    """A player's answer to the round's card: a chip, a word (vp, rubies, droplet, purple, none),
    true/false, a number (A Good Start: tails given up), a witch group (A Joyful Reunion: potion,
    buying, points) or a chip and the group of the penny given for it (A Quick Exchange:
    ``"r4/buying"``)."""
    from sim.rules.witches import GROUPS

    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    if isinstance(x, str) and x in CARD_WORDS:
        return CARD_WORDS[x]
    if isinstance(x, str) and x in GROUPS:
        return GROUPS.index(x)
    if isinstance(x, str) and "/" in x:
        chip, _, group = x.partition("/")
        got = chips_of({"card_choice": chip}, "card_choice", where, starting)
        if len(got) != 1 or group not in GROUPS:
            raise RoundFileError(f"{where}: key 'card_choice': expected a chip and a witch group, "
                                 f"e.g. \"r4/buying\" (groups: {', '.join(GROUPS)})")
        return GROUPS.index(group) * 32 + got[0]
    got = chips_of({"card_choice": x}, "card_choice", where, starting) if isinstance(x, str) else []
    if len(got) != 1:
        raise RoundFileError(f"{where}: key 'card_choice': expected one chip, a number, "
                             f"true/false or one of {', '.join(CARD_WORDS)}")
    return got[0]


def apply_book_script(SC, s, pl, where, starting, R) -> None:
    """A seat's answers to the books' choices: ``extra`` (the chips' extra distances that are not
    red) and every round-file key a book declares (``sim.rules.declare.script_key``), each read in
    its form; the book the ruleset chose for its colour (``R``) keeps its keys' answers in its
    part of SC (``script_slot``), where its ``scripted`` reads them. An optional effect not
    scripted is taken (red Set 6: the chip is placed at once)."""
    extra = _bools(pl, "extra", where, S.SC_MAX_LIST, "one per extra distance offered to a chip "
                   "that is not red (red Set 4's white 1, yellow Sets 2, 4, 5), in order: true "
                   "takes it")
    SC[s, S.SC_NEXTRA] = len(extra)
    SC[s, S.SC_EXTRA] = _bits(extra)
    for key, users in script_keys().items():
        k = users[0][1]
        values = _script_values(pl, k, where, starting, books_text(users))
        for decl, _ in users:
            if R[L.R_BOOK + chips.COLOUR_NAMES.index(decl.colour)] != decl.set:
                continue  # not this ruleset's book: its answers are not read
            at = S.script_slot(decl, key)
            if k.form == SCRIPT_UPGRADE:
                SC[s, at] = NOT_SCRIPTED if values is None else values
            elif k.form == SCRIPT_BITS:
                SC[s, at:at + 2] = len(values), _bits(values)
            else:
                SC[s, at] = len(values)
                SC[s, at + 1:at + 1 + len(values)] = values


def _bits(values: list) -> int:
    """Bit i set for each true ``values[i]``."""
    return sum(1 << i for i, v in enumerate(values) if v)


def _bools(pl, key, where, most, what) -> list[bool]:
    """The list of true/false under ``key`` (none: empty), at most ``most``."""
    x = pl.get(key, [])
    if not isinstance(x, list) or not all(isinstance(v, bool) for v in x) or len(x) > most:
        raise RoundFileError(f"{where}: key '{key}': expected a list of true/false, {what}")
    return x


def _script_values(pl, k, where, starting, books: str):
    """Round-file key ``k`` (a book's ``script_key``) of a seat's table, read in its form: a list
    of numbers (word indices, chip types, -1 for "none", 1/0), a list of true/false, the chips
    listed, or an upgrade (None when not given)."""
    what = f"{k.doc} ({books})"
    if k.form == SCRIPT_WORDS:
        x = pl.get(k.key, [])
        if not isinstance(x, list) or not all(v in k.words for v in x) or len(x) > k.most:
            words = " / ".join(f'"{w}"' for w in k.words)
            raise RoundFileError(f"{where}: key '{k.key}': expected a list of {words}, {what}")
        return [k.words.index(v) for v in x]
    if k.form == SCRIPT_CHIPS:
        return _chip_entries(pl, k.key, where, starting, k.most, what, bools=k.bools)
    if k.form == SCRIPT_BITS:
        return _bools(pl, k.key, where, k.most, what)
    if k.form == SCRIPT_BAG:
        got = chips_of(pl, k.key, where, starting, default="")
        if len(got) > k.most:
            raise RoundFileError(f"{where}: key '{k.key}': at most {k.most} chips ({books})")
        return got
    return _upgrade(pl[k.key], where, k) if k.key in pl else None


def _chip_entries(pl, key, where, starting, most, what, *, bools=False) -> list[int]:
    """The list under ``key`` (none: empty), each entry one chip (its type) or ``"none"`` (-1);
    with ``bools`` also true/false (1/0). ``what`` says what the entries stand for."""
    entries = pl.get(key, [])
    if not isinstance(entries, list) or len(entries) > most:
        raise RoundFileError(f"{where}: key '{key}': expected a list of at most {most} entries, "
                             f"{what}")
    out = []
    for x in entries:
        if bools and isinstance(x, bool):
            out.append(int(x))
            continue
        got = [-1] if x == "none" else (chips_of({key: x}, key, where, starting)
                                        if isinstance(x, str) else [])
        if len(got) != 1:
            raise RoundFileError(f"{where}: key '{key}': each entry is one chip or \"none\""
                                 + (", true or false" if bools else ""))
        out.append(got[0])
    return out


def _upgrade(x, where, k) -> int:
    """An upgrade key (``k``): ``"none"`` (-1) or a chip and its upgrade of the same colour,
    ``"r1>r2"``, whose values ``1>2`` are one of ``k.words`` (with the tier it is):
    tier * 32 + the chip upgraded."""
    if x == "none":
        return -1
    tiers = dict(k.words)
    parts = x.split(">") if isinstance(x, str) else []
    try:
        a, b = (parse_chips_capped(p, what=k.key, most=2) for p in parts)
    except (ValueError, chips.BagSpecError):
        a = b = []
    values = (f"{int(chips.TYPE_VALUE[a[0]])}>{int(chips.TYPE_VALUE[b[0]])}"
              if len(a) == 1 and len(b) == 1 else "")
    if len(parts) != 2 or values not in tiers \
            or chips.TYPE_COLOUR[a[0]] != chips.TYPE_COLOUR[b[0]]:
        raise RoundFileError(f"{where}: key '{k.key}': expected \"none\" or a chip and its upgrade "
                             f"of the same colour: {', '.join(tiers)} (e.g. \"r1>r2\")")
    return tiers[values] * 32 + a[0]


def apply_tube_script(SC, s, pl, where, side: bool) -> None:
    """Test-tube side (``side``): ``tube``, one "pot" or "tube" per droplet move the seat is
    granted this round, in order; moves beyond the list follow the default player. The ordinary
    side has no test-tube track: ``tube`` and ``glass`` are refused there."""
    for key in ("glass", "tube"):
        if key in pl and not side:
            raise RoundFileError(f"{where}: key '{key}': the test-tube track is on the pot's "
                                 f"reverse side only (set pot.side = \"{POT_SIDES[1]}\")")
    tube = pl.get("tube", [])
    if not isinstance(tube, list) or not all(x in ("pot", "tube") for x in tube) or len(tube) > 60:
        raise RoundFileError(f"{where}: key 'tube': expected a list of \"pot\" / \"tube\", one per "
                             f"droplet move (test-tube side of the pot)")
    SC[s, S.SC_NTUBE] = len(tube)
    SC[s, S.SC_TUBE] = sum(1 << i for i, x in enumerate(tube) if x == "tube")


def round_witches(d: dict, rs, where: str) -> list[int]:
    """The witches in play in a round file: its ``witches`` list of ids (at most one per group),
    else the ruleset's ``witches.fixed``; returns the kernel numbers per group (0: none)."""
    from sim.rules.witches import GROUPS, WITCH_IDS, witch_group, witch_number

    ids = d.get("witches", rs.data["witches"]["fixed"])
    if not isinstance(ids, list) or not all(x in WITCH_IDS for x in ids) \
            or len({witch_group(x) for x in ids}) != len(ids):
        raise RoundFileError(f"{where}: key 'witches': expected a list of witch ids, at most one "
                             f"per group ({', '.join(WITCH_IDS)})")
    if ids and not rs.data["witches"]["enabled"]:
        raise RoundFileError(f"{where}: key 'witches': this ruleset plays without the herb witches "
                             f"(rules = \"herb-witches\", or --set witches.enabled=true)")
    out = [0] * len(GROUPS)
    for x in ids:
        out[GROUPS.index(witch_group(x))] = witch_number(x)
    return out


def _witch_when(v, where: str, key: str) -> int:
    """``after * 4`` for a potion witch's ``{after = N}`` (0: when the player stops)."""
    after = v.get("after", 0) if isinstance(v, dict) else 0
    if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= 60:
        raise RoundFileError(f"{where}: witch '{key}': key 'after': expected the number of chips "
                             f"drawn before she is called (0: when the player stops)")
    return after * 4


def _witch_answer(key: str, v, where: str, starting: str, SC, s) -> int:
    """The scripted answer of one witch, in the form her declaration names (``Witch.script`` in
    ``sim.rules.witches``; the kernel reads it in her module, ``sim.kernel.witches.<id>``)."""
    from sim.rules import witch_declare as WD
    from sim.rules import witches as RW

    form = RW.witch_by_id(key).script
    if form == WD.SCRIPT_SIX:
        place = v.get("place") if isinstance(v, dict) else None
        if place is not None:
            got = chips_of({"place": place}, "place", f"{where}: witch '{key}'", starting)
            if len(got) > 6:
                raise RoundFileError(f"{where}: witch '{key}': at most 6 chips are placed")
            SC[s, S.SC_NSIX] = len(got) if got else -1
            SC[s, S.SC_SIX:S.SC_SIX + len(got)] = got
        if v is False:
            return 0
        when = _witch_when(v, where, key)
        if when == 0:  # her six chips come from the listed draws, so she is called between them
            raise RoundFileError(f"{where}: witch '{key}': give {{after = N}}, the chips drawn "
                                 f"before she is called (her chips follow in 'draws')")
        return when + 1
    if form == WD.SCRIPT_WHITES:
        n = v.get("whites", 2) if isinstance(v, dict) else (2 if v is True else v)
        if isinstance(n, bool) or n not in (0, 1, 2):
            raise RoundFileError(f"{where}: witch '{key}': expected true, 1, 2 or "
                                 f"{{after = N, whites = 1 or 2}}")
        return _witch_when(v, where, key) + n if n else 0
    if form == WD.SCRIPT_POT_ENTRY:
        if v == "last2":
            return 1
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 60:
            return 2 + v
        if v is False or v == "none":
            return 0
        raise RoundFileError(f"{where}: witch '{key}': expected \"last2\" (the last two chips), "
                             f"the index of one chip in the pot (0 = the first placed) or \"none\"")
    if form == WD.SCRIPT_BOUGHT:
        got = chips_of({key: v}, key, where, starting) if isinstance(v, str) else []
        if len(got) != 1:
            raise RoundFileError(f"{where}: witch '{key}': expected the one chip bought to get "
                                 f"twice")
        return got[0]
    if not isinstance(v, bool):
        raise RoundFileError(f"{where}: witch '{key}': expected true (call her) or false")
    return int(v)


def apply_witch_script(SC, P, s, pl, where: str, starting: str, pennies: bool = True) -> None:
    """A seat's ``pennies`` (groups still held; default all; a scripted game keeps its own) and
    ``witch`` table (witch id -> answer); a witch not listed is not called."""
    from sim.rules.witches import GROUPS, WITCH_IDS, witch_number

    if pennies:
        held = pl.get("pennies", list(GROUPS))
        if not isinstance(held, list) or not all(x in GROUPS for x in held):
            raise RoundFileError(f"{where}: key 'pennies': expected a list of witch groups still "
                                 f"held ({', '.join(GROUPS)})")
        P[s, L.F_PENNY] = sum(1 << GROUPS.index(x) for x in set(held))
    SC[s, S.SC_WITCH:S.SC_WITCH + S.N_WITCHES] = S.SC_UNSET
    SC[s, S.SC_NSIX] = 0
    table = pl.get("witch", {})
    if not isinstance(table, dict):
        raise RoundFileError(f"{where}: key 'witch': expected a table of witch id = answer")
    for key, v in table.items():
        if key not in WITCH_IDS:
            raise RoundFileError(f"{where}: key 'witch.{key}': no such witch "
                                 f"({', '.join(WITCH_IDS)})")
        if witch_number(key) > S.N_WITCHES:  # SC_WITCH holds the shipped witches' answers
            raise RoundFileError(f"{where}: key 'witch.{key}': a rules file's witch is not "
                                 "scripted (her default answers)")
        SC[s, S.SC_WITCH + witch_number(key) - 1] = _witch_answer(key, v, where, starting, SC, s)


def forced_draws(draws: list[list[int]]) -> np.ndarray:
    """The forced-draw table FD[seat, i] (padded with zeros)."""
    FD = np.zeros((len(draws), max(1, max(len(x) for x in draws))), dtype=np.int64)
    for s, dr in enumerate(draws):
        FD[s, : len(dr)] = dr
    return FD


def die_script(d: dict, where: str) -> tuple[list[str], np.ndarray]:
    """The ``die`` faces of a round table and the kernel's face array DS."""
    faces = d.get("die", [])
    if not isinstance(faces, list) or not all(f in FACE_KEYS for f in faces):
        raise RoundFileError(f"{where}: key 'die': expected a list of faces from "
                             f"{', '.join(FACE_KEYS)}")
    return faces, np.array([FACE_KEYS.index(f) for f in faces] or [0], dtype=np.int64)
