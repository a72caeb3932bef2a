"""Every kernel event code and card-gain kind has a name in the API's event decoding (a missing
one printed a bare number in replays and JSON)."""

from __future__ import annotations

from sim.api.events import CARD_GAINS, EVENT_NAMES
from sim.kernel import cards as K
from sim.kernel import layout as L


def test_every_card_gain_kind_has_a_name():
    kinds = {v for k, v in vars(K).items() if k.startswith("GAIN_")}
    assert kinds and kinds <= set(CARD_GAINS), sorted(kinds - set(CARD_GAINS))
    assert len(set(CARD_GAINS.values())) == len(CARD_GAINS)


def test_every_event_code_has_a_name():
    codes = {v for k, v in vars(L).items() if k.startswith("EV_") and k != "EV_WIDTH"}
    assert codes <= set(EVENT_NAMES), sorted(codes - set(EVENT_NAMES))
    assert len(set(EVENT_NAMES.values())) == len(EVENT_NAMES)
