"""WRGPT by e-mail as its players know it (issue 28), on real servers: Dovecot (IMAP) and an
aiosmtpd SMTP server on loopback (tests/_mail_kit.py). Each test plays as the WRGPT manual
(seed 000_) and docs/email.md say a player does, and reads what each player's mailbox holds.

Fixed secrets "nlhe:1": alice J♥ K♥, bob 4♣ 5♠, carol 10♥ 3♠; blinds 1/2 (bob the big blind),
carol first to act.
"""

from __future__ import annotations

import pytest

from _mail_kit import PLAYERS, USERS, MailTable, start_servers

pytestmark = [pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning"), pytest.mark.e2e]


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def text(msg) -> str:
    return msg.get_content().replace("\r\n", "\n")


def said(mails, needle: str) -> list:
    return [m for m in mails if needle in text(m) or needle in str(m["Subject"])]


@pytest.fixture
def table(servers, tmp_path):
    t = MailTable(servers, tmp_path)
    t.deal()
    for p in PLAYERS:
        t.new_mail(p)
    return t


def test_call_star_out_of_turn_is_an_advance_action_by_mail(table):
    """'It is possible, and highly recommended, to post bets in advance' and the manual's
    'CALL *': bob, out of turn, is confirmed privately, and his call applies at his turn.
    Before issue 28 the plain-text reading dropped the '*' and refused 'CALL' as not_your_turn."""
    t = table
    t.bet("bob", "CALL *\n")
    mine = t.new_mail("bob")
    assert len(mine) == 1, [text(m) for m in mine]
    assert "advance action: CALL" in text(mine[0]) and "not_your_turn" not in text(mine[0])
    assert t.new_mail("alice") == [] and t.new_mail("carol") == []
    t.bet("carol", "$2\n")
    t.bet("alice", "$2\n")
    for p in PLAYERS:
        assert said(t.new_mail(p), "bob (advance action): checks"), p
