"""Kernel events as named, JSON-ready dicts and as replay text: the event and card-gain names,
``event_dict`` for one event row, ``event_text`` for one line of a replay."""

from __future__ import annotations

import string

import numpy as np

from sim.kernel import layout as L
from sim.kernel.event_codes import EVENTS, EventCode
from sim.rules import cards as rules_cards
from sim.rules import chips
from sim.rules.ruleset import Ruleset


def event_seat_names(ruleset: Ruleset, names: list[str]) -> list[str]:
    """The names events use for their seats: the players, or with ``game.teams`` the two
    cauldrons (team t is players t and t + 2, who take turns deciding, t in odd rounds)."""
    if not ruleset.game("teams"):
        return names
    h = len(names) // 2
    return [f"team {'AB'[t]} ({names[t]} & {names[t + h]})" for t in range(h)]


def count_events(E: np.ndarray) -> int:
    """The number of events a kernel recorded into ``E`` (rows after the last are zero)."""
    nz = np.nonzero(E[:, 2])[0]
    return int(nz[-1]) + 1 if len(nz) else 0


DIE_NAMES = ("1 VP", "2 VP", "ruby", "droplet", "pumpkin")
FACE_KEYS = ("vp1", "vp2", "ruby", "droplet", "pumpkin")
EVENT_NAMES = {e.code: e.name for e in EVENTS}  # declared in sim.kernel.event_codes
# EV_CARD_GAIN kinds: their names, as declared in sim.rules.cards.CARD_GAINS
CARD_GAINS = {kind: name for kind, (name, _text) in enumerate(rules_cards.CARD_GAINS)}
LAST_CHIP_SPACE = 52  # every ruleset's last chip space (game.last_chip_space); past it: the bowl
STOP_NAMES = {code: text for code, (_name, text) in enumerate(L.STOP_REASONS, 1)}


def event_dict(row) -> dict:
    """One event row as a JSON-ready dict with named fields."""
    rnd, seat, code, a, b, c = (int(x) for x in row)
    d: dict = {"round": rnd, "event": EVENT_NAMES.get(code, str(code))}
    if seat >= 0:
        d["seat"] = seat
    chip = chips.chip_name(a) if 0 <= a < chips.N_TYPES else None
    if code == L.EV_ROUND:
        d["start_player"] = a
    elif code == L.EV_BOOK:
        d["colour"] = chips.COLOUR_NAMES[a]
    elif code in (L.EV_WHITE_ADDED, L.EV_DRAW, L.EV_BLUE_LOOK):
        d["chip"] = chip
    elif code in (L.EV_YELLOW, L.EV_FLASK):
        d.update(chip=chip, index=b)
    elif code == L.EV_RED:
        d.update(chip=chip, extra=b, taken=bool(c))
    elif code == L.EV_BLUE_PICK:
        d["chip"] = chip if a >= 0 else None
    elif code == L.EV_PLACE:
        d.update(chip=chip, index=b)
        if c:  # red Set 6: a chip held beside the pot, placed once the potion ended
            d["held"] = True
    elif code == L.EV_EXPLODE:
        d["white_total"] = a
    elif code == L.EV_RAT:
        d.update(tails=a, start=b)
    elif code == L.EV_STOP:
        d.update(reason=STOP_NAMES.get(a, str(a)), reward_space=b, white_total=c)
    elif code == L.EV_REWARD:
        d.update(space=a, coins=b, vp=c)
    elif code == L.EV_DIE:
        d["face"] = FACE_KEYS[a]
    elif code == L.EV_GREEN:
        d["rubies"] = a
    elif code == L.EV_PURPLE:
        d["tier"] = a
    elif code == L.EV_BLACK:
        d.update(droplet=a, ruby=b)
    elif code == L.EV_RUBY:
        d["rubies"] = a
    elif code == L.EV_CHOICE:
        d["choice"] = "coins" if a else "vp"
    elif code == L.EV_VP:
        d.update(vp=a, score=b)
    elif code == L.EV_BUY:
        d.update(chip=chip, price=b)
    elif code == L.EV_SPEND:
        d.update(on="droplet" if a == L.SPEND_DROPLET else "flask", rubies_left=b)
    elif code == L.EV_CONVERT:
        d.update(vp_from_coins=a, vp_from_rubies=b)
    elif code == L.EV_SCORE:
        d.update(score=a, rubies=b, droplet=c)
    elif code == L.EV_FINAL:
        d.update(rank=a, score=b, win_share=c / 1e6)
    elif code in (L.EV_ASIDE, L.EV_GREEN_CHIP, L.EV_CARD_LOOK):
        d["chip"] = chip
    elif code == L.EV_RED_AFTER:
        d.update(chip=chip, action=("place", "keep", "return")[b], index=c)
        if b == 0 and c > LAST_CHIP_SPACE:
            d.update(action="bowl", index=None)  # past the last space: the overflow bowl
    elif code == L.EV_PROTECT:
        d["draws"] = a
    elif code in (L.EV_BLUE_RUBY,):
        d["rubies"] = a
    elif code in (L.EV_BLUE_VP, L.EV_PURPLE_VP):
        d["vp"] = a
    elif code == L.EV_BLUE_ORANGE:
        d.update(vp=a, orange=b)
    elif code == L.EV_BLUE_WHITE:
        d.update(rubies=a, looked=b)
    elif code == L.EV_LIMIT:
        d["limit"] = a
    elif code == L.EV_GREEN_MOVE:
        d.update(spaces=a, reward_space=b)
    elif code == L.EV_GREEN_DROPLET:
        d["droplet"] = a
    elif code == L.EV_PURPLE_TRADE:
        d["tier"] = a
    elif code == L.EV_UPGRADE:
        d.update(chip=chip, to=chips.chip_name(b))
    elif code == L.EV_CARD:
        from sim.rules.cards import card_numbered

        d["card"] = card_numbered(a).id
    elif code == L.EV_TUBE:
        d.update(glass=a, bonus=glass_name(b), given=not c)
    elif code in (L.EV_GREEN_FIRST, L.EV_FIRST):
        d["chip"] = chip
    elif code == L.EV_GREEN_DIE:
        d["rolls"] = a
    elif code == L.EV_RED_HOLD:
        d.update(chip=chip, held=b == 1)
        if b == 2:  # a held chip placed now, before a draw, with its action
            d["placed_from_beside"] = True
    elif code == L.EV_YELLOW_PUSH:
        d.update(chip=chip, spaces=b, index=c)
    elif code == L.EV_YELLOW_RUBY:
        d["spaces"] = a
    elif code == L.EV_PURPLE_COINS:
        d.update(coins=a, vp=b)
    elif code == L.EV_BLACK_GIFT:
        d["to_seat"] = a
    elif code == L.EV_LOCO:
        d.update(copies=chip, spaces=b if b >= 0 else None)
    elif code == L.EV_BLACK_RUBY:
        d["rubies"] = a
    elif code in (L.EV_BOWL, L.EV_WITCH_LOOK):
        d["chip"] = chip
        if code == L.EV_BOWL:
            d["bowl_value"] = b
    elif code == L.EV_BOWL_VP:
        d.update(vp=a, score=b)
    elif code == L.EV_WITCHES:
        from sim.rules.witches import witch_by_number

        d["witches"] = [witch_by_number(w).id for w in (a, b, c) if w > 0]
    elif code == L.EV_VISIT:
        from sim.rules.witches import witch_by_number

        d["witch"] = witch_by_number(a).id if a > 0 else None
    elif code == L.EV_WITCH:
        d.update(witch_event(a, b, c))
    elif code == L.EV_CARD_GAIN:
        d["effect"] = CARD_GAINS.get(a, str(a))
        if d["effect"] in ("chip", "chip_removed"):
            d["chip"] = chips.chip_name(b)
        elif d["effect"] in ("penny_given", "penny_back"):
            from sim.rules.witches import GROUPS

            d["group"] = GROUPS[b]
        else:
            d["amount"] = b
    return d


