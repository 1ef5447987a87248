"""Tournaments (shell): the tournament director's commands (:mod:`.director`: create, enter a
player, start, pause, resume, disqualify) and what they read back from the ledger
(:mod:`.views`: the tournament as its events and tables say, the SEATLOG, the standings), and
the rail (:mod:`.rail`: who is on it, the nightly standings sent to them; :mod:`.rail_forums`:
the forum each gets them on, where he plays). The
rules themselves are the core's (:mod:`nomicpoker.core.tournament`). It sits in the top layer
with :mod:`nomicpoker.shell.jobs` (it creates tables and pauses them through
:mod:`nomicpoker.shell.dealer`): it may import every shell package below that layer, never
:mod:`nomicpoker.shell.jobs`.
"""
