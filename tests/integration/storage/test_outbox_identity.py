"""Every private message has its own identity (issue 22): the second private reminder and the
answer to a second ``WHAT`` were lost ("1 found already posted"), because crash recovery
(``outbox.already_delivered``) took any earlier private message with the same subject and
body for this one. Now a private message is sent with its identity in the subject (the
outbox row's key: table, hand, sequence), and recovery looks for that identity only, on every
forum with private messages: the local forum, Reddit through the fake API praw talks to,
e-mail (Dovecot and aiosmtpd on loopback) and IRC (the bridge's log, read back as sent)."""

from __future__ import annotations

import pytest

from nomicpoker.adapters.irc.forum import IrcForum, settings_from
from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.cycle.outbox import already_delivered, private_subject
from nomicpoker.shell.storage.store import OutboxRow

from kits.tables.game import advance_table
from kits.servers.reddit import fake, forum_for  # noqa: F401  (fake is a fixture)

SUBJECT = "Your turn in hand 1 (T)"
BODY = "alice, hand 1 at table T is waiting for you to act. Your deadline: none.\n"


def _row(n: int) -> OutboxRow:
    return OutboxRow(table_name="T", seq=n, key=f"T-h1-{n:03d}", hand=1, kind="private",
                     recipient="alice", subject=SUBJECT, body=BODY)


def recovers_by_identity(forum) -> None:
    """Two messages with the same words: the first sent by a run that crashed before it
    recorded so; the second is not taken for it, and each is found as itself once sent."""
    first, second = _row(5), _row(9)
    forum.send_private("alice", private_subject(first.subject, first.key), BODY)
    found = already_delivered(forum, first, first.key)
    assert found is not None
    assert already_delivered(forum, second, second.key) is None  # its twin is not it
    forum.send_private("alice", private_subject(second.subject, second.key), BODY)
    again = already_delivered(forum, second, second.key)
    assert again is not None and again != found
    assert already_delivered(forum, first, first.key) == found
    assert [m.body.strip() for m in forum.sent_private("alice")] == [BODY.strip()] * 2


def test_local_forum(tmp_path):
    recovers_by_identity(LocalForum(tmp_path / "forum.db"))


def test_reddit_through_the_fake_api(fake):  # noqa: F811
    recovers_by_identity(forum_for(fake))


def test_irc_notices_as_logged(tmp_path):
    settings = settings_from({"server": "127.0.0.1", "port": 6667, "tls": False, "channel": "#poker",
                              "listing": "#gamelist", "nick": "dealerbot", "line_interval": 0},
                             tmp_path / "state")
    recovers_by_identity(IrcForum(settings))


@pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")
def test_email_on_real_servers(tmp_path):
    from nomicpoker.adapters.email.forum import EmailForum

    from kits.servers.mail import dealer_config, need_dovecot, start_servers

    need_dovecot()
    users = {"dealer": "dealer-pw", "alice": "a-pw", "bob": "b-pw"}
    for servers in start_servers(tmp_path / "mail", users):
        recovers_by_identity(EmailForum.from_config(dealer_config(servers, tmp_path, ("alice", "bob"))))


def test_a_second_what_is_answered_privately_again(tmp_path):
    """Through the real poll on the local forum: WHAT twice with nothing changed between
    them; both private answers arrive (the second was "already posted")."""
    t = advance_table(tmp_path)
    for _ in range(2):
        t.act("alice", "WHAT")
    answers = [m for m in t.forum.inbox("alice") if m.subject.startswith("Your state in hand 1")]
    assert len(answers) == 2 and answers[0].body == answers[1].body
    assert answers[0].subject != answers[1].subject  # each with its own identity


def test_a_private_message_sent_before_a_crash_is_not_sent_again(tmp_path):
    """The outbox row of a message whose delivery a crash left unrecorded is found by its
    identity and recorded sent, not sent twice."""
    from nomicpoker.shell.storage.store import transaction

    t = advance_table(tmp_path)
    t.act("alice", "WHAT")
    (answer,) = [m for m in t.forum.inbox("alice") if m.subject.startswith("Your state")]
    with transaction(t.engine) as s:  # as if the run died between sending and recording
        from sqlmodel import select
        row = s.exec(select(OutboxRow).where(OutboxRow.subject.startswith("Your state"))).one()
        row.status, row.remote_id = "pending", None
        s.add(row)
    report = t.poll()
    assert report.ok and sum(tr.already for tr in report.tables) == 1
    assert [m.subject for m in t.forum.inbox("alice") if m.subject.startswith("Your state")] == [answer.subject]
