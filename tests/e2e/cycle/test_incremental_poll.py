"""The poll folds only what is new (from the table's snapshot), and ``audit``, which replays
from the first input, still finds the ledger identical byte for byte. A snapshot that cannot
be trusted (edited, from another installation, older than the ledger, made by other code) is
ignored: the poll replays from the start and the result is the same."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, select

from nomicpoker.shell.storage import ledger, snapshots
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.storage.store import SnapshotRow

from nomicpoker.shell.dealer.amendments import amend_table

from kits.tables.rulesets import P42_NOTE, proposal_42
from kits.tables.bot import Table

NOW = datetime.now(timezone.utc)


def _poll(t: Table, at: datetime | None = None) -> str:
    report = t.poll(now=lambda: at or datetime.now(timezone.utc))
    assert report.ok, [x.error for x in report.tables]
    return report.tables[0].folded


def _hand_over(t: Table) -> bool:
    with Session(t.engine) as s:
        ended = {r.hand for r in ledger.stored_rows(s, "T", "hand_end")}
        return ledger.hand_rows(s, "T")[-1].number in ended


def _play_long_game(t: Table, hands: int, amend_before: int = 0) -> list[str]:
    """Hands with bets, rejections, chat, edits, deletions, late comments in the previous
    hand's thread, deadlines passing, players sitting out after timeouts and coming BACK (and a
    rule amendment before hand ``amend_before``);
    the way each poll folded."""
    folded: list[str] = []
    clock = NOW
    for n in range(1, hands + 1):
        if n == amend_before:
            amend_table(t.engine, t.state, "T", str(proposal_42(t.tmp / "p42")), note=P42_NOTE)
            folded.append(_poll(t))
        t.start(ante=5)
        old = dict(t.p)
        t.draw(n)
        folded.append(_poll(t))
        first = t.seated()[0]
        cid = t.p[first].say(f"HAND{n} ROUND1 raise 5")
        t.p[first].say("nice weather")
        folded.append(_poll(t))
        t.forum.edit_comment(cid, f"HAND{n} ROUND1 raise 50", author=first)
        t.p[t.seated()[-1]].say(f"HAND{n} ROUND3 check")  # stale round: rejected
        folded.append(_poll(t))
        t.forum.delete_comment(cid, author=first)
        if n > 1:  # a late comment in the hand before's thread
            next(iter(prev.values())).say(f"HAND{n - 1} ROUND1 call")
        for _ in range(60):  # the rest on deadlines: check or fold, muck at showdown
            if _hand_over(t):
                break
            clock += timedelta(hours=3)
            folded.append(_poll(t, clock))
        assert _hand_over(t)
        # everyone timed out at some point: on vacation (AWOL, WRGPT's rule, issue 22), and
        # after three in a row sitting out later hands (issue 11, max_timeouts 3), until they
        # comment BACK, which each does here
        for who in _sitting_out(t, awol=True):
            t.p[who].say("BACK")
            folded.append(_poll(t, clock))
        assert _sitting_out(t, awol=True) == ()
        prev = old
    return folded


def _sitting_out(t: Table, awol: bool = False) -> tuple[str, ...]:
    with Session(t.engine) as s:
        res = fold_for(s, ledger.get_table(s, "T"), t.state)
        return tuple(sorted(set(res.sitting_out) | (res.state.days.awol if awol else set())))


def test_a_long_game_polled_incrementally_audits_identical(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=2)
    folded = _play_long_game(t, hands=4, amend_before=3)
    assert folded.count("resumed") == len(folded), [f for f in folded if f != "resumed"][:3]
    with Session(t.engine) as s:
        assert "The rules were amended before this hand" in " ".join(
            r.body for r in ledger.stored_rows(s, "T", "outbox") if r.hand == 3)
    names, diffs = audit(t.engine, t.state)
    assert names == ["T"] and diffs == []
    with Session(t.engine) as s:  # threads of hands before the last two are sealed
        row = s.exec(select(SnapshotRow)).one()
        assert row.state == ""  # the state is kept with the secrets, not in the ledger
        assert '"sealed":["' in snapshots.state_path(t.state, "T", row.mac).read_text()


def test_a_resumed_poll_stores_what_a_poll_from_the_start_stores(tmp_path):
    """Two tables, same game: one folds from its snapshot, the other with every snapshot
    removed before each poll; the ledgers' derived rows are equal."""
    a = Table(tmp_path / "a", players=("alice", "bob", "carol"), deadline_hours=2)
    b = Table(tmp_path / "b", players=("alice", "bob", "carol"), deadline_hours=2)
    real = b.poll

    def poll_without_snapshot(**kw):
        with sqlite3.connect(b.state / "ledger.db") as con:
            con.execute("DELETE FROM np_snapshot")
        return real(**kw)

    b.poll = poll_without_snapshot
    assert set(_play_long_game(a, 3)) == {"resumed"}
    assert set(_play_long_game(b, 3)) == {"no snapshot"}
    with Session(a.engine) as sa, Session(b.engine) as sb:
        for kind in ledger.MODELS:  # times come from the clock, ids from the two forums
            drop = {"at", "thread", "forum_id", "reply_to", "body", "created"}
            ra = [{k: v for k, v in ledger.row_values(r).items() if k not in drop}
                  for r in ledger.stored_rows(sa, "T", kind)]
            rb = [{k: v for k, v in ledger.row_values(r).items() if k not in drop}
                  for r in ledger.stored_rows(sb, "T", kind)]
            assert ra == rb, kind


