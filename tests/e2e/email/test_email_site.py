"""The auditors' site at an e-mail table (issue 15): players write to the Dealer, never to each
other, so a player's message is private until the hand ends, as the public thread (the
Dealer's broadcasts) keeps it. An out-of-turn advance action sent by mail must not show on the
site, nor in the public copy of the ledger, while the hand runs; an in-turn bet shows only as
the broadcast said it ("carol calls 2"); once the hand has ended every message is shown.

Real servers (tests/kits/servers/mail.py: Dovecot and an SMTP server on loopback), the real poll and
the real site build. Secrets and the hand are those of tests/e2e/email/test_email_hand.py.
"""

from __future__ import annotations

import sqlite3

import pytest

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.audit.public_db import export_public_db
from nomicpoker.shell.audit.site import build_site

from kits.tables.bot import fixed_secrets
from kits.tables.game import ledger_cells_holding
from kits.servers.mail import USERS, MailTable, start_servers

pytestmark = [pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")]

SECRET = "RAISE/S $77"  # bob's advance action: nobody but the Dealer may read it before the end
TALK = "my cards are great"


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def site_text(t: MailTable, out) -> str:
    build_site(t.engine, out, state=t.state)
    return "".join(p.read_text("utf-8") for p in sorted(out.rglob("*.html")))


def public_text(t: MailTable, out) -> str:
    export_public_db(t.engine, out)
    con = sqlite3.connect(out)
    try:
        return "\n".join(str(v) for table in ("np_comment", "np_verdict", "np_unsealed") for row in
                         con.execute(f"SELECT * FROM {table}") for v in row)  # noqa: S608
    finally:
        con.close()


def test_a_mailed_advance_action_stays_off_the_site_until_the_hand_ends(servers, tmp_path):
    t = MailTable(servers, tmp_path)
    ids = t.ids()
    t.bet("alice", "TALK\nhello all\nSIG\n")  # before any hand: about no hand, nothing to wait for
    secrets_store.write(t.state, "T", 1, fixed_secrets("nlhe:1"))
    service.start_hand(t.engine, t.state, "T", 0, blinds=(1, 2))
    t.bet("bob", f"{SECRET}\nTALK\n{TALK}\nSIG\n")  # out of turn: carol is to act
    assert any("advance action" in m.get_content() for m in t.new_mail("bob"))
    t.bet("carol", "$2\n")  # in turn: the broadcast says "carol calls 2"
    t.bet("alice", "reveal As Ad\n")  # refused, to alice alone
    assert "(reveal_not_allowed)" in "".join(m.get_content() for m in t.new_mail("alice"))

    running = site_text(t, tmp_path / "site")
    assert SECRET not in running and TALK not in running and "As Ad" not in running
    assert "reveal_not_allowed" not in running  # the refusal went to alice alone
    assert running.count("[private message: shown when the hand ends]") == 3
    assert running.count("answered privately; shown when the hand ends") == 2  # bob's, alice's
    assert "calls" in running  # carol's call, in words, as the broadcast said it
    public = public_text(t, tmp_path / "public.db")
    assert SECRET not in public and "RAISE" not in public and TALK not in public
    # nor the live ledger itself (file and write-ahead log): the mails are archived sealed, and
    # from edition 2 the fold's verdict does not name the advance action it holds (before, its
    # np_verdict.canonical did: docs/fair-dealing.md)
    live = b"".join((t.state / n).read_bytes() for n in ("ledger.db", "ledger.db-wal") if (t.state / n).exists())
    mail = f"{SECRET}\n\n> {TALK}\n"
    assert [n for n in (TALK, "As Ad", mail, SECRET, "$77") if n.encode() in live] == []
    assert ledger_cells_holding(t.state / "ledger.db", SECRET) == []
    assert "hello all" in public  # about no hand: never withheld (it would be forever)
    # an auditor audits the public copy up to the running hand (tests/e2e/record/test_audit_public_copy.py)
    (tmp_path / "auditor").mkdir()
    res = CliRunner().invoke(app, ["audit", "--db", f"sqlite:///{tmp_path / 'public.db'}", "--state",
                                   str(tmp_path / "auditor")])
    assert res.exit_code == 0 and "note: T: hand 1 is running" in res.output, res.output

    # The hand goes on to its end: alice folds to bob's sticky raise; carol folds too.
    t.bet("alice", "fold\n")
    t.bet("carol", "fold\n")
    ended = site_text(t, tmp_path / "site")
    assert SECRET in ended and TALK in ended and "As Ad" in ended and "reveal_not_allowed" in ended
    assert "shown when the hand ends" not in ended
    assert SECRET in public_text(t, tmp_path / "public.db")
    assert audit(t.engine, t.state)[1] == []
    assert len(ids) == 3  # every player had their ID


def test_a_message_kept_during_a_freeze_is_withheld_before_it_is_read(servers, tmp_path):
    """A protest freezes the table: carol's mail is archived but not read (no verdict yet),
    and its text stays out of the public copy all the same."""
    from nomicpoker.shell.dealer.controls import control

    t = MailTable(servers, tmp_path)
    secrets_store.write(t.state, "T", 1, fixed_secrets("nlhe:1"))
    service.start_hand(t.engine, t.state, "T", 0, blinds=(1, 2))
    t.bet("bob", "PROTEST the blinds are wrong\n")
    t.bet("carol", f"$2\nTALK\n{TALK}\nSIG\n")  # kept for after the freeze
    public = public_text(t, tmp_path / "public.db")
    assert TALK not in public and "the blinds are wrong" not in public
    done = control(t.engine, t.state, "T", "resume", "the blinds were right")
    assert not done.report.error
    assert TALK not in public_text(t, tmp_path / "public.db")  # read now, and its hand still runs
