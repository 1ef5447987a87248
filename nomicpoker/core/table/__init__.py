"""The fold's data (core): the values a table fold reads and writes (:mod:`.fold_types`), its
state in one place (:mod:`.fold_state`, :mod:`.days_state`), a table's settings for play over
days and office hours, and the state as JSON data and back (:mod:`.snapshot`). May import
:mod:`nomicpoker.core.reading`, :mod:`nomicpoker.core.fairness`, :mod:`nomicpoker.core.poker`,
:mod:`nomicpoker.core.rules` and :mod:`nomicpoker.core.errors`; never the fold's code or its words.
"""
