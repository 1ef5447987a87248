"""Rulesets as data: ``<name>/ruleset.toml`` (every parameter citing its sentence) and the
enacted rule text beside it. Installed as package data of ``nomicpoker.rules``."""
