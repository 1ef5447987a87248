"""Poker itself (core): cards in one canonical form, the hand evaluator and its tables, pots,
betting, showdown and the hand engine (Robert's Rules over a ruleset's parameters), and the
events that advance a hand. May import :mod:`nomicpoker.core.rules` and
:mod:`nomicpoker.core.errors`; knows nothing of comments, tables or forums.
"""
