"""Two Dealers' machines splitting the tables of one PostgreSQL ledger (issue 24): their polls
run at once (the ledger's advisory lock is taken shared by a poll), each table is worked
under its own advisory lock by one of them at a time, and nothing is posted twice.

Real parts only: a real PostgreSQL server on loopback, two real ``nomicpoker poll`` processes
started together (each with its own state directory, as two hosts have), one shared local
forum file. Each round every table gets comments that each earn one refusal from the
Dealer (out of turn); at the end each was read once, and every dealer comment is in the
threads exactly once.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter

import pytest
from sqlalchemy import text

from nomicpoker.adapters.local import LocalForum
from nomicpoker.core.words.tags import find_tag
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage import locks
from nomicpoker.shell.storage.store import open_engine

from kits.tables.cli import CLI

pytestmark = pytest.mark.postgres

TABLES = ("T1", "T2", "T3", "T4", "T5", "T6")


def test_two_hosts_split_the_tables_of_one_postgres_ledger_and_post_nothing_twice(tmp_path, pg_server):
    url = pg_server.new_database()
    a, b = tmp_path / "host-a", tmp_path / "host-b"
    a.mkdir()
    b.mkdir()
    forum_path = tmp_path / "shared-forum.db"
    engine = open_engine(url)
    threads = {}
    for n, name in enumerate(TABLES):
        players = [f"x{n}", f"y{n}", f"z{n}"]
        service.create_table(engine, a, name, players, 100, ruleset="roberts-nlhe", forum="local",
                             forum_config={"path": str(forum_path)}, issue_decks=False,
                             settings={"reminders": 0, "blinds": (1, 2)})
        started = service.start_hand(engine, a, name, 0, blinds=(1, 2))
        assert not started.report.error
        threads[name] = (started.thread, players)
    shutil.copytree(a / "secrets", b / "secrets")  # both hosts hold the running hands' secrets
    forum = LocalForum(forum_path)
    outputs = []
    for round_ in range(3):
        for name, (thread, players) in threads.items():
            for who in players[:2]:  # z acts first preflop: x and y are out of turn, one refusal each
                forum.post_as(who, thread, f"HAND1 ROUND1 raise {10 + round_}")
        procs = [subprocess.Popen([sys.executable, "-c", CLI, "poll", "--state", str(st), "--db", url,
                                   "--site", "off"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for st in (a, b)]
        for p in procs:
            out = p.communicate(timeout=180)[0]
            outputs.append(out)
            assert p.returncode == 0, out
    text_all = "".join(outputs)
    assert "Traceback" not in text_all and "IntegrityError" not in text_all
    # neither poll waited for the other's ledger lock: they ran side by side
    assert "shared PostgreSQL ledger" not in text_all, text_all
    dealer = [c.body for th, _ in threads.values() for c in forum.list_comments(th) if c.author == "Dealer"]
    tags = Counter(find_tag(body) for body in dealer)
    assert max(tags.values()) == 1, [k for k, n in tags.items() if n > 1]
    with engine.connect() as conn:
        keys = [k for (k,) in conn.execute(text("SELECT key FROM np_outbox WHERE kind = 'comment' AND status = 'sent'"))]
        pending = conn.execute(text("SELECT count(*) FROM np_outbox WHERE status = 'pending'")).scalar()
        verdicts = conn.execute(text("SELECT forum_id, status FROM np_verdict WHERE author <> 'Dealer'")).all()
    # every player's comment was read once, by one of the hosts, and answered
    assert pending == 0 and len(verdicts) == len({f for f, _ in verdicts}) == 3 * 2 * len(TABLES), verdicts
    assert sorted(tags) == sorted(keys)  # every dealer comment posted, each exactly once
    engine.dispose()


def test_a_table_worked_by_one_host_is_left_by_the_other(tmp_path, pg_server):
    """The table lock itself: while one session holds a table's lock, another's try fails
    (and takes another table's); the ledger's shared lock lets two polls in, an exclusive one
    (``hand start``) waits for them."""
    url = pg_server.new_database()
    engine, other = open_engine(url), open_engine(url)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with locks.run_lock(engine, tmp_path / "a", split=True), locks.run_lock(other, tmp_path / "b", split=True):
        with locks.table_lock(engine, "T1") as mine:
            assert mine
            with locks.table_lock(other, "T1") as theirs, locks.table_lock(other, "T2") as free:
                assert not theirs and free
        with pytest.raises(locks.Busy):
            with locks.run_lock(other, tmp_path / "c"):
                pass
    with locks.table_lock(other, "T1") as mine:
        assert mine
    engine.dispose()
    other.dispose()
