"""The poll cycle's steps (shell), one concern each: archive a table's threads and the Dealer's
private inbox, replay the fold, record passed deadlines and SCORE answers, send the outbox,
answer an idle poll early, open a table's forum (:mod:`.forums`) and report what a table's
cycle did (:mod:`.report`), fetch and check a drand beacon round (:mod:`.beacon`). May import :mod:`nomicpoker.shell.storage`, the shared shell
modules, the core and the ports (and, for now, the adapter registry lazily).
"""
