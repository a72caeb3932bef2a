"""How a herb witch declares herself (``WITCH = witch(...)`` at the top of her module, shipped in
``sim/kernel/witches/`` or in a user's rules file) and the hook points she may use. Re-exported
by ``sim.rules.declare``, which rules files import it from."""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.event_declare import NAMED_FIELDS, checked_events, event
from sim.rules.hook_points import USER_NUMBER, HookPoint, rule_text
from sim.rules.hook_points import hook_params as _p

WITCH_GROUPS = ("potion", "buying", "points")  # a group's witch is number 4 g + k (k 1-4) shipped
# how a round file's ``witch.<id>`` answers her (``sim.api.round_script``): true/false (call),
# whites-back's true, 1, 2 or {after, whites}, six-chips' {after, place}, upgrade's "last2", an
# index or "none", free-twin's chip bought
SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX = "call", "whites", "six"
SCRIPT_POT_ENTRY, SCRIPT_BOUGHT = "pot-entry", "bought"
SCRIPT_FORMS = (SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX, SCRIPT_POT_ENTRY, SCRIPT_BOUGHT)
# the numbers given to the user's witches as their files are loaded (id -> number), so that a
# rules file's ``WITCH.number`` is her number when the kernel imports it
USER_WITCH_NUMBERS: dict[str, int] = {}
# her call's event (``call_witch``: the penny given up, what she did in ``b`` and ``c``): the first
# of her events, declared with its fields (``{"b": b, "c": c}`` when she declares none)
WITCH_CALL = "witch"


@dataclass(frozen=True)
class WitchDeclaration:
    """What a witch's module declares of her: her kernel number (a shipped witch's, 1-12; 0 in a
    user's file), id, group (``WITCH_GROUPS``), name and text (``doc``), the phase she acts in
    (words for a person), her events (``events``: ``event(...)``, ``sim.rules.event_declare``;
    the first is her call's, ``WITCH_CALL``, its fields from the ``b`` and ``c`` she gives
    ``call_witch``), the built-in strategy's first round and thresholds (``params``: ``(P_W_*
    name, offset in SP[s, SLOT_WITCH], default)``) and the form of a round file's answer
    (``script``)."""

    number: int
    id: str
    group: str
    name: str
    doc: str
    phase: str = ""
    events: tuple = ()  # her events (``event(...)``), her call's (``WITCH_CALL``) first
    first_round: int = 1
    params: tuple = ()
    script: str = SCRIPT_CALL

    def param(self, name: str) -> int:
        """The offset in ``SP[s, SLOT_WITCH]`` of her declared threshold ``name``."""
        for n, off, _default in self.params:
            if n == name:
                return off
        raise KeyError(f"witch '{self.id}' declares no threshold {name}")


def witch(number: int, id: str, group: str, *, name: str, doc: str, phase: str = "",  # noqa: A002
          events: tuple = (), first_round: int = 1, params: tuple = (),
          script: str = SCRIPT_CALL, **old) -> WitchDeclaration:
    """A witch's declaration (``number``: ``USER_NUMBER`` in a user's file; ``doc``: her text,
    or her module's docstring, ``doc=__doc__``, whose first paragraph is her text; ``events``:
    her call's event ``event("witch", b=..., c=...)`` first, if she declares its fields, then her
    own); ValueError (one line) for a value that cannot be right."""
    if "event" in old:
        raise ValueError(f"witch '{id}': event= is now events=(event(\"{WITCH_CALL}\", b=..., "
                         "c=...),): her call's fields, declared as a book's events are")
    if old:
        raise TypeError(f"witch() got an unexpected keyword argument {next(iter(old))!r}")
    if not isinstance(id, str) or not id or id != id.lower() or " " in id:
        raise ValueError(f"witch id {id!r}: lower case words joined by '-'")
    if group not in WITCH_GROUPS:
        raise ValueError(f"witch '{id}': group {group!r}, expected one of "
                         f"{', '.join(WITCH_GROUPS)}")
    if script not in SCRIPT_FORMS:
        raise ValueError(f"witch '{id}': script {script!r}, expected one of "
                         f"{', '.join(SCRIPT_FORMS)}")
    if not isinstance(number, int) or number < 0:
        raise ValueError(f"witch '{id}': number {number!r}")
    if not isinstance(first_round, int) or first_round < 1:
        raise ValueError(f"witch '{id}': first_round {first_round!r}, expected a round 1 or later")
    events = checked_events(f"witch '{id}'", events)
    if WITCH_CALL not in (e.name for e in events):
        events = (event(WITCH_CALL, b="b", c="c"), *events)
    if events[0].name != WITCH_CALL or events[0].a or events[0].text != NAMED_FIELDS:
        raise ValueError(f"witch '{id}': her call's event '{WITCH_CALL}' comes first, names b and "
                         "c only (a is her number) and has the witch event's text (no text=)")
    params = tuple((str(n), int(off), d) for n, off, d in params)
    number = number or USER_WITCH_NUMBERS.get(id, USER_NUMBER)
    return WitchDeclaration(number, id, group, str(name), rule_text(str(doc)), str(phase),
                            events, first_round, params, script)


