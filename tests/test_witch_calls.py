"""Issue 45: a Herb Witches game makes fewer calls for its witches (a call passes about a hundred
words of arrays). The witches that act once a seat and round are one call each behind their hook
table's test, with their built-in answers inlined into them (inlined into the table, they were
compiled into the whole round: issue 45 item 1); the strategy's answer (``witch_answer``) is
inlined, and only a script, a user slot function or the random strategy is asked through a call
(``slot_answer``); the supply the buying strategy sees is copied again only when a buying witch
was called. The games are unchanged (``benchmarks/game_checksums.py --check``);
``benchmarks/witch_ablation.py`` times the parts."""

from __future__ import annotations

from sim.kernel.decisions import witch as answers
from sim.kernel.witches import (
    bag_points,
    both_rewards,
    cheap_rubies,
    colours,
    double_coins,
    free_twin,
    hooks,
    ruby_coins,
    ruby_space,
    six_chips,
    upgrade,
    whites_back,
)


def inlined(fn) -> bool:
    """Whether a kernel function is inlined into its callers."""
    return fn.targetoptions.get("inline") == "always"


def test_the_answer_is_inlined_but_for_scripts_users_and_random():
    assert inlined(answers.witch_answer)
    assert inlined(answers.built_in_answer)
    assert inlined(answers.points_default)
    assert not inlined(answers.slot_answer)  # the rare kinds keep one compiled copy


def test_the_once_a_round_witches_are_calls_behind_their_hook_table():
    """Issue 45 item 1: a once-a-round witch's hook function is one compiled call, made only
    when ``witch_ready`` holds (the table's test, inlined into the round); her built-in answer
    is inlined into it. Inlined into the table, every witch's whole call was compiled into the
    round itself (``play_rounds``' own compile 87 -> 57 CPU s under load); a call costs once a
    seat and round, and only for a seat that holds her penny or is visited."""
    once_a_round = (colours.at_points, bag_points.at_points, ruby_space.at_rubies,
                    cheap_rubies.at_spending, ruby_coins.before_buying,
                    double_coins.before_buying, double_coins.final_coins, both_rewards.at_die,
                    free_twin.after_buying, upgrade.before_buying)
    for fn in once_a_round:
        assert not inlined(fn), fn.py_func.__qualname__
    for fn in (six_chips.between_draws, whites_back.between_draws):  # per draw, in a call
        assert inlined(fn), fn.py_func.__qualname__
    for module in (colours, bag_points, ruby_space, cheap_rubies, ruby_coins, double_coins,
                   both_rewards, free_twin, six_chips, whites_back):
        assert inlined(module.default), module.__name__


def test_the_shop_is_copied_again_only_after_a_call():
    source = hooks.SOURCE.split("def step_e_before_buying")[1]
    assert "if P[s, F_PENNY] != penny or P[s, F_VISITED] != visited:" in source
