"""What the studies' settings share (``sim.study.common.settings``): the fields kept as tuples,
the seated field and where the games run, declared once for balance, sensitivity and design."""

from __future__ import annotations

import dataclasses

from sim.study.balance.settings import BalanceSettings, SeatedSettings
from sim.study.common.settings import PlacedSettings, placed_backend
from sim.study.compare.config import RulesetSpec
from sim.study.design.design import DesignSettings
from sim.study.design.sensitivity import SensitivitySettings
from sim.study.exploit.run import ExploitSettings


def test_the_seated_and_placed_fields_are_declared_once():
    shared = {f.name for f in dataclasses.fields(SeatedSettings)}
    assert shared == {"rules", "overrides", "players", "field", "seed", "backend", "scheduler",
                      "workers", "threads"}
    for cls in (BalanceSettings, SensitivitySettings, DesignSettings):
        assert issubclass(cls, SeatedSettings)
        own = {n for n, _ in cls.__annotations__.items() if n != "TUPLES"}
        assert not own & shared, cls.__name__


def test_lists_become_tuples_and_json_lists():
    s = DesignSettings(["game.rounds=8:9"], overrides=["game.rounds=9"], field=["expert"],
                       bands=[["seat0_win_share", 0.2, 0.3]], retune_params=["t=5:8"], workers=2)
    assert s.knobs == ("game.rounds=8:9",) and s.field == ("expert",)
    assert s.bands == (("seat0_win_share", 0.2, 0.3),)
    d = s.to_json()
    assert all(isinstance(d[k], list) for k in DesignSettings.TUPLES)
    assert d["bands"] == [["seat0_win_share", 0.2, 0.3]] and d["workers"] == 2
    b = BalanceSettings(weak=["greedy"], parts=["game"])
    assert b.weak == ("greedy",) and b.to_json()["parts"] == ["game"]
    e = ExploitSettings([RulesetSpec("base", "base")], strategies=["expert", "greedy"])
    assert isinstance(e.variants, tuple) and e.strategies == ("expert", "greedy")


def test_a_given_backend_is_used_as_it_is():
    given = object()
    with placed_backend(SensitivitySettings(["game.rounds=8:9"]), given) as be:
        assert be is given
    assert issubclass(SensitivitySettings, PlacedSettings)