def _started(tmp_path, db: str | None = None) -> Table:
    t = Table(tmp_path, players=("alice", "bob", "carol"), db=db)
    t.start(ante=5)
    t.draw(1)
    assert _poll(t) == "resumed"
    return t


def _snapshot_sql(t: Table, sql: str, *args) -> None:
    with sqlite3.connect(t.state / "ledger.db") as con:
        con.execute(sql, args)


def _next_poll_after(t: Table, change) -> str:
    """Apply ``change``, have a player act, poll; the audit must stay clean either way."""
    change()
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    folded = _poll(t)
    assert audit(t.engine, t.state)[1] == []
    assert any(v.canonical.startswith("HAND1 ROUND1 raise") for v in t.verdicts())
    return folded


def _state_file(t: Table):
    with sqlite3.connect(t.state / "ledger.db") as con:
        (mac,), = con.execute("SELECT mac FROM np_snapshot").fetchall()
    return snapshots.state_path(t.state, t.name, mac)


def test_an_edited_snapshot_is_ignored(tmp_path):
    t = _started(tmp_path)

    def edit() -> None:
        path = _state_file(t)
        text = path.read_text()
        assert '"money":{"alice":100' in text
        path.write_text(text.replace('"money":{"alice":100', '"money":{"alice":900'))

    why = _next_poll_after(t, edit)
    assert why == "snapshot signature does not match"
    assert _poll(t) == "resumed"  # the full replay stored a good one


def test_a_snapshot_whose_state_file_is_gone_is_ignored(tmp_path):
    t = _started(tmp_path)
    assert _next_poll_after(t, lambda: _state_file(t).unlink()) == "snapshot state not in the secrets folder"
    assert _poll(t) == "resumed"


def test_a_snapshot_signed_with_another_key_is_ignored(tmp_path):
    t = _started(tmp_path)
    (t.state / snapshots.KEY_FILE).write_bytes(b"another installation's key")
    assert _next_poll_after(t, lambda: None) == "snapshot signature does not match"


def test_a_stale_snapshot_is_ignored(tmp_path):
    """An authentic snapshot from an earlier poll, put back (a database restored in part)."""
    t = _started(tmp_path)
    with sqlite3.connect(t.state / "ledger.db") as con:
        old = con.execute("SELECT covers, current, state, mac FROM np_snapshot").fetchone()
    old_file = _state_file(t)
    old_state = old_file.read_bytes()
    t.act("alice", "HAND1 ROUND1 raise 10")

    def put_back() -> None:
        _snapshot_sql(t, "UPDATE np_snapshot SET covers = ?, current = ?, state = ?, mac = ?", *old)
        old_file.write_bytes(old_state)  # (the newer poll removed it as no longer stored)

    why = _next_poll_after(t, put_back)
    assert why == "the ledger is not the one the snapshot covers"


@pytest.mark.parametrize("sql", [
    "UPDATE np_verdict SET status = 'rejected' WHERE id = 1",
    "UPDATE np_comment SET body = 'HAND1 ROUND1 folds' WHERE id = 1",
    "DELETE FROM np_entry WHERE seq = 1",
])
def test_a_row_changed_under_the_snapshot_drops_it(tmp_path, sql, ledger_url):
    """On SQLite and (``-m postgres``) PostgreSQL: the database's triggers drop the snapshot, so
    the next poll replays from the start and refuses the edited ledger as it did before
    snapshots (a verdict or GNDT entry edited away) or reads the edited archive row."""
    t = _started(tmp_path, ledger_url)
    assert t.engine.dialect.name == ("sqlite" if ledger_url.startswith("sqlite") else "postgresql")
    with t.engine.begin() as con:
        con.exec_driver_sql(sql)
    with Session(t.engine) as s:
        assert s.exec(select(SnapshotRow)).first() is None
    report = t.poll()
    if "np_comment" in sql:  # an edited archive row: a replay from the start, audit names it
        assert report.tables[0].folded != "resumed"
        assert any("sha256" in d.detail for d in audit(t.engine, t.state)[1])
    else:
        assert not report.ok and "run nomicpoker audit" in (report.tables[0].error or "")


def test_the_outbox_delivery_columns_do_not_drop_the_snapshot(tmp_path, ledger_url):
    """The shell marks a message sent (status, remote_id, sent_at): no edit of the fold's rows."""
    t = _started(tmp_path, ledger_url)
    with t.engine.begin() as con:
        con.exec_driver_sql("UPDATE np_outbox SET status = status, remote_id = remote_id")
    with Session(t.engine) as s:
        assert s.exec(select(SnapshotRow)).first() is not None


def test_a_snapshot_made_by_other_code_is_ignored(tmp_path, monkeypatch):
    t = _started(tmp_path)
    monkeypatch.setattr(snapshots, "_code_digest", lambda: "a newer nomicpoker")
    assert _next_poll_after(t, lambda: None) == "snapshot made by other code or for another configuration"


def test_an_idle_poll_writes_nothing(tmp_path):
    t = _started(tmp_path)
    with sqlite3.connect(t.state / "ledger.db") as con:
        before = con.execute("SELECT mac FROM np_snapshot").fetchone()
    assert _poll(t) == "resumed"
    with sqlite3.connect(t.state / "ledger.db") as con:
        assert con.execute("SELECT mac FROM np_snapshot").fetchone() == before
