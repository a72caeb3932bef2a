"""Designing rules toward targets (``quacks sensitivity``, ``quacks design``): how each ruleset
knob moves the balance figures of ``quacks balance`` on the same deals, and a search for the
rule values that put every figure inside its target band."""
