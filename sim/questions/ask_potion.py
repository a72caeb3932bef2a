"""``sim.potion``: how often a bag explodes and where its potion ends (``quacks potion``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sim.questions.ask_rules import as_list, load_rules_files, load_strategy_files
from sim.questions.running import set_threads


class PotionInputError(ValueError):
    """A potion question the simulator cannot answer as asked (one line, the option named)."""


@dataclass
class PotionResult:
    """The answer of :func:`potion`: ``mode`` is ``sample``, ``exact``, ``draws`` or ``regret``;
    ``answer`` the JSON-ready dict ``quacks potion --json`` prints; ``seconds`` the time the
    potions took (not in :meth:`to_dict`, which equals the command's JSON less ``seconds``)."""

    mode: str
    answer: dict
    ruleset: object = field(repr=False)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        """What ``quacks potion --json`` prints, less ``seconds``: plain Python values (lists,
        floats, ints), as the JSON reads back."""
        import json

        return json.loads(json.dumps({k: v for k, v in self.answer.items() if k != "seconds"}))

    @property
    def distribution(self):
        """Where the potions end: one row per reward space, one column per outcome (``intact``,
        ``exploded``, ``protected``), the counts (sampled) or probabilities (exact)."""
        import pandas as pd

        d = self.answer.get("distribution")
        if d is None:
            raise AttributeError(f"a {self.mode} answer has no distribution")
        df = pd.DataFrame(d).fillna(0)
        if self.mode != "exact":  # sampled: counts of potions
            df = df.astype("int64")
        df.index = df.index.astype(int)
        df.index.name = "space"
        return df.sort_index()

    def __getitem__(self, key: str):
        """One value of :meth:`to_dict`, e.g. ``result["p_explode"]``."""
        return self.to_dict()[key]

    def _repr_html_(self) -> str:
        from html import escape

        rows = "".join(f"<tr><th>{escape(str(k))}</th><td>{escape(_short(v))}</td></tr>"
                       for k, v in self.to_dict().items() if not isinstance(v, (dict, list)))
        return f"<table><caption>potion ({self.mode})</caption>{rows}</table>"


def _short(v) -> str:
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def potion(
    *,
    bag: str | Sequence[str] = "start",
    stop: str = "white:6",
    flask: int | None = None,
    start: int = 0,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    n: int = 1_000_000,
    seed: int = 1,
    exact: bool = False,
    draws: str | Sequence[str] | None = None,
    regret: bool = False,
    compare: Sequence[str] | str | None = None,
    coin_value: float = 0.3,
    ruby_value: float = 0.5,
    card: str | None = None,
    threads: int | None = None,
    strategy_file: Sequence[str] | str | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_compile: Callable[[str], None] | None = None,
) -> PotionResult:
    """How often does this bag explode, and where does the potion end? (``quacks potion``)

    ``bag`` is the chips (``"w1x4,o1,r2"`` or a list of them; ``"start"`` the starting bag),
    ``stop`` the stop policy (``white:T``, ``risk:P``, ``never``, ``ev``, ``optimal``); with
    ``exact`` the odds are enumerated, with ``draws`` (forced draws, in order) one potion is
    played, with ``regret`` the stop rules ``compare`` (default: the command's list) are measured
    against the optimal stopper. Potion ``i`` uses the random stream ``(seed, i)``, so the same
    arguments give the same numbers as the command. ``progress(done, total)`` is called as the
    potions go; ``on_compile(entry)`` before a kernel is first used (it may compile).
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad).
    """
    load_rules_files(rules_file)
    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api
    from sim.api.exact import MAX_STATES, sub_bag_count
    from sim.rules import chips
    from sim.rules.ruleset import load_ruleset

    bag = ",".join(as_list(bag)) if not isinstance(bag, str) else bag
    draws = ",".join(as_list(draws)) if draws is not None and not isinstance(draws, str) else draws
    set_threads(threads, PotionInputError)
    if n <= 0:
        raise PotionInputError(f"--n {n}: expected a positive number of potions")
    if seed < 0:
        raise PotionInputError(f"--seed {seed}: expected 0 or more")
    load_strategy_files(strategy_file)
    rs = load_ruleset(rules, as_list(set))
    rs.check_implemented()
    q = pot.make_query(bag, stop, flask, start, rs, card=card)
    if (exact or regret) and not pot.exact_supported(q):
        raise PotionInputError(
            f"{'--exact' if exact else '--regret'}: exact odds cover the Set 1 books without a "
            f"card, and bags that cannot reach the overflow bowl; drop --card / the books.* "
            f"overrides, or sample (leave out --exact)")
    notice = on_compile or (lambda entry: None)
    if regret:
        if not (0 <= coin_value <= 10 and 0 <= ruby_value <= 10):
            raise PotionInputError("--coin-value and --ruby-value: expected numbers from 0 to 10")
        if not compare:
            rules_ = list(pot.DEFAULT_COMPARE)
        elif isinstance(compare, str):
            rules_ = [r.strip() for r in compare.split(";") if r.strip()]
        else:
            rules_ = [str(r).strip() for r in compare if str(r).strip()]
        for r in rules_:
            pot.make_query(bag, r, flask, start, rs)  # validates every rule
        if sub_bag_count(chips.counts_of(q.bag)) > MAX_STATES:  # sampled: compile first
            notice("sim/kernel/potions.potion_histograms")
            pot.sample(pot.make_query(bag, "optimal", flask, start, rs), 1, seed)
        t0 = time.perf_counter()
        res = pot.regret(q, rules_, coin_value=coin_value, ruby_value=ruby_value, n=n, seed=seed,
                         exact_if_possible=True, n_optimal=min(n, 100_000), progress=progress)
        secs = round(time.perf_counter() - t0, 3)
        res["seconds"] = secs
        return PotionResult("regret", res, rs, secs)
    if draws is not None:
        draws_api.check_draws(q, draws)  # a bad draw is refused before the compile notice
        notice("sim/kernel/potions.potion_forced")
        return PotionResult("draws", draws_api.forced(q, draws), rs)
    if not exact:
        notice("sim/kernel/potions.potion_histograms")
        pot.sample(q, 1, seed)  # compile (or load) the kernel outside the clock
    t0 = time.perf_counter()
    if exact:
        hist = pot.exact(q)
    elif pot.is_optimal(q):
        hist = pot.sample_optimal(q, n, seed, progress=progress, full=True)
    else:
        hist = pot.sample(q, n, seed, progress=progress, full=True)
    secs = time.perf_counter() - t0
    res = pot.summarize(hist, q, is_exact=exact, seed=None if exact else seed)
    res["seconds"] = round(secs, 3)
    return PotionResult("exact" if exact else "sample", res, rs, res["seconds"])
