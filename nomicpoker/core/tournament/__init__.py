"""Tournaments (core): many tables, one event, as the WRGPT e-mail dealer and Robert's Rules run
them. The structure file's model and its validation (:mod:`.structure`, :mod:`.structure_file`),
the seat draw and redraws from a committed seed with the log an auditor checks them by
(:mod:`.draw`), where the button and the blinds go at one table, dead button included
(:mod:`.seating`), balancing and breaking tables and the final table merge (:mod:`.balance`),
levels by hands or by days and the vacation rules (:mod:`.clock_rules`), eliminations, places and
payouts (:mod:`.places`). Pure values in, values out: the seed, the day and every count are
given by the shell. May import :mod:`nomicpoker.core.poker`, :mod:`nomicpoker.core.rules` and
:mod:`nomicpoker.core.errors`; never the fold, the words, the shell or an adapter.
"""
