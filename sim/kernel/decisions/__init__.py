"""The compiled built-in decisions the kernel calls: the slot numbers and the strategy arrays'
layout (slots.py), draw/flask/blue/buy and the other decisions (decide.py), books, cards and the
test tube (choices.py), the herb witches (witch.py), the expected-value rule (potion_value.py),
the marginal buyer (buy_marginal.py) and the optimal stopper (optimal.py, optimal_memo.py)."""
