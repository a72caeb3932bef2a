"""``quacks round FILE``: one round from a described state, with every random event and every
decision forced, so any rule can be checked by hand.

The file (TOML) gives ``players``, ``round``, optionally ``rules`` and ``set`` (overrides),
``start_player``, ``die`` (faces in the order rolled), ``supply`` (bag notation; default: the box
less every chip in the players' bags) and one ``[[player]]`` table per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.api.events import count_events, event_dict
from sim.api.round_script import (
    RoundFileError,
    apply_book_script,
    apply_tube_script,
    apply_witch_script,
    card_choice,
    card_of,
    cauldrons_of,
    check_tables,
    chips_of,
    die_script,
    forced_draws,
    int_of,
    round_witches,
)
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.records import (
    GERR_BLUE,
    GERR_BUY_OVER_BUDGET,
    GERR_BUY_SAME_COLOUR,
    GERR_BUY_TOO_MANY,
    GERR_BUY_UNAVAILABLE,
    GERR_DIE_SHORT,
    GERR_SPEND,
    RD_WIDTH,
    W_WIDTH,
)
from sim.kernel.rng import N_STREAMS
from sim.rules import chips
from sim.rules.book_files import state_keys
from sim.rules.books import round_file_keys
from sim.rules.cards import card_numbered, in_deck
from sim.rules.input_files import TOMLDecodeError, load_toml
from sim.rules.ruleset import Ruleset, RulesetError, load_ruleset
from strategies.registry import slot_table


def player_keys() -> set[str]:
    """The keys of a ``[[player]]`` table, with every book's (the user's loaded too: declared
    with the books)."""
    return {"score", "rubies", "droplet", "flask", "bag", "draws", "flask_on", "choice", "buy",
            "spend", "card_choice", "card_draws", "glass", "tube", "pennies", "witch",
            *round_file_keys()}


PLAYER_KEYS = player_keys()  # with the shipped books' keys
TOP_KEYS = {"players", "round", "rules", "set", "start_player", "die", "supply", "player", "card",
            "witches", "visit"}


def state_books(R=None) -> list[tuple[str, object]]:
    """(key, module) for each book round-file state key (``book(..., state=...)``): the module of
    the book declaring it that the ruleset (``R``) chose for its colour, else of the first
    declaring it, with its ``read_state`` and ``write_state`` (imported here, not when this module
    is: a ruleset's rules files load first)."""
    from sim.kernel.books.table import book_modules

    def chosen(src) -> bool:
        return R is not None and R[L.R_BOOK + chips.COLOUR_NAMES.index(src.decl.colour)] \
            == src.decl.set

    out = []
    for key, users in state_keys().items():
        src = next((src for src, _ in users if chosen(src)), users[0][0])
        out.append((key, next(iter(book_modules([src]).values()))))
    return out


def load(path: str | Path) -> dict:
    """Read a round file's TOML (RoundFileError on a missing or broken file)."""
    p = Path(path)
    try:
        return load_toml(p)
    except FileNotFoundError:
        raise RoundFileError(f"{path}: no such file") from None
    except TOMLDecodeError as e:
        raise RoundFileError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:  # a binary file: name it (the bare codec error did not)
        raise RoundFileError(f"{path}: not a text file: byte {e.start} is not UTF-8 (TOML is "
                             f"UTF-8 text)") from None
    except OSError as e:
        raise RoundFileError(f"{path}: cannot read: {e.strerror}") from None


def play_round_file(path: str | Path) -> dict:
    """Play the round described in the file; return ``{"players": [...]}`` (see the issue's
    keys)."""
    return play_round_data(load(path), str(path))


def prepare_round_file(path: str | Path) -> PreparedRound:
    """Read and check a round file into the kernel's arrays (RoundFileError on anything wrong
    that can be told before playing), without touching the round kernel: so ``quacks round``
    refuses a bad file before any compile notice. Play it with :func:`play_prepared`."""
    return prepare_round_data(load(path), str(path))


def play_round_data(d: dict, label: str = "round file") -> dict:
    """Play a round from already-parsed round-file data."""
    return play_prepared(prepare_round_data(d, label))


@dataclass
class PreparedRound:
    """A checked round file as the round kernel's arguments (see :func:`prepare_round_data`)."""

    d: dict
    label: str
    rs: Ruleset
    n: int
    P: np.ndarray
    G: np.ndarray
    R: np.ndarray
    SK: np.ndarray
    SP: np.ndarray
    SC: np.ndarray
    FD: np.ndarray
    DS: np.ndarray
    supply: np.ndarray


def file_ruleset(d: dict, label: str, keys) -> Ruleset:
    """The ruleset of a round or game file's data (``rules``: a name, or a path found beside the
    file first; ``set``: one override or a list), after checking its top-level keys are among
    ``keys``; RoundFileError naming the file for a bad one."""
    for k in d:
        if k not in keys:
            raise RoundFileError(f"{label}: unknown key '{k}'; "
                                 f"expected {', '.join(sorted(keys))}")
    overrides = d.get("set", [])
    if isinstance(overrides, str):
        overrides = [overrides]
    rules = d.get("rules", "base")
    if not isinstance(rules, str):
        raise RoundFileError(f"{label}: key 'rules': expected a ruleset name or path")
    if not Path(rules).is_absolute() and (Path(label).parent / rules).is_file():
        rules = str(Path(label).parent / rules)
    try:
        rs = load_ruleset(rules, overrides)
        rs.check_implemented()
    except RulesetError as e:
        raise RoundFileError(str(e)) from None
    return rs


def prepare_round_data(d: dict, label: str = "round file") -> PreparedRound:
    """Check already-parsed round-file data and build the round kernel's arrays."""
    rs = file_ruleset(d, label, TOP_KEYS)
    n = cauldrons_of(d, rs, label)
    rnd = int_of(d, "round", label, lo=1, hi=rs.game("rounds"))
    sp = int_of(d, "start_player", label, default=0, lo=0, hi=n - 1)
    seats = d.get("player")
    check_tables(seats, n, rs, label)
    starting = rs.game("starting_bag")
    R = rules_scalars(rs)
    P = np.zeros((n, L.P_WIDTH), dtype=np.int64)
    SC = np.zeros((n, S.SC_WIDTH), dtype=np.int64)
    SK = np.full((n, S.N_SLOTS), S.SCRIPTED, dtype=np.int64)
    SP = np.zeros((n, S.N_SLOTS, S.PARAM_WIDTH), dtype=np.float64)
    all_draws = []
    card = card_of(d, label)
    witches = round_witches(d, rs, label)
    if card > 0 and not in_deck(card_numbered(card), rs.data["witches"]["enabled"]):
        raise RoundFileError(f"{label}: key 'card': {d['card']} needs the herb witches "
                             f"(rules = \"herb-witches\")")
    final = rnd >= rs.game("rounds")
    keys = player_keys()
    for s, pl in enumerate(seats):
        where = f"{label}: seat {s}"
        if not isinstance(pl, dict):
            raise RoundFileError(f"{where}: expected a [[player]] table")
        for k in pl:
            if k not in keys:
                raise RoundFileError(f"{where}: unknown key '{k}'; "
                                     f"expected {', '.join(sorted(keys))}")
        P[s, L.F_SCORE] = int_of(pl, "score", where, default=0)
        P[s, L.F_RUBIES] = int_of(pl, "rubies", where, default=rs.game("starting_rubies"))
        P[s, L.F_DROPLET] = int_of(pl, "droplet", where, default=0, hi=52)
        P[s, L.F_TUBE] = int_of(pl, "glass", where, default=0, hi=L.TUBE_GLASSES)
        flask = pl.get("flask", True)
        if not isinstance(flask, bool):
            raise RoundFileError(f"{where}: key 'flask': expected true (full) or false (empty)")
        P[s, L.F_FLASK] = int(flask)
        bag = chips_of(pl, "bag", where, starting, most=L.MAX_CHIPS - 2)
        if len(bag) > L.MAX_CHIPS - 2:
            raise RoundFileError(f"{where}: bag has {len(bag)} chips; at most {L.MAX_CHIPS - 2}")
        for t in bag:
            P[s, L.CHIPS + P[s, L.F_NCHIPS]] = t
            P[s, L.F_NCHIPS] += 1
        for key, module in state_books(R):  # what a book left from an earlier round
            msg = module.read_state(P, s, key, chips_of(pl, key, where, starting, default=""),
                                    bag)
            if msg:
                raise RoundFileError(f"{where}: {msg}")
        all_draws.append(apply_script(SC, P, s, pl, where, starting, final, rs, card))
    FD = forced_draws(all_draws)
    die_faces, DS = die_script(d, label)
    counts = np.zeros(chips.N_TYPES, dtype=np.int64)
    for s in range(n):
        counts += chips.counts_of(list(P[s, L.CHIPS:L.CHIPS + P[s, L.F_NCHIPS]]))
    if "supply" in d:
        supply = chips.counts_of(chips_of(d, "supply", label, starting))
    else:
        supply = rs.supply - counts
        short = [chips.chip_name(t) for t in range(chips.N_TYPES) if supply[t] < 0]
        if short:
            raise RoundFileError(f"{label}: the bags hold more {', '.join(short)} than the box "
                                 f"has; give 'supply' explicitly")
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = n
    G[L.G_ROUND] = rnd
    G[L.G_START_PLAYER] = sp
    G[L.G_DIE_N] = len(die_faces) if die_faces else -1
    G[L.G_WITCH:L.G_WITCH + 3] = witches
    if "visit" in d:  # the witch a Visit from a Witch card brings (default: one at random)
        from sim.rules.witches import WITCH_IDS, witch_number

        if d["visit"] not in WITCH_IDS or witch_number(d["visit"]) in witches:
            raise RoundFileError(f"{label}: key 'visit': expected a witch id not in play "
                                 f"({', '.join(WITCH_IDS)})")
        G[L.G_VISIT] = witch_number(d["visit"])
    if card:
        G[L.G_DECK + rnd - 1] = card
        G[L.G_DECK_N] = rnd
    return PreparedRound(d, label, rs, n, P, G, R, SK, SP, SC, FD, DS, supply)


def play_prepared(pr: PreparedRound) -> dict:
    """Play a prepared round (the arrays are used up: prepare again to play it again)."""
    d, label, rs, n, P, G, R = pr.d, pr.label, pr.rs, pr.n, pr.P, pr.G, pr.R
    SK, SP, SC, FD, DS, supply = pr.SK, pr.SP, pr.SC, pr.FD, pr.DS, pr.supply
    E = np.zeros((5000, L.EV_WIDTH), dtype=np.int64)
    rng = np.zeros(N_STREAMS, dtype=np.uint64)
    res = play_checked_round(P, G, R, rs, n, supply, SK, SP, SC, FD, DS, rng, E, label)
    res.update(rules=rs.name, overrides=list(rs.overrides), rules_given="rules" in d or "set" in d,
               ruby_costs={"droplet": int(rs.game("ruby_cost_droplet")),
                           "flask": int(rs.game("ruby_cost_flask"))})
    return res


def play_checked_round(P, G, R, rs, n, supply, SK, SP, SC, FD, DS, rng, E, where) -> dict:
    """Play the scripted round set up in the arrays (its events into ``E``, from the start),
    raise a RoundFileError for any game error or unused script, and return its result."""
    # imported here: the kernel builds its hook tables when imported, and a round file's ruleset
    # may load rules files (``plugins``) that must come first
    from sim.kernel.round import play_rounds

    flask_before = P[:, L.F_FLASK].copy()
    # the games' compiled rounds, for this one round: with teams, play_rounds copies each
    # cauldron's deciding row from the players' rows (2 x cauldrons), here the round file's own
    rnd = int(G[L.G_ROUND])
    play_rounds(P, G, R, rs.coins, rs.vp, rs.ruby, rs.tails, rs.die, supply, rs.price,
                rs.book_round, rs.book_set, np.concatenate((SK, SK)), np.concatenate((SP, SP)),
                SK, SP, SC, FD, DS, rng, E, np.zeros((0, n, RD_WIDTH), dtype=np.int64),
                np.zeros(W_WIDTH, dtype=np.int64), slot_table(), rnd, rnd)
    events = [event_dict(row) for row in E[: count_events(E)]]
    check_errors(G, P, SC, events, where, flask_before)
    return round_result(P, events, n, supply, tube=bool(R[L.R_TUBE]),
                        witches=bool(R[L.R_WITCHES]))


def apply_script(SC, P, s, pl, where, starting, final, rs, card=0, game=False) -> list[int]:
    """Set seat s's forced draws count and scripted decisions from its table; return the draws."""
    SC[s, :] = 0
    P[s, L.F_FORCED_PTR] = 0
    draws = chips_of(pl, "draws", where, starting, default="", most=60)
    card_draws = chips_of(pl, "card_draws", where, starting, default="", most=60)
    if len(draws) + len(card_draws) > 60:
        raise RoundFileError(f"{where}: at most 60 draws")
    P[s, L.F_FORCED_N] = len(draws) if draws else -1
    P[s, L.F_CARD_ARG] = 0
    if card_draws:
        if card > 0 and card_numbered(card).draws_after:  # Strong Ingredient: after the potion's
            P[s, L.F_CARD_ARG] = len(card_draws)
            draws = draws + card_draws
        else:  # a purple card draws before the potion
            draws = card_draws + draws
            P[s, L.F_FORCED_N] = len(draws)
    blue = pl.get("blue", [])
    if not isinstance(blue, list) or len(blue) > S.SC_MAX_LIST:
        raise RoundFileError(f"{where}: key 'blue': expected a list "
                             f"(chip or \"none\" per blue chip)")
    SC[s, S.SC_NBLUE] = len(blue)
    for i, b in enumerate(blue):
        if b == "none":
            SC[s, S.SC_BLUE + i] = -1
        else:
            got = chips_of({"blue": b}, "blue", where, starting)
            if len(got) != 1:
                raise RoundFileError(f"{where}: key 'blue': each entry is one chip or \"none\"")
            SC[s, S.SC_BLUE + i] = got[0]
    yellow = pl.get("yellow", [])
    if (not isinstance(yellow, list) or not all(isinstance(y, bool) for y in yellow)
            or len(yellow) > S.SC_MAX_LIST):
        raise RoundFileError(f"{where}: key 'yellow': expected a list of true/false, "
                             "one per yellow chip")
    SC[s, S.SC_NYELLOW] = len(yellow)
    for i, y in enumerate(yellow):
        SC[s, S.SC_YELLOW + i] = int(y)
    red = pl.get("red", [])
    if (not isinstance(red, list) or not all(isinstance(x, bool) for x in red)
            or len(red) > S.SC_MAX_LIST):
        raise RoundFileError(f"{where}: key 'red': expected a list of true/false, one per red chip "
                             f"(true takes the extra distance its book offers)")
    SC[s, S.SC_NRED] = len(red)
    SC[s, S.SC_RED] = sum(1 << i for i, x in enumerate(red) if x)
    SC[s, S.SC_FLASK_ON] = int_of(pl, "flask_on", where, default=0, lo=0, hi=max(len(draws), 0))
    choice = pl.get("choice", "vp")
    if choice not in ("vp", "coins"):
        raise RoundFileError(f"{where}: key 'choice': expected \"vp\" or \"coins\"")
    SC[s, S.SC_CHOICE] = 1 if choice == "coins" else 0
    buy = chips_of(pl, "buy", where, starting, default="")
    if final and buy:
        raise RoundFileError(f"{where}: key 'buy': nothing is bought in the last round (round "
                             f"{rs.game('rounds')}): its coins turn into VP, "
                             f"{rs.game('final_coins_per_vp')} coins each")
    if len(buy) > 4:
        raise RoundFileError(f"{where}: key 'buy': at most {rs.game('max_buys')} chips")
    if len(buy) > rs.game("max_buys"):
        raise RoundFileError(f"{where}: buy: {len(buy)} chips; "
                             f"at most {rs.game('max_buys')} may be bought")
    SC[s, S.SC_NBUY] = len(buy)
    for i, t in enumerate(buy):
        SC[s, S.SC_BUY + i] = t
    spend = pl.get("spend", [])
    if (not isinstance(spend, list) or not all(x in ("droplet", "flask") for x in spend)
            or len(spend) > S.SC_MAX_LIST):
        raise RoundFileError(f"{where}: key 'spend': expected a list of \"droplet\" / \"flask\"")
    if final and spend:
        raise RoundFileError(f"{where}: key 'spend': no rubies are spent after the last round "
                             f"(round {rs.game('rounds')}): they turn into VP, "
                             f"{rs.game('final_rubies_per_vp')} rubies each")
    SC[s, S.SC_NSPEND] = len(spend)
    for i, x in enumerate(spend):
        SC[s, S.SC_SPEND + i] = L.SPEND_DROPLET if x == "droplet" else L.SPEND_FLASK
    SC[s, S.SC_PURPLE] = (int_of(pl, "purple", where, default=-1, lo=-1, hi=3)
                          if "purple" in pl else -1)
    if "card_choice" in pl:
        SC[s, S.SC_NCARD] = 1
        SC[s, S.SC_CARD] = card_choice(pl["card_choice"], where, starting)
    R = rules_scalars(rs)
    apply_book_script(SC, s, pl, where, starting, R)
    apply_tube_script(SC, s, pl, where, side=bool(R[L.R_TUBE]))
    apply_witch_script(SC, P, s, pl, where, starting, pennies=not game)
    return draws


def check_errors(G, P, SC, events, label, flask_before) -> None:
    err, seat, arg = int(G[L.G_ERR]), int(G[L.G_ERRSEAT]), int(G[L.G_ERRARG])
    where = f"{label}: seat {seat}"
    name = chips.chip_name(arg) if 0 <= arg < chips.N_TYPES else str(arg)
    if err == GERR_BUY_UNAVAILABLE:
        raise RoundFileError(f"{where}: cannot buy {name}: its book is not out, it is not sold, "
                             "or it is sold out")
    if err == GERR_BUY_SAME_COLOUR:
        raise RoundFileError(f"{where}: cannot buy two chips of one colour ({name})")
    if err == GERR_BUY_OVER_BUDGET:
        raise RoundFileError(f"{where}: cannot afford {name} with the coins of the reward space")
    if err == GERR_BUY_TOO_MANY:
        raise RoundFileError(f"{where}: too many chips bought")
    if err == GERR_SPEND:
        what = "droplet" if arg == L.SPEND_DROPLET else "flask"
        raise RoundFileError(f"{where}: cannot spend rubies on {what}: not enough rubies"
                             + (" or the flask is already full" if what == "flask" else ""))
    if err == GERR_DIE_SHORT:
        raise RoundFileError(f"{label}: key 'die': seat {seat} rolls the bonus die but no face "
                             "is left in the list")
    if err == GERR_BLUE:
        msg = {
            1: "a listed draw is not in the bag when it is drawn",
            2: "a blue chip looks at more chips than 'draws' lists; list them right after it",
            3: "'blue' has no entry for a blue chip that was drawn",
            4: "the 'blue' entry names a chip that the blue chip did not look at",
        }.get(arg, f"script error {arg}")
        raise RoundFileError(f"{where}: {msg}")
    for s in range(P.shape[0]):
        k = int(SC[s, S.SC_FLASK_ON])
        if k and not any(e["event"] == "flask" and e.get("seat") == s for e in events):
            why = "the flask is empty" if not flask_before[s] else (
                "that draw is not a white chip placed without exploding")
            raise RoundFileError(f"{label}: seat {s}: flask_on = {k}: {why}")


def round_result(P, events, n, supply, tube=False, witches=False) -> dict:
    players = []
    for s in range(n):
        ev = [e for e in events if e.get("seat") == s]
        rat = next((e["tails"] for e in ev if e["event"] == "rat"), 0)
        players.append({
            "rat": rat,
            "placements": [{"chip": chips.chip_name(int(P[s, L.POT_T + i])),
                            "index": int(P[s, L.POT_P + i])}
                           for i in range(int(P[s, L.F_NPOT]))],
            "exploded": bool(P[s, L.F_EXPLODED]),
            "reward_space": int(P[s, L.F_REWARD]),
            "die": [e["face"] for e in ev if e["event"] == "die"],
            "vp_gained": int(P[s, L.F_VPGAIN]),
            "coins": int(P[s, L.F_COINS]),
            "bought": [e["chip"] for e in ev if e["event"] == "buy"],
            "rubies": int(P[s, L.F_RUBIES]),
            "droplet": int(P[s, L.F_DROPLET]),
            "flask": bool(P[s, L.F_FLASK]),
            "score": int(P[s, L.F_SCORE]),
            "bag": chips.format_counts(
                chips.counts_of(list(P[s, L.CHIPS:L.CHIPS + P[s, L.F_NCHIPS]]))),
        })
        if tube:  # the test-tube side: the glass the test-tube droplet is on
            players[-1]["glass"] = int(P[s, L.F_TUBE])
        if P[s, L.F_BOWL_N] > 0:  # the overflow bowl (Herb Witches)
            kept = [e["chip"] for i, e in enumerate(ev) if e["event"] == "bowl" and not (
                i + 1 < len(ev) and ev[i + 1]["event"] == "flask" and ev[i + 1]["index"] > 52)]
            players[-1]["bowl"] = {"chips": kept,
                                   "value": int(P[s, L.F_BOWL_SUM]),
                                   "vp": int(P[s, L.F_BOWL_SUM]) // 2}
        if witches:  # the herb witches called this round and the pennies still held
            from sim.rules.witches import GROUPS

            players[-1]["witches"] = [e["witch"] for e in ev
                                      if e["event"] == "witch" and "witch" in e]
            players[-1]["pennies"] = [g for i, g in enumerate(GROUPS) if (P[s, L.F_PENNY] >> i) & 1]
        for module in dict.fromkeys(m for _, m in state_books()):  # what a book leaves
            if hasattr(module, "write_state"):
                players[-1].update(module.write_state(P, s))
    return {"players": players, "supply": chips.format_counts(supply), "events": events}
