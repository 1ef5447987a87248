"""pokprot on IRC as its players know it (issue 28), on a real ngIRCd (tests/kits/servers/ircd.py) with
``serve``'s loop running (tests/kits/servers/irc.py). Fixed secrets "nlhe:1": alice J♥ K♥, bob 4♣ 5♠,
carol 10♥ 3♠; blinds 1/2 (bob the big blind), carol first to act.
"""

from __future__ import annotations

import pytest

from kits.servers.ircd import ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)
from kits.servers.irc import IrcTable, plain

pytestmark = [needs_ngircd]


@pytest.fixture
def game(tmp_path, ircd):
    g = IrcTable(tmp_path, ircd.port)
    try:
        g.serve()
        g.deal()
        g.channel_line("carol to act")
        yield g
    finally:
        g.close()


def test_call_star_by_msg_is_an_advance_action(game):
    """docs/irc.md's own example, '/msg dealerbot CALL *': confirmed privately, applied at
    bob's turn. Before issue 28 it was refused: 'advance_missing_amount: CALL needs an amount'."""
    g = game
    start = g.mark("bob")
    g.p["bob"].say("dealerbot", "CALL *")
    confirm = g.notice("bob", "advance action", start)
    assert "CALL" in confirm and "*" in confirm and "advance_missing_amount" not in confirm
    g.act("carol", "call", "alice to act")
    g.act("alice", "call", "bob (advance action): checks")


MARKUP = ("**", "`", "&lt;", "&gt;", "&amp;", "irc://", "#line-", "[np:T-h1-story]\\")


def clean_text(line: str) -> bool:
    """No Markdown or HTML left (the story line's '*** Poker: Hand #1 (T) ***' is IRC's own
    way of announcing)."""
    if line.startswith("*** ") and line.endswith(" ***"):
        line = line[4:-4]
    return not any(m in line for m in MARKUP)


def test_hole_cards_come_as_one_plain_notice_naming_the_table(game):
    """docs/irc.md: '[#poker] Your hole cards for hand 1, alice: J♥ K♥ (Jh Kh).' Before issue
    28 the subject was repeated in front of the body: '[Your hole cards for hand 1 (T)] Your
    hole cards for hand 1, alice: ...'."""
    got = game.notice("alice", "hole cards")
    assert got == "[#poker] Your hole cards for hand 1, alice: J\u2665 K\u2665 (Jh Kh).", got


def test_channel_lines_are_plain_text_and_name_a_line_by_its_time(game):
    """No Markdown markers, entities or internal addresses on IRC: a refusal names 'your line
    at HH:MM UTC', never irc://host:port/#poker#line-N."""
    g = game
    got = g.act("alice", "reveal Jh Kh", "not accepted")  # no reveal while betting
    assert got.startswith("alice: your line at ") and " UTC was not accepted (reveal_not_allowed)" in got, got
    every = [t for t in g.p["alice"].texts("PRIVMSG", "#poker")]
    assert every and all(clean_text(t) for t in every), [t for t in every if not clean_text(t)]


def test_a_seat_follows_its_players_nick_change(game):
    """After 'NICK bobby', bob's line acts for bob's seat (the server says it is the same
    connection); before issue 28 it was chat from a stranger, with no reply."""
    g = game
    bob = g.p["bob"]
    bob.send("NICK bobby")
    bob.nick = "bobby"
    g.p["alice"].wait(lambda l: l.startswith(":bob!") and " NICK " in l, what="bob's NICK")
    g.act("carol", "call", "alice to act")
    g.act("alice", "call", "bob to act")
    got = g.act("bob", "check", "Flop")
    assert got.startswith("bob checks."), got


def test_usage_mistakes_stop_being_answered_at_the_flood_threshold(game):
    """30 '@bogus' lines got 30 answers while action rejections stop at the flood threshold
    (5 answered, then one saying further ones are not)."""
    g = game
    start = g.mark()
    for _ in range(30):
        g.p["carol"].say("#poker", "@bogus")
    g.act("carol", "@call", "alice to act")
    answers = [t for t in g.p["alice"].texts("PRIVMSG", "#poker", start) if "unknown command @bogus" in t]
    assert len(answers) == 6, answers
    assert "not answered" in answers[-1]


def test_a_whole_hand_line_by_line(game):
    """A whole hand on IRC, line by line: a private advance action (/msg), a vacation, @cards
    (WHAT), @ commands and plain words, reveals, the payout; every line the table sees is plain
    IRC text (docs/irc.md shows this transcript; NP_TRANSCRIPT=path writes it)."""
    import os

    g = game
    start = g.mark("bob")
    g.p["bob"].say("dealerbot", "CALL *")
    g.notice("bob", "advance action", start)
    # GONE is confirmed to alice alone (a NOTICE); the table hears of it at her turn ("alice is
    # away: ...", asserted below). Waiting for a channel line naming alice raced the turn
    # notice's status table, which names every player, and failed whenever it came first.
    start = g.mark("alice")
    g.p["alice"].say("#poker", "GONE 13 Sep")
    g.notice("alice", "you are on vacation", start)
    start = g.mark("carol")
    g.act("carol", "@cards", "For carol")
    g.notice("carol", "Your hole cards: 10", start)
    out = g.act("carol", "@call", "Flop")
    for r, street in ((2, "Turn"), (3, "River"), (4, "betting is over")):
        g.act("bob", "check", "carol to act")
        out = g.act("carol", f"@check --hand 1 --round {r}", street)
    g.act("bob", "@reveal 4c 5s", "bob shows")
    pay = g.act("carol", "reveal Th 3s", "Hand #1 is over")
    g.p["alice"].drain(1.0)
    every = [plain(t) for t in g.p["alice"].texts("PRIVMSG", "#poker")]
    joined = "\n".join(every)
    assert "bob (advance action): checks" in joined and "alice is away: the dealer folds for them." in joined
    assert joined.index("Hand #1 is over") < joined.index("On vacation: alice (until 13 Sep)")
    assert all(clean_text(t) for t in every), [t for t in every if not clean_text(t)]
    assert pay and out
    if os.environ.get("NP_TRANSCRIPT"):
        with open(os.environ["NP_TRANSCRIPT"], "w", encoding="utf-8") as f:
            f.write("\n".join(g.p["alice"].lines + ["--- bob"] + g.p["bob"].lines + ["--- carol"] + g.p["carol"].lines))