_W_SEAT = "P s G R SK SP SC rng E UF"

# A witch's functions, named after these (called when she is in play and the seat holds her
# group's penny, or she visits: ``witch_ready``; ``die_caller``, ``ruby_price`` and
# ``after_spending`` instead when the seat called her this game: ``CALLED_HOOK_POINTS``), in the
# order of a round. ``default(P, s, arg,
# G, R, SP)`` is her built-in answer (``witch_answer``'s ``ASK_DEFAULT``).
WITCH_HOOK_POINTS: tuple[HookPoint, ...] = (
    HookPoint("between_draws", _p("P s stopping G R SK SP SC FD rng E UF"), "False",
              draw_time=True, per_chip=True, doc="between draws of an intact pot (`stopping`: "
              "the seat would stop now); True if called: the first ready witch acts (six "
              "chips, whites back)"),
    HookPoint("exploded", _p("P s t bowl G R SK SP SC rng E UF"), "False", draw_time=True,
              doc="the pot just exploded on chip t (in the bowl if `bowl`), after the card; "
              "True if the potion goes on (second flask)"),
    HookPoint("at_die", _p(_W_SEAT), "False", doc="step A, before the bonus die, each seat in "
              "start-player order; True lets the seat roll if it got furthest (both rewards)"),
    HookPoint("die_caller", _p("P s G R"), "False", doc="step A, each seat in start-player "
              "order that called her this game: True if it called her at the die this round "
              "(she clears her mark): it rolls if it got furthest of those who did and no intact "
              "potion is further (both rewards)"),
    HookPoint("at_rubies", _p("P s vp rubies G R SK SP SC rng E UF"), "rubies",
              doc="step C on a ruby space worth vp VP: the rubies seat s takes (ruby space)"),
    HookPoint("at_points", _p("P s take_vp G R SK SP SC rng E UF"), doc="step D, after seat s "
              "scored its reward space (`take_vp`: it took the VP; colours, bag points)"),
    HookPoint("before_buying", _p("P s coins G R supply SK SP SC rng E UF"), "coins",
              doc="step E, before seat s buys: the coins it may spend (upgrade, double coins, "
              "ruby coins)"),
    HookPoint("after_buying", _p("P s nbought G R supply SK SP SC rng E UF"), doc="step E, "
              "after seat s bought nbought chips, listed at G_OUT (free twin)"),
    HookPoint("at_spending", _p(_W_SEAT), doc="step F, before seat s spends rubies (cheap "
              "rubies)"),
    HookPoint("ruby_price", _p("P s on price R"), "price", doc="step F, a seat that called "
              "her this game: the rubies a droplet move (`on`: SPEND_DROPLET) or a flask refill "
              "(SPEND_FLASK) costs, `price` if she changes nothing (cheap rubies)"),
    HookPoint("after_spending", _p(_W_SEAT), doc="step F, after seat s spent its rubies, if it "
              "called her this game (cheap rubies: her price ends)"),
    HookPoint("final_coins", _p("P s coins G R SK SP SC rng E UF"), "coins", doc="the last "
              "round, before seat s turns coins into VP: the coins converted (double coins)"),
)
WITCH_HOOKS: dict[str, HookPoint] = {h.name: h for h in WITCH_HOOK_POINTS}
# what the core does for a witch already called: called for a seat that called her this game
# (her penny is given up, so ``witch_ready`` no longer holds)
CALLED_HOOK_POINTS = ("die_caller", "ruby_price", "after_spending")
WITCH_SPECIAL_FUNCTIONS = ("default",)
