"""Fair dealing (core): turning committed secrets into decks, cards, dice and Trading Post
decks (:mod:`.dealing`, :mod:`.printers`), players' entropy and the drand beacon mixed into
those secrets (:mod:`.entropy`), what the ledger keeps of a private message
(:mod:`.sealed`), and the auditor's side: recomputing a published hand's cards and dice
(:mod:`.verify`) and its money (:mod:`.money`), and the table it shows step by step for the
replayer (:mod:`.frames`). May import :mod:`nomicpoker.core.poker`,
:mod:`nomicpoker.core.rules` and :mod:`nomicpoker.core.errors`.
"""
