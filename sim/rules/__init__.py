"""Rules as data: chip types, rulesets and their built-in TOML files."""
