"""What the Dealer keeps on disk (shell): the ledger's tables and how to open it
(:mod:`.store`), its Alembic migrations (``migrations/``), reading the fold's inputs and storing
its rows (:mod:`.ledger`), snapshots of the fold's state, hand secrets, pinned rulesets and the
bundled ruleset files, the state folder's layout and the one-Dealer-at-a-time lock. The bottom
layer of the shell: it may import the core, :mod:`nomicpoker.shell.faults` and
:mod:`nomicpoker.shell.logs`, never another shell package, the ports or an adapter.
"""
