"""``hand start`` and ``tournament advance`` read a table's settings, who sits out and its
play-over-days state from the poll's verified snapshot when nothing was added since
(``shell/dealer/fold_now.py``), instead of replaying the table from its first input at every
table between every two hands. Pinned: what they read is the replay's, field for field, in each
case (just polled; a dealer event not yet folded; a snapshot that cannot be trusted), and the
snapshot is used where it can be."""

from __future__ import annotations

from sqlmodel import Session

from kits.tables.tournament import fold_around, made, run  # noqa: F401 (made: a fixture)
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.dealer.fold_now import fold_now
from nomicpoker.shell.storage import ledger, paths
from nomicpoker.shell.storage.store import SnapshotRow, open_engine


def _both(state, table: str):
    engine = open_engine(paths.db_url(state))
    try:
        with Session(engine) as s:
            row = ledger.get_table(s, table)
            now, full = fold_now(s, row, state), fold_for(s, row, state)
    finally:
        engine.dispose()
    assert (now.settings, now.sitting_out, now.frozen, now.days.to_data()) == (
        full.settings, full.sitting_out, full.frozen, full.state.days.to_data())
    return now


def test_what_hand_start_reads_is_the_replays_from_the_snapshot_or_not(made):
    _path, state, _ = made
    run("tournament", "start", "--name", "spring", "--state", str(state))
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    fold_around(state, "spring-t1", 1)
    now = _both(state, "spring-t1")
    assert now.resumed  # just polled: the snapshot covers every input
    assert now.settings.blinds == (5, 10) and now.sitting_out == ()
    players = ledger_players(state, "spring-t1")
    run("table", "unseat", "--table", "spring-t1", "--player", players[0], "--note", "away", "--state", str(state))
    run("poll", "--state", str(state))
    now = _both(state, "spring-t1")
    assert now.sitting_out == (players[0],)
    run("table", "set", "--table", "spring-t1", "deadline_hours=6", "--note", "slower", "--state", str(state))
    now = _both(state, "spring-t1")
    assert now.settings.deadline_hours == 6
    engine = open_engine(paths.db_url(state))
    with Session(engine) as s:  # a snapshot whose signature no longer matches: the replay decides
        snap = s.exec(SnapshotRow.__table__.select().where(SnapshotRow.table_name == "spring-t1")).first()
        assert snap is not None
        s.exec(SnapshotRow.__table__.update().where(SnapshotRow.table_name == "spring-t1").values(mac="0" * 64))
        s.commit()
    engine.dispose()
    now = _both(state, "spring-t1")
    assert not now.resumed and now.sitting_out == (players[0],) and now.settings.deadline_hours == 6
    run("table", "seat", "--table", "spring-t1", "--player", players[0], "--note", "back", "--state", str(state))
    assert _both(state, "spring-t1").sitting_out == ()
    run("hand", "start", "--table", "spring-t1", "--state", str(state))
    assert "the replay is identical to the ledger" in run("audit", "--state", str(state)).output


def ledger_players(state, table: str) -> list[str]:
    engine = open_engine(paths.db_url(state))
    try:
        with Session(engine) as s:
            return ledger.roster(s, ledger.get_table(s, table))
    finally:
        engine.dispose()
