"""Two cron hosts sharing one PostgreSQL ledger (issue 13): each has its own state directory,
so its own file lock; without a database lock both worked every table and posted dealer
comments twice, with raw IntegrityError tracebacks. The run lock takes a PostgreSQL advisory
lock (nomicpoker.shell.storage.locks), so at most one host works the ledger at a time."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter

import pytest
from sqlalchemy import text

from nomicpoker.adapters.local import LocalForum
from nomicpoker.core.words.tags import find_tag
from nomicpoker.shell.storage import locks, secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.tables.cli import CLI

pytestmark = pytest.mark.postgres


def _hosts(tmp_path, url):
    a, b = tmp_path / "host-a", tmp_path / "host-b"
    a.mkdir()
    b.mkdir()
    forum_path = tmp_path / "shared-forum.db"
    engine = open_engine(url)
    service.create_table(engine, a, "T", ["alice", "bob", "carol"], 100, forum="local",
                         forum_config={"path": str(forum_path)})
    secrets_store.write(a, "T", 1, fixed_secrets("pg-share:1"))
    started = service.start_hand(engine, a, "T", 5)
    assert not started.report.error
    shutil.copytree(a / "secrets", b / "secrets")  # both hosts hold the running hand's secrets
    return engine, a, b, LocalForum(forum_path), started.thread


def test_two_hosts_polling_one_postgres_ledger_never_post_twice(tmp_path, pg_server):
    url = pg_server.new_database()
    engine, a, b, forum, thread = _hosts(tmp_path, url)
    outputs = []
    for round_ in range(3):
        for who in ("bob", "carol", "bob", "carol"):  # out of turn: one rejection comment each
            forum.post_as(who, thread, f"HAND1 ROUND1 raise {10 + round_}")
        procs = [subprocess.Popen([sys.executable, "-c", CLI, "poll", "--state", str(st), "--db", url],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for st in (a, b, a, b)]
        for p in procs:
            out = p.communicate(timeout=120)[0]
            outputs.append(out)
            assert p.returncode == 0, out
    text_all = "".join(outputs)
    assert "Traceback" not in text_all and "IntegrityError" not in text_all
    assert "shared PostgreSQL ledger" in text_all or "this state directory" in text_all
    dealer = [c.body for c in forum.list_comments(thread) if c.author == "Dealer"]
    tags = Counter(find_tag(body) for body in dealer)
    assert max(tags.values()) == 1, [k for k, n in tags.items() if n > 1]
    with engine.connect() as conn:
        keys = [k for (k,) in conn.execute(text(
            "SELECT key FROM np_outbox WHERE kind = 'comment' AND status = 'sent'"))]
        pending = conn.execute(text("SELECT count(*) FROM np_outbox WHERE status = 'pending'")).scalar()
        rejected = conn.execute(text("SELECT count(*) FROM np_verdict WHERE status = 'rejected'")).scalar()
    assert pending == 0 and rejected == 12
    assert sorted(tags) == sorted(keys)  # every dealer comment posted, each exactly once
    engine.dispose()


def test_the_advisory_lock_is_released_when_its_holder_dies(tmp_path, pg_server):
    """A crashed host must not leave the game locked: PostgreSQL drops a session's advisory
    locks with its connection."""
    url = pg_server.new_database()
    engine = open_engine(url)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from sqlalchemy import create_engine, text\n"
        f"c = create_engine({url!r}).connect()\n"
        f"c.execute(text('SELECT pg_advisory_lock({locks.ADVISORY_KEY})')); c.commit()\n"
        "print('held', flush=True); time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        (tmp_path / "st").mkdir()
        with pytest.raises(locks.Busy) as busy:
            with locks.run_lock(engine, tmp_path / "st", timeout=0):
                pass
        assert "PostgreSQL" in busy.value.where
    finally:
        holder.kill()
        holder.wait()
    with locks.run_lock(engine, tmp_path / "st", timeout=10):
        with engine.connect() as conn:
            held = conn.execute(text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")).scalar()
        assert held == 1
    engine.dispose()
