"""A rule's own events, declared with it: ``book(..., events=(event(...), ...))``, or
``events=event(...)`` for one (and ``card(..., events=...)``). What its kernel module records
beyond the core's events (``sim.kernel.event_codes``): its name in replays and JSON, its row's
fields and its replay text.

An event row is ``round, seat, code, a, b, c``. ``a``, ``b`` and ``c`` name the fields they decode
into, in that order (``"draws"``; ``"chip:chip"``: a chip type shown by name, None for -1;
``":bool"``, ``":opt"``: a count, None when negative); ``decode=`` a function of ``(a, b, c)``
instead, for fields that are not one value each. ``text`` is the replay's template over the
decoded fields (the mini-language of ``sim.api.event_table``: ``{draws:~draw}`` the count with its
noun, ``{taken:?takes/declines}`` one of two words), a dict of templates by one field's value with
``text_by``. ``doc`` says what the fields mean.

The code a kernel module records is ``event_code(BOOK, "name")`` (``sim.kernel.event_codes``):
derived from the rule (a book's colour and set, a card's number) and the event's place in its
declaration, so a user's rule gets codes of its own. ``text=`` and ``doc=`` of an ``event(...)``
are left out of the compiled code's cache stamp (``sim.numba_cache``): editing an event's text
recompiles nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sim.rules import chips

EVENTS_PER_RULE = 8  # the most events one rule declares (each rule has this many codes)
NAMED_FIELDS = "{title}{fields}"  # a text: the event's name and its named fields
LAST_CHIP_SPACE = 52  # every ruleset's last chip space (game.last_chip_space); past it: the bowl
FIELD_KINDS = ("int", "chip", "bool", "opt")  # how a field's value shows (see the docstring)


@dataclass(frozen=True)
class EventDeclaration:
    """One of a rule's events: its name, replay text, fields (``a``, ``b``, ``c``: ``key`` or
    ``key:kind``) or decoder, what they mean (``doc``), and for ``quacks potion --draws``
    whether it takes a chip from the listed draws (``takes_draw``) or puts the chip it names
    back into the bag (``returns``: the word it is returned ``by``)."""

    name: str
    text: str | tuple  # a template, or (value, template) pairs by ``text_by``'s value
    a: str = ""
    b: str = ""
    c: str = ""
    decode: Callable | None = field(default=None, compare=False)
    text_by: str = ""
    doc: str = ""
    takes_draw: bool = False
    returns: str = ""

    @property
    def template(self) -> str | dict:
        """Its replay text: a template, or a dict of templates by ``text_by``'s value."""
        return dict(self.text) if self.text_by else self.text

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        """(key, kind) of ``a``, ``b``, ``c`` in that order, up to the last one declared."""
        spec = (self.a, self.b, self.c)
        n = max((i + 1 for i, f in enumerate(spec) if f), default=0)
        return tuple((f.partition(":")[0], f.partition(":")[2] or "int") for f in spec[:n])


def chip_field(t: int) -> str | None:
    """A chip type's name, or None for a value that is no chip type (-1: none)."""
    return chips.chip_name(t) if 0 <= t < chips.N_TYPES else None


def event(name: str, *, text: str | dict = NAMED_FIELDS, a: str = "", b: str = "", c: str = "",
          decode: Callable | None = None, text_by: str = "", doc: str = "",
          takes_draw: bool = False, returns: str = "") -> EventDeclaration:
    """One of a rule's events (see the module docstring); ValueError (one line) for a value that
    cannot be right."""
    if not isinstance(name, str) or not name or name != name.lower() or " " in name:
        raise ValueError(f"event {name!r}: lower case words joined by '_'")
    for f in (a, b, c):
        if f and f.partition(":")[2] not in ("", *FIELD_KINDS):
            raise ValueError(f"event '{name}': field {f!r}, a kind is one of "
                             f"{', '.join(FIELD_KINDS)}")
    if isinstance(text, dict) != bool(text_by):
        raise ValueError(f"event '{name}': a dict text goes with text_by (the field it is by)")
    text = tuple(text.items()) if isinstance(text, dict) else str(text)
    return EventDeclaration(name, text, a, b, c, decode, text_by, str(doc), bool(takes_draw),
                            str(returns))


def checked_events(rule: str, events) -> tuple[EventDeclaration, ...]:
    """A rule's ``events=``, checked: one event(...) declaration or a tuple of them, one a name,
    at most ``EVENTS_PER_RULE``; ValueError (one line naming the rule) otherwise."""
    events = (events,) if isinstance(events, EventDeclaration) else tuple(events)
    if not all(isinstance(e, EventDeclaration) for e in events) \
            or len({e.name for e in events}) != len(events):
        raise ValueError(f"{rule}: events is a tuple of event(...), one a name")
    if len(events) > EVENTS_PER_RULE:
        raise ValueError(f"{rule}: at most {EVENTS_PER_RULE} events")
    return events


def event_index(rule: str, events: tuple[EventDeclaration, ...], name: str) -> int:
    """The place of event ``name`` in a rule's declaration; ValueError if it declares none."""
    for i, e in enumerate(events):
        if e.name == name:
            return i
    raise ValueError(f"{rule}: no event {name!r} is declared")
