"""WRGPT by e-mail as its players know it (issue 28), on real servers: Dovecot (IMAP) and an
aiosmtpd SMTP server on loopback (tests/kits/servers/mail.py). Each test plays as the WRGPT manual
(seed 000_) and docs/email.md say a player does, and reads what each player's mailbox holds.

Fixed secrets "nlhe:1": alice J♥ K♥, bob 4♣ 5♠, carol 10♥ 3♠; blinds 1/2 (bob the big blind),
carol first to act.
"""

from __future__ import annotations

import pytest

from kits.servers.mail import PLAYERS, USERS, MailTable, start_servers

pytestmark = [pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")]


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


MARKUP = ("**", "`", "&lt;", "&gt;", "&amp;", "mail:<", "\\*", "\\_")


def test_mail_is_plain_text_and_names_a_mail_by_its_time(table):
    """A refusal names 'your mail of HH:MM UTC', never the player's Message-ID (which can name
    their hosts: 'mail:&lt;179583...@poker.test&gt;'); no Markdown markers or entities reach a
    plain-text mail program: not in the refusal, the broadcasts, the hole cards or a
    confirmation ('CALL \\*')."""
    t = table
    t.bet("alice", "reveal Jh Kh\n")  # no reveal while betting: refused
    refusal = t.new_mail("alice")
    assert len(refusal) == 1
    body = text(refusal[0])
    assert body.startswith("alice: your mail of ") and " UTC was not accepted (reveal_not_allowed)" in body, body
    t.bet("bob", "CALL *\n")
    assert "advance action: CALL *." in text(t.new_mail("bob")[0])
    for p in PLAYERS:
        for m in t.m.inbox(p):
            assert not any(k in text(m) or k in str(m["Subject"]) for k in MARKUP), (p, m["Subject"], text(m))


def test_a_turn_notice_names_who_is_next_in_the_subject(table):
    """WRGPT: 'The next-to-act information is also indicated in the subject line.'"""
    t = table
    turn = [m for m in t.m.inbox("alice") if "carol to act, 2 to call" in text(m)]
    assert len(turn) == 1 and turn[0]["Subject"].endswith("(-> carol)"), [m["Subject"] for m in t.m.inbox("alice")]


def test_mail_with_no_id_or_a_mistyped_one_is_reported_by_the_poll(table):
    """A mail the Dealer cannot tie to a player stays unread; the poll says so (how many, from
    whom, the oldest), where before it said nothing and the mail sat unseen."""
    t = table
    t.m.send("alice", "my bet", "$2\n")
    t.m.send("bob", "ID=zzzzzz", "CALL *\n")  # a mistyped ID
    line = t.poll().tables[0].line()
    assert "2 mails in the mailbox carry no ID of table T" in line, line
    assert "alice@poker.test" in line and "bob@poker.test" in line and "the oldest arrived 20" in line
    t.m.send("carol", f"ID={t.ids()['carol']}", "$2\n")
    line = t.poll().tables[0].line()
    assert "2 mails" in line and "carol" not in line.split("carry no ID")[1]  # still there, carol's read


def test_a_vacation_is_announced_at_the_end_of_the_hand_not_at_once(table):
    """'Vacations are announced to the rest of the table at the end of a hand. They are not
    announced immediately.' alice goes away out of turn: the table sees her fold at her turn
    (not 'alice is away: the dealer folds for them'), and hears of the vacation when the hand
    ends."""
    t = table
    t.bet("alice", "GONE 13 Sep\n")
    assert t.new_mail("bob") == [] and t.new_mail("carol") == []
    assert any("vacation" in text(m) for m in t.new_mail("alice"))  # confirmed to her alone
    t.bet("carol", "$2\n")
    for p in ("bob", "carol"):
        news = "".join(text(m) for m in t.new_mail(p))
        assert "alice folds." in news and "away" not in news and "vacation" not in news.lower(), news
    t.bet("bob", "FOLD\n")  # carol wins: the hand ends
    for p in ("bob", "carol"):
        news = "".join(text(m) for m in t.new_mail(p))
        assert "On vacation: alice (until 13 Sep)" in news, news


def test_what_and_score_are_answered_to_the_asker_alone(table):
    """docs/email.md: the e-mail table answers one player privately. WHAT and SCORE went to the
    whole table (a player's Money, what he put in, his status)."""
    t = table
    t.bet("bob", "WHAT\n")
    mine = t.new_mail("bob")
    assert any("For bob" in text(m) and "In this hand: 2 put in" in text(m) for m in mine), [text(m) for m in mine]
    assert t.new_mail("alice") == [] and t.new_mail("carol") == []
    t.bet("carol", "SCORE\n")
    t.poll()  # the standings are recorded, then answered
    mine = t.new_mail("carol")
    assert any("asked for the SCORE" in text(m) for m in mine), [text(m) for m in mine]
    assert t.new_mail("alice") == [] and t.new_mail("bob") == []


def test_each_action_is_one_broadcast_with_the_status_table_and_who_is_next(table):
    """WRGPT: 'you will get every action mailed to you, including an updated status report',
    the next to act in the subject ('(-> X2)'). Before, the action came alone ('carol calls
    2', no table, no '(->') and the turn notice in a second mail."""
    t = table
    t.bet("carol", "$2\n")
    for p in PLAYERS:
        news = t.new_mail(p)  # no private confirmation: $2 at her turn is her bet, not an advance action
        assert len(news) == 1, [m["Subject"] for m in news]
        body = text(news[0])
        assert body.startswith("carol: calls 2") and "alice to act, 1 to call" in body
        assert "| # | Name" in body and "Bankroll" in body
        assert news[0]["Subject"].startswith("[T] carol: calls 2") and news[0]["Subject"].endswith("(-> alice)")


def test_table_talk_is_shown_with_its_action_when_the_hand_ends(table):
    """'all table talk is shown interspersed with action in the showdown messages' (WRGPT).
    Before, 'TALK I smell weakness.' reached nobody: no broadcast, not the hand's end."""
    t = table
    t.bet("bob", "CALL *\nTALK\nI smell weakness.\n")
    t.bet("carol", "$2\nTALK I'm calling.\n")
    t.bet("alice", "FOLD\nTALK\nToo rich for me.\nSIG\nAlice\n")
    t.bet("bob", "$0\n")
    t.bet("carol", "FOLD\n")  # bob wins: the hand ends
    for p in PLAYERS:
        end = [text(m) for m in t.new_mail(p) if "Table talk" in text(m)]
        assert len(end) == 1, p
        talk = end[0].split("Table talk, with the action it came with:", 1)[1]
        assert talk.index("- bob (CALL *): I smell weakness.") < talk.index("- carol ($2): I'm calling.") \
            < talk.index("- alice (FOLD): Too rich for me."), talk
        assert "Alice\n" not in talk  # after SIG: never read


def test_a_whole_hand_by_mail_as_the_manual_plays_it(table, tmp_path):
    """A whole hand, mail by mail, as the WRGPT manual's examples play: an advance action with
    table talk out of turn, a vacation taken mid-hand, WHAT, bets as '$x', the end of the hand
    with the talk and the vacation announced. Each player's mailbox holds what docs/email.md
    says they receive (the transcript there is this test's, NP_TRANSCRIPT=path writes it)."""
    import os

    t = table
    t.bet("bob", "CALL *\nTALK\nI smell weakness.\n")           # advance action + talk
    t.bet("alice", "GONE 13 Sep\n")                              # vacation, told to nobody
    t.bet("carol", "WHAT\n")                                     # answered to carol alone
    t.bet("carol", "$2\nTALK I'm calling.\n")                    # carol calls; alice (away) folds;
    t.bet("bob", "$0\n")                                         # bob's CALL * checked: the flop
    t.bet("carol", "$0\n")
    for r in range(3, 5):
        t.bet("bob", "$0\n")
        t.bet("carol", "$0\n")
    t.bet("bob", "reveal 4c 5s\n")
    t.bet("carol", "HAND1 reveal Th 3s\n")
    mail = {p: t.m.inbox(p) for p in PLAYERS}
    assert [m for m in mail["alice"] if "vacation" in text(m).lower() and "(ID=" not in m["Subject"]] == [
        m for m in mail["alice"] if "On vacation: alice (until 13 Sep)" in text(m)]
    for p in ("bob", "carol"):
        body = "\n".join(text(m) for m in mail[p])
        assert "alice folds." in body and "alice is away" not in body
        assert body.index("alice folds.") < body.index("On vacation: alice (until 13 Sep)")
        assert "- bob (CALL *): I smell weakness." in body and "- carol ($2): I'm calling." in body
    assert any("For carol" in text(m) for m in mail["carol"]) and not any(
        "For carol" in text(m) for p in ("alice", "bob") for m in mail[p])
    for p in PLAYERS:
        assert all(not any(k in text(m) for k in MARKUP) for m in mail[p])
    if os.environ.get("NP_TRANSCRIPT"):
        with open(os.environ["NP_TRANSCRIPT"], "w", encoding="utf-8") as out:
            for p in PLAYERS:
                for m in mail[p]:
                    out.write(f"=== to {p}: Subject: {m['Subject']}\n{text(m)}\n")
