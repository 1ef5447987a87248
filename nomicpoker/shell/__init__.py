"""The imperative shell: only the shell (and the adapters it drives) touches the disk, the
network or the clock.

Its packages, in layers (a package imports only those below it, the core, the ports, and the
two modules kept at this root, used by every layer: :mod:`.faults`, the crash points at the
I/O boundaries, and :mod:`.logs`, what the Dealer's jobs say):

1. :mod:`.storage`: the ledger database, its schema's migrations, snapshots, hand secrets,
   pinned and bundled rulesets, the state folder and its locks.
2. :mod:`.cycle`: the steps of one poll of a table: archive, private inbox, replay,
   deadlines, scores, outbox, the idle check, which forum a table plays on.
3. :mod:`.audit` (checking and publishing the record: audit, verdicts, the site, public
   copies, PHH files) and :mod:`.dealer` (the Dealer's commands: tables, hands, amendments,
   controls); neither imports the other.
4. :mod:`.jobs` (what runs them: the cron poll, ``serve``, the demo, ``db upgrade``) and
   :mod:`.tournament` (the tournament director's commands); neither imports the other.

The CLI (:mod:`nomicpoker.cli`) sits above them all. tests/unit/house/test_rooms.py checks the layers.
"""
