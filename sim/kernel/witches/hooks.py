"""The hook table of the herb witches: every point of a round where a witch can act, each a kernel
function that checks which witches are in play (``witch_ready``: in play and the seat holds her
group's penny, or she visits) and calls that witch's own function in her module
(``sim.kernel.witches.<id>``). The brewing, explosion and evaluation code call these hooks and
never name a witch; witches only play under the Herb Witches ruleset (``R_WITCHES``), so a game
without them makes one compare at each point.

Hook points, in the order of a round (the witch's function in her module):

- ``between_draws_possible`` / ``between_draws``: between draws of an intact pot (``stopping``:
  the seat would stop now): six chips, whites back (``between_draws``). The quick test runs per
  chip; the first ready witch of the table acts. These two are in ``potion_hooks``, which
  ``sim.kernel.brewing`` calls: a witch there may place chips through ``sim.kernel.brew``, which
  calls this table on an explosion, so one module would close an import circle.
- ``on_explosion``: the pot just exploded, after the card's hook: second flask (``exploded``);
  True if the potion goes on.
- ``step_a``: the bonus die, before it is rolled: both rewards (``at_die``); returns how far the
  furthest seat she lets roll got.
- ``step_c_rubies``: step C on a ruby space, the rubies taken: ruby space (``at_rubies``).
- ``step_d``: step D, after the reward space's VP: colours, bag points (``at_points``).
- ``step_e_before_buying`` / ``step_e_after_buying``: step E around the purchases: upgrade,
  double coins, ruby coins (``before_buying``, returning the coins to spend); free twin
  (``after_buying``).
- ``step_f``: step F, before rubies are spent: cheap rubies (``at_spending``).
- ``final_conversion``: the last round's coins turned into VP: double coins (``final_coins``).

Set-up, the pennies scored at the end and Visit from a Witch's visitor are in ``common``.
"""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_REWARD,
    G_NP,
    G_START_PLAYER,
    R_WITCHES,
)
from sim.kernel.witches import (
    bag_points,
    both_rewards,
    cheap_rubies,
    colours,
    double_coins,
    free_twin,
    ruby_coins,
    ruby_space,
    second_flask,
    upgrade,
)
from sim.kernel.witches.common import witch_ready

# --- the potion phase: an explosion (between draws: potion_hooks) -------------------------------

@kernel(inline=True)
def on_explosion(P, s, t, bowl, G, R, SK, SP, SC, rng, E, UF):
    """The pot just exploded on chip t (in the bowl if ``bowl``): True if a witch rescued it."""
    if witch_ready(P, s, G, R, second_flask.SECOND_FLASK):
        return second_flask.exploded(P, s, t, bowl, G, R, SK, SP, SC, rng, E, UF)
    return False


# --- evaluation ----------------------------------------------------------------------------------

@kernel(inline=True)
def step_a(P, G, R, best, SK, SP, SC, rng, E, UF):
    """Step A, before the die: each seat in start-player order may call a witch who lets it roll;
    returns the furthest reward space among those seats and ``best`` (the furthest intact)."""
    both = best
    if R[R_WITCHES] != 0:
        n = G[G_NP]
        sp = G[G_START_PLAYER]
        for k in range(n):
            s = (sp + k) % n
            if witch_ready(P, s, G, R, both_rewards.BOTH_REWARDS) and \
                    both_rewards.at_die(P, s, G, R, SK, SP, SC, rng, E, UF):
                both = max(both, P[s, F_REWARD])
    return both


@kernel(inline=True)
def step_c_rubies(P, s, vp, rubies, G, R, SK, SP, SC, rng, E, UF):
    """Step C on a ruby space worth ``vp`` VP: the rubies seat s takes (``rubies`` unless a witch
    changes them)."""
    if witch_ready(P, s, G, R, ruby_space.RUBY_SPACE):
        return ruby_space.at_rubies(P, s, vp, rubies, G, R, SK, SP, SC, rng, E, UF)
    return rubies


@kernel(inline=True)
def step_d(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF):
    """Step D, after seat s scored its reward space (``take_vp``: it took the VP)."""
    if R[R_WITCHES] != 0:
        if witch_ready(P, s, G, R, colours.COLOURS):
            colours.at_points(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF)
        if witch_ready(P, s, G, R, bag_points.BAG_POINTS):
            bag_points.at_points(P, s, take_vp, G, R, SK, SP, SC, rng, E, UF)


@kernel
def buying_witches(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF):
    """The witches before buying, in order; returns the coins seat s may spend."""
    if witch_ready(P, s, G, R, upgrade.UPGRADE):
        coins = upgrade.before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
    if witch_ready(P, s, G, R, double_coins.DOUBLE_COINS):
        coins = double_coins.before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
    if witch_ready(P, s, G, R, ruby_coins.RUBY_COINS):
        coins = ruby_coins.before_buying(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
    return coins


@kernel(inline=True)
def step_e_before_buying(P, s, coins, G, R, supply, shop, SK, SP, SC, rng, E, UF):
    """Step E, before seat s buys: the coins it may spend; ``shop`` (what a strategy sees of the
    supply) is refreshed, as a witch may have taken chips from the supply."""
    if R[R_WITCHES] == 0:
        return coins
    coins = buying_witches(P, s, coins, G, R, supply, SK, SP, SC, rng, E, UF)
    for t in range(shop.shape[0]):
        shop[t] = supply[t]
    return coins


@kernel(inline=True)
def step_e_after_buying(P, s, nbought, G, R, supply, SK, SP, SC, rng, E, UF):
    """Step E, after seat s bought ``nbought`` chips (listed at ``G_OUT``)."""
    if witch_ready(P, s, G, R, free_twin.FREE_TWIN):
        free_twin.after_buying(P, s, nbought, G, R, supply, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def step_f(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step F, before seat s spends rubies."""
    if witch_ready(P, s, G, R, cheap_rubies.CHEAP_RUBIES):
        cheap_rubies.at_spending(P, s, G, R, SK, SP, SC, rng, E, UF)


@kernel(inline=True)
def final_conversion(P, s, coins, G, R, SK, SP, SC, rng, E, UF):
    """The last round, before seat s turns ``coins`` into VP: the coins converted."""
    if witch_ready(P, s, G, R, double_coins.DOUBLE_COINS):
        return double_coins.final_coins(P, s, coins, G, R, SK, SP, SC, rng, E, UF)
    return coins
