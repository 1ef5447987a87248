"""Rulesets as data (core): the model every parameter of the game is read from, with the rule
sentence it rests on (:mod:`.ruleset`), the validation of a ruleset file's bytes into that model
with every problem reported (:mod:`.validate`), the largest numbers a Dealer may set
(:mod:`.limits`), what an amendment changes (:mod:`.ruleset_diff`). The bottom layer of the
core: it imports only :mod:`nomicpoker.core.errors`. Reading ruleset files from the disk is the
shell's (:mod:`nomicpoker.shell.storage.rulesets`).
"""
