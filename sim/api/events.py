"""Kernel events as named, JSON-ready dicts and as replay text: ``event_dict`` for one event row,
``event_text`` for one line of a replay, both from the events' declaration
(``sim.api.event_table``)."""

from __future__ import annotations

import string

import numpy as np

from sim.api.event_table import (  # noqa: F401 (CARD_GAINS, FACE_KEYS: read from here)
    CARD_GAINS,
    EVENTS,
    FACE_KEYS,
    NAMED_FIELDS,
    event_by_code,
    event_by_name,
)
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


EVENT_NAMES = {e.code: e.name for e in EVENTS}  # the core's, declared in sim.kernel.event_codes


def event_dict(row) -> dict:
    """One event row as a JSON-ready dict with named fields (decoded as its event declares,
    ``sim.api.event_table``)."""
    rnd, seat, code, a, b, c = (int(x) for x in row)
    ev = event_by_code(code)
    d: dict = {"round": rnd, "event": ev.name if ev is not None else str(code)}
    if seat >= 0:
        d["seat"] = seat
    if ev is not None and ev.decode is not None:
        d.update(ev.decode(a, b, c))
    return d


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 ruby``, ``2 rubies``, ``0 coins``: a count with its noun in the right number."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


class _TextFormatter(string.Formatter):
    """Fills the replay text templates of ``sim.api.event_table`` (its mini-language)."""

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


def event_text(d: dict, names: list[str], ruby_costs: dict[str, int] | None = None) -> str:
    """A human line for one event dict, from its declared template (``sim.api.event_table``).
    ``ruby_costs`` (``{"droplet": n, "flask": m}``, from the ruleset) says what a ruby spending
    cost; without it the base game's 2 is shown."""
    costs = ruby_costs or {}
    who = f"  {names[d['seat']]} (seat {d['seat']}): " if "seat" in d else ""
    e = d["event"]
    ev = event_by_name(e)
    fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in d.items()
                       if k not in ("round", "event", "seat") and v is not None)
    values = {**d, "title": e.replace("_", " "), "fields": f": {fields}" if fields else "",
              "cost": costs.get(d.get("on"), 2)}
    if ev is not None and ev.heading:
        who = ""
    if ev is None:
        template = NAMED_FIELDS
    elif ev.text_by:
        template = ev.text[d[ev.text_by]]
    else:
        template = ev.text
    return who + _FORMATTER.vformat(template, (), values)
