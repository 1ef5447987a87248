"""A complete hand of roberts-nlhe played by e-mail, end to end, on real servers: Dovecot
(IMAP) and an SMTP server delivering into its maildirs (tests/kits/servers/mail.py). The players
learn their IDs from the Dealer's welcome mail, read their hole cards in their own
mailboxes, and send their bets as WRGPT players do (``$x`` alone in column 1, an advance
action, TALK/SIG, replies quoting the Dealer's message) through the SMTP server; the Dealer
polls its mailbox over IMAP and broadcasts. Then ``audit`` replays the table from the archive
alone and must find nothing different. A poll that dies at each of its crash points in turn
(reading done, ledger not yet committed; committed, mail not yet marked) loses nothing and
doubles nothing.

Fixed secrets ("nlhe:1", as tests/e2e/hands/test_bot_roberts.py): alice J♥ K♥, bob 4♣ 5♠, carol 10♥ 3♠;
board J♦ 4♦ A♣ A♠ 7♥; alice wins a pot of 6 with two pair, aces and jacks.
"""

from __future__ import annotations

import os
import re

import pytest
from sqlmodel import Session, select

from nomicpoker.shell import faults
from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import CommentRow, open_engine

from kits.tables.bot import fixed_secrets
from kits.servers.mail import PLAYERS, USERS, MailTable, flags, start_servers

