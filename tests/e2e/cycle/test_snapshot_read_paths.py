"""A read of a table's snapshot never removes a state file (issue 24).

The poll keeps each table's fold state in a file named by its snapshot's MAC
(:mod:`nomicpoker.shell.storage.snapshots`). ``hand start`` and ``tournament advance`` read the
committed snapshot (:mod:`nomicpoker.shell.dealer.fold_now`); on a shared PostgreSQL ledger a
poll may meanwhile have written the file of the table's next snapshot without having committed
its row. The read used to remove every file but the committed row's, so the poll's snapshot,
once committed, had no state and the table's next poll replayed it from its first input. Only
the poll that owns the table (and writes its next snapshot) removes the others.

Real parts: the ledger on SQLite and on a PostgreSQL server on loopback, the table made and its
hand started by the Dealer's service, the poll's own fold (``replay.adjudicate``) in an open
transaction beside ``fold_now`` on another connection.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from kits.tables.bot import fixed_secrets
from kits.tables.clock import T0
from nomicpoker.shell.cycle.replay import adjudicate
from nomicpoker.shell.dealer import service
from nomicpoker.shell.dealer.fold_now import fold_now
from nomicpoker.shell.storage import ledger, secrets_store, snapshots
from nomicpoker.shell.storage.store import open_engine


def _table(url: str, state):
    """A heads-up table with a 4-hour deadline, its first hand started (the snapshot stored)."""
    engine = open_engine(url)
    service.create_table(engine, state, "T", ["alice", "bob"], 100, ruleset="roberts-nlhe", issue_decks=False,
                         settings={"deadline_hours": 4, "reminders": 0, "blinds": (1, 2)}, now=lambda: T0)
    secrets_store.write(state, "T", 1, fixed_secrets("T:1"))
    started = service.start_hand(engine, state, "T", 0, blinds=(1, 2), now=lambda: T0)
    assert not started.report.error
    return engine


def _files(state) -> set[str]:
    return {p.name for p in secrets_store.snapshot_dir(state, "T").iterdir()}


def _committed_mac(engine) -> str:
    with Session(engine) as s:
        return snapshots._row(s, "T").mac


def _load(engine, state):
    with Session(engine) as s:
        return snapshots.load(s, "T", ledger.table_config(s, ledger.get_table(s, "T")), state)


def test_a_read_leaves_another_snapshots_file_alone_and_the_poll_removes_it(tmp_path):
    state = tmp_path / "state"
    engine = _table(f"sqlite:///{tmp_path / 'ledger.db'}", state)
    mac = _committed_mac(engine)
    assert _files(state) == {f"{mac}.json"}
    # the file of a snapshot another run wrote and has not committed (its name: its MAC)
    other = secrets_store.snapshot_dir(state, "T") / f"{'a' * 64}.json"
    other.write_text("{}", "utf-8")
    with Session(engine) as s:
        assert fold_now(s, ledger.get_table(s, "T"), state).resumed  # read from the snapshot
    assert _files(state) == {f"{mac}.json", other.name}
    loaded, why = _load(engine, state)
    assert loaded is not None and why == "" and other.exists()
    # the poll's own fold owns the table: it removes what no committed row names
    with Session(engine) as s:
        assert adjudicate(s, ledger.get_table(s, "T"), state, T0 + timedelta(minutes=1)).resumed
        s.commit()
    assert _files(state) == {f"{_committed_mac(engine)}.json"}


@pytest.mark.postgres
def test_a_read_beside_a_poll_not_yet_committed_keeps_the_polls_snapshot(tmp_path, pg_server):
    state = tmp_path / "state"
    engine = _table(pg_server.new_database(), state)
    before = _committed_mac(engine)
    poll = Session(engine)
    try:
        # the poll, past bob's deadline: it records the timeout and writes its next snapshot's
        # file, and has not committed yet
        done = adjudicate(poll, ledger.get_table(poll, "T"), state, T0 + timedelta(hours=5))
        assert done.resumed and done.added  # the timeout and what it did
        written = _files(state) - {f"{before}.json"}
        assert len(written) == 1
        # hand start's read, on another connection, sees the committed snapshot
        with Session(engine) as reader:
            now = fold_now(reader, ledger.get_table(reader, "T"), state)
        assert now.resumed
        assert written <= _files(state)
        poll.commit()
    finally:
        poll.close()
    after = _committed_mac(engine)
    assert f"{after}.json" in written
    loaded, why = _load(engine, state)
    assert loaded is not None, why  # the next poll resumes from it, not from the first input
    with Session(engine) as s:
        assert adjudicate(s, ledger.get_table(s, "T"), state, T0 + timedelta(hours=5, minutes=1)).resumed
        s.commit()
    assert _files(state) == {f"{after}.json"}
