"""The functional core: pure values in, values out. No I/O, no clock, no randomness of its own.

Its packages, in layers (a package imports only those below it, and :mod:`.errors`, the one
module kept at this root: the coded-error base every layer raises):

1. :mod:`.rules`: the ruleset model, its validation, what an amendment changes.
2. :mod:`.poker`: cards, the evaluator, pots, betting, showdown, the hand engine.
3. :mod:`.reading` (what a comment or an e-mail says), :mod:`.fairness` (dealing from
   committed secrets, verifying a published hand and its money) and :mod:`.tournament`
   (structures, seat draws, balancing and breaking tables, places).
4. :mod:`.table` (the fold's values and state) and :mod:`.phh` (hand histories).
5. :mod:`.words`: the text of every dealer message.
6. :mod:`.fold`: the table fold itself.

Nothing here imports :mod:`nomicpoker.shell`, :mod:`nomicpoker.cli`, the ports or an adapter;
tests/unit/house/test_structure.py checks the purity of every module and tests/unit/house/test_rooms.py the layers.
"""