pytestmark = [pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")]

@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


def text(msg) -> str:
    return msg.get_content().replace("\r\n", "\n")


def said(mails, needle: str) -> list:
    return [m for m in mails if needle in text(m)]


def test_a_roberts_nlhe_hand_plays_by_email_end_to_end_and_audits_identical(servers, tmp_path):
    t = MailTable(servers, tmp_path)
    ids = t.ids()  # each player read their own ID in the welcome mail, and only theirs
    assert len(set(ids.values())) == 3
    for p in PLAYERS:
        assert all(i not in text(m) for m in t.new_mail(p) for q, i in ids.items() if q != p)
    secrets_store.write(t.state, "T", 1, fixed_secrets("nlhe:1"))
    started = service.start_hand(t.engine, t.state, "T", 0, blinds=(1, 2))
    assert not started.report.error and started.thread == "T"

    first = {p: t.new_mail(p) for p in PLAYERS}
    for p in PLAYERS:
        subjects = [m["Subject"] for m in first[p]]
        assert subjects[0] == "Poker: Hand #1 (T)"  # the story, broadcast
        start = said(first[p], "Blinds 1/2: collected from 3 seated players, the pot is 3.")
        assert len(start) == 1 and "| # | Name" in text(start[0]) and "Bankroll" in text(start[0])
        holes = [m for m in first[p] if m["Subject"].startswith("Your hole cards for hand 1 (T)")]
        assert len(holes) == 1 and holes[0]["Subject"].endswith(f"(ID={ids[p]})")
        turn = said(first[p], "carol to act, 2 to call. Pot: 3.")
        assert len(turn) == 1 and turn[0]["Subject"].endswith("(-> carol)")
    assert "alice: J\u2665 K\u2665" not in "".join(text(m) for p in ("bob", "carol") for m in first[p])
    assert said(first["alice"], "Your hole cards for hand 1, alice: J\u2665 K\u2665 (Jh Kh).")
    assert said(first["bob"], "bob: 4\u2663 5\u2660 (4c 5s)")
    hole_mail = next(m for m in first["bob"] if m["Subject"].startswith("Your hole cards"))

    # bob, out of turn, replies to his hole-card mail (the ID rides in the subject) with an
    # advance action and the quoted message below: confirmed to him alone
    t.bet("bob", "CALL $2\n\nOn Mon, 23 Nov 2026 at 14:00, Dealer <dealer@poker.test> wrote:\n"
          + "".join("> " + ln + "\n" for ln in text(hole_mail).splitlines()),
          subject="Re: " + hole_mail["Subject"])
    confirm = t.new_mail("bob")
    assert len(confirm) == 1 and "bob's advance action: CALL $2" in text(confirm[0])
    # the message's identity (issue 22) before the player's ID
    assert re.fullmatch(rf"Your advance action in hand 1 \(T\) \[np:T-h1-\d+\] \(ID={ids['bob']}\)",
                        confirm[0]["Subject"]), confirm[0]["Subject"]
    assert t.new_mail("alice") == [] and t.new_mail("carol") == []  # nobody else learns of it

    t.bet("carol", "$2\n")  # WRGPT's bet: $x alone in column 1 (a call of 2)
    for p in PLAYERS:
        assert len(said(t.new_mail(p), "carol: calls 2")) == 1
    # alice calls with table talk and a signature; bob's advance action then checks: the flop
    t.bet("alice", "$2\nTALK\nLet's see a flop.\nSIG\nAlice, from her phone\n")
    news = {p: t.new_mail(p) for p in PLAYERS}
    for p in PLAYERS:
        flop = said(news[p], "Flop: J\u2666 4\u2666 A\u2663")
        assert len(flop) == 1, [text(m) for m in news[p]]
        assert said(news[p], "bob (advance action): checks")
    for rnd, words in ((2, ("check", "$0", "CHECK")), (3, ("$0", "check", "$0")), (4, ("Check", "$0", "check"))):
        for p, w in zip(("alice", "bob", "carol"), words):
            t.bet(p, w + "\n")
    betting_over = said(t.new_mail("alice"), "board J\u2666 4\u2666 A\u2663 A\u2660 7\u2665, pot 6")
    assert betting_over and "betting is over" in text(betting_over[0])
    t.new_mail("bob"), t.new_mail("carol")

    # a false reveal is refused to bob alone, without naming the cards dealt
    t.bet("bob", "reveal As Ad\n")
    refusal = t.new_mail("bob")
    assert len(refusal) == 1 and "(false_reveal)" in text(refusal[0])
    assert re.fullmatch(rf"Not accepted in hand 1 \(T\) \[np:T-h1-\d+\] \(ID={ids['bob']}\)",
                        refusal[0]["Subject"]), refusal[0]["Subject"]
    assert "4c" not in text(refusal[0]) and t.new_mail("alice") == [] and t.new_mail("carol") == []
    t.bet("alice", "HAND1 reveal Jh Kh\n")
    t.bet("bob", "reveal 4c 5s\n")
    t.bet("carol", "HAND1 reveal Th 3s\n--\ncarol\n")
    for p in PLAYERS:
        pay = said(t.new_mail(p), "Pot 6: alice wins 6.")
        assert len(pay) == 1 and "Two Pair, Aces and Jacks" in text(pay[0])
    with Session(t.engine) as s:
        money = {r.player: r.money for r in ledger.gndt(s, ledger.get_table(s, "T"))}
        archived = [r for r in ledger.revisions(s, "T") if r.author != "Dealer"]  # as published
    assert money == {"alice": 104, "bob": 98, "carol": 98}
    # every player's mail archived once, with the command and the talk as read
    assert len(archived) == 16 and len({r.forum_id for r in archived}) == 16
    assert any(r.author == "alice" and r.body == "$2\n\n> Let's see a flop.\n" for r in archived)
    assert any(r.author == "bob" and r.body == "CALL $2\n" for r in archived)

    t.poll()  # the Dealer's own last copies are archived and marked too
    assert all("\\Seen" in f and "NomicpokerArchived" in f for f in flags(servers))
    from nomicpoker.shell.audit.audit import audit

    assert audit(t.engine, t.state)[1] == []


def _crash_poll(url: str, state, k: int) -> int:
    """A poll in a forked child that dies at crash point ``k`` (os._exit: no rollback, no
    cleanup, as a killed process); its exit code (0: the poll finished before point ``k``)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            faults.reset()
            os.environ[faults.AT] = str(k)
            poll_mod.poll(open_engine(url, create=False), state)
            code = 0
        except BaseException:  # noqa: BLE001
            code = 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_poll_that_dies_at_any_point_loses_no_mail_and_sends_none_twice(servers, tmp_path):
    t = MailTable(servers, tmp_path)
    t.idmap = t.ids()
    secrets_store.write(t.state, "T", 1, fixed_secrets("nlhe:1"))
    service.start_hand(t.engine, t.state, "T", 0, blinds=(1, 2))
    t.poll()
    for p in PLAYERS:
        t.new_mail(p)
    t.m.send("carol", f"ID={t.idmap['carol']}", "$2\n")
    url = f"sqlite:///{t.state / 'ledger.db'}"
    points = 0
    for k in range(1, 200):  # crash at point 1, then 2, ... each time on what the last left
        code = _crash_poll(url, t.state, k)
        if code == 0:
            break
        assert code == faults.CRASH_EXIT
        points = k
    t.poll()
    with Session(t.engine) as s:
        rows = [r for r in ledger.revisions(s, "T", state=t.state) if r.author == "carol"]
    assert len(rows) == 1 and rows[0].body == "$2\n"
    assert points >= 6  # reading, committing, sending and marking all had their crash
    for p in PLAYERS:  # the Dealer's answer reached every player exactly once
        assert len(said(t.new_mail(p), "carol: calls 2")) == 1
    assert all("\\Seen" in f for f in flags(servers))
    from nomicpoker.shell.audit.audit import audit

    assert audit(t.engine, t.state)[1] == []
