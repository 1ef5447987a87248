"""Reading what players write (core): a comment's visible text (markup, HTML, invisible and
look-alike characters), the comment grammar and its intents, the players' commands for play over
days, the advance-action language and what an advance action does when its turn comes, and a
player's e-mail to the Dealer. May import :mod:`nomicpoker.core.poker`,
:mod:`nomicpoker.core.rules` and :mod:`nomicpoker.core.errors`; never the fold or its values.
"""
