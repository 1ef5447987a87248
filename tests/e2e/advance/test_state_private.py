"""Secrets stay secret on disk: every file under state/ is owner-only, and the ledger
database never holds a private message body (a deck, hole cards): it holds a seal, and the
body waits in the owner-only secrets folder for the sender."""

from __future__ import annotations

import os
import stat

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.fairness.sealed import check_seal, is_sealed
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import OutboxRow

from sqlmodel import Session, select

from kits.tables.bot import Table
from kits.tables.game import dealt


def modes(root):
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            out[os.path.relpath(p, root)] = stat.S_IMODE(os.lstat(p).st_mode)
    return out


def run(*args):
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_every_file_under_state_is_owner_only_after_each_command(tmp_path):
    st = str(tmp_path / "state")
    os.umask(0o022)  # a usual login umask: the commands must not rely on a strict one
    run("init", "--state", st)
    # a ledger left world-readable by an older version is tightened on the next command
    os.chmod(tmp_path / "state" / "ledger.db", 0o644)
    run("table", "create", "--name", "T", "--players", "alice,bob", "--money", "100", "--state", st)
    run("hand", "start", "--table", "T", "--ante", "5", "--state", st)
    run("poll", "--state", st)
    run("audit", "--state", st)
    found = modes(tmp_path / "state")
    assert "ledger.db" in found and "forum.db" in found and "poll.lock" in found
    assert any(k.startswith("secrets") and k.endswith(".txt") for k in found)  # message bodies
    loose = {k: oct(m) for k, m in found.items()
             if m != (0o700 if os.path.isdir(tmp_path / "state" / k) else 0o600)}
    assert loose == {}
    assert stat.S_IMODE((tmp_path / "state").stat().st_mode) == 0o700


def _ledger_bytes(t: Table) -> str:
    texts = []
    for p in t.state.iterdir():
        if p.name.startswith("ledger.db"):
            texts.append(p.read_bytes().decode("utf-8", "replace"))
    return "\n".join(texts)


def test_decks_sent_privately_are_not_in_the_ledger_database_before_the_hand_ends(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    db = _ledger_bytes(t)
    for p in t.players:
        (msg,) = t.forum.inbox(p)
        lines = [ln for ln in msg.body.splitlines() if any(ch in ln for ch in "♠♥♦♣")]
        assert len(lines) >= 4  # the deck listing: its card lines are what must not leak
        assert [ln for ln in lines if ln.strip() in db] == []
    with Session(t.engine) as s:
        rows = s.exec(select(OutboxRow).where(OutboxRow.kind == "private")).all()
    assert rows and all(is_sealed(r.body) for r in rows)
    # Once the hand is over its secrets are published, and the seal checks the body the
    # player received (and not another).
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 fold")
    with Session(t.engine) as s:
        (end,) = ledger.stored_rows(s, "T", "hand_end")
        import json

        published = json.loads(end.secrets)
    for r in rows:
        body = t.forum.inbox(r.recipient)[0].body
        assert check_seal(published, r.body, body)
        assert not check_seal(published, r.body, body + " ")


def test_hole_cards_dealt_privately_are_not_in_the_ledger_database(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    db = _ledger_bytes(t)
    for p in t.players:
        a, b = dealt(t, p)
        assert f"({a} {b})" not in db and f"{a} {b}" not in db
        # and the message still reached the player, whole
        assert f"({a} {b})" in t.forum.inbox(p)[-1].body
