"""nomicpoker: a poker dealer for nomic games played in blog and forum comments.

The pure core (cards, evaluator, ruleset, grammar, engine, pots, dealing) never touches the
network, the disk or the clock; the shell (ledger, poll, render, cli) and the forum adapters
(``nomicpoker.adapters``) do. See ``../shared/DESIGN.md`` and ``docs/``.
"""

__version__ = "0.1.0"
