"""The functional core: pure values in, values out. No I/O, no clock, no randomness of its own.

Cards, the evaluator, the ruleset model, reading a comment, the hand engine, dealing and
verification, the fold of a table and the words of every dealer comment. Nothing here imports
:mod:`nomicpoker.shell`, :mod:`nomicpoker.cli` or an adapter (tests/test_structure.py checks).
"""