def witch_event(w: int, b: int, c: int) -> dict:
    """The fields of a witch event: which witch and what she did (``Witch.event`` in
    ``sim.rules.witches``; w = 0: pennies scored at the end)."""
    from sim.rules.witches import witch_by_number

    if w == 0:
        return {"pennies_kept": b, "vp": c}
    witch = witch_by_number(w)
    return {"witch": witch.id, **witch.event(b, c)}  # her fields are declared with her


def glass_name(code: int) -> str:
    """A test-tube glass bonus code as the ruleset writes it: ``ruby``, ``vp:2``, ``b1``."""
    if code >= L.TUBE_VP:
        return f"vp:{code - L.TUBE_VP}"
    if code >= L.TUBE_RUBY:
        return "ruby" if code == L.TUBE_RUBY + 1 else f"ruby:{code - L.TUBE_RUBY}"
    return chips.chip_name(code)


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 ruby``, ``2 rubies``, ``0 coins``: a count with its noun in the right number."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


class _TextFormatter(string.Formatter):
    """Fills the replay text templates of ``sim.kernel.event_codes`` (its mini-language)."""

    def get_value(self, key, args, kwargs):
        for k in str(key).split("|"):  # {chip|amount}: the first key the event has
            if k in kwargs:
                return kwargs[k]
        return ""

    def format_field(self, value, spec):
        if spec.startswith("~"):  # {k:~ruby/rubies}: the count with its noun
            word, _, many = spec[1:].partition("/")
            return plural(value, word, many or None)
        if spec.startswith("?"):  # {k:?yes/no}
            yes, _, no = spec[1:].partition("/")
            return yes if value else no
        if spec.startswith("|"):  # {k:|word}: the value, or word when it is empty
            return str(value or spec[1:])
        return super().format_field(value, spec)


_FORMATTER = _TextFormatter()
_BY_NAME: dict[str, EventCode] = {e.name: e for e in EVENTS}


def event_text(d: dict, names: list[str], ruby_costs: dict[str, int] | None = None) -> str:
    """A human line for one event dict, from its declared template (``sim.kernel.event_codes``).
    ``ruby_costs`` (``{"droplet": n, "flask": m}``, from the ruleset) says what a ruby spending
    cost; without it the base game's 2 is shown."""
    costs = ruby_costs or {}
    who = f"  {names[d['seat']]} (seat {d['seat']}): " if "seat" in d else ""
    e = d["event"]
    ev = _BY_NAME.get(e)
    fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in d.items()
                       if k not in ("round", "event", "seat") and v is not None)
    values = {**d, "title": e.replace("_", " "), "fields": f": {fields}" if fields else "",
              "cost": costs.get(d.get("on"), 2)}
    if ev is not None and ev.heading:
        who = ""
    if ev is None:
        template = "{title}{fields}"
    elif ev.text_by:
        template = ev.text[d[ev.text_by]]
    else:
        template = ev.text
    return who + _FORMATTER.vformat(template, (), values)
