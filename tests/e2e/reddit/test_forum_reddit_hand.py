"""A complete hand of Dealing and Play through praw and a fake Reddit API on loopback.

The real poll cycle (:func:`nomicpoker.shell.jobs.poll.poll`, :func:`nomicpoker.shell.dealer.service.start_hand`) with
the adapter the registry builds, so praw itself fetches the thread, posts the dealer's replies
and sends the decks by private message (/api/compose). Players' comments are added to the
fake between polls. Reddit has no dice roller, so the bot rolls; players read their dice from
the dealer's replies and their cards from the private messages the fake received, as a player
reads their inbox, so their reveals are their real cards.

Expected Money, pots and sentences are worked out by hand in the comments, never copied from
output.
"""

from __future__ import annotations

import re

from sqlmodel import Session

from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs import poll
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.core.words.render import find_tag
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.references.fair_dealing import REF
from kits.servers.reddit import config_for, fake, inbox_deck  # noqa: F401 (fixture)
from fixtures.reddit_api import SUB, USER, FakeComment, FakeReddit

PLAYERS = ("alice", "bob", "carol")
def dealer_replies(fake: FakeReddit, comment: FakeComment) -> list[str]:
    return [c.body for c in fake.comments if c.author == USER and c.parent == f"t1_{comment.id}"]


def test_a_complete_hand_plays_through_reddit(fake, tmp_path) -> None:
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "T", list(PLAYERS), 100, forum="reddit", forum_config=config_for(fake))
    secrets_store.write(state, "T", 1, fixed_secrets("reddit-hand"))
    started = service.start_hand(engine, state, "T", 5, thread=SUB)
    assert not started.report.error, started.report.error

    def run() -> list[str]:
        before = len(fake.posted)
        report = poll.poll(engine, state)
        assert report.ok, [t.error for t in report.tables]
        live = {f"t1_{c.id}": c.body for c in fake.comments if c.author == USER}
        return [live[name] for name in fake.posted[before:] if name in live]  # not the deleted

    def act(who: str, body: str) -> list[str]:
        fake.add(who, body)
        return run()

    # Hand start: 3 antes of 5, pot 15; the Button is carol (the last player), alice acts
    # first. The decks go by private message through /api/compose, one per player.
    (start,) = [c.body for c in fake.comments if c.author == USER]
    assert "Hand #1 has commenced" in start and "the pot is 15" in start and "The Button: carol" in start
    assert sorted(m["to"] for m in fake.messages) == list(PLAYERS)
    assert all(m["subject"].startswith("Your deck for hand 1 (T) [np:T-h1-") for m in fake.messages)  # with its identity

    fake.more_after = 4  # from here on, later top-level comments come as "load more comments"
    decks = {p: inbox_deck(fake, p, 1) for p in PLAYERS}
    draws = {p: fake.add(p, "HAND#1 DICE52 DICE52") for p in PLAYERS}
    assert len(run()) == 3  # the bot rolls: one reply per draw
    pos = {}
    for p, c in draws.items():
        (reply,) = dealer_replies(fake, c)
        assert reply.startswith(f"Dice for {p} ")
        pos[p] = tuple(int(x) for x in re.findall(r"DICE52: (\d+)", reply))
    hole = {p: tuple(decks[p][0][x] for x in pos[p]) for p in PLAYERS}
    # What the fixed "decks" secret printed at those positions (as each player reads it).
    assert hole == {"alice": ("5s", "Ts"), "bob": ("3s", "7d"), "carol": ("Ts", "6s")}
    # ... recomputed independently by the docs' reference implementation: each deck received
    # is the shuffle of the committed "decks" secret, and each die the one of the "dice" secret
    # for that comment's fullname.
    secret = fixed_secrets("reddit-hand")
    for p in PLAYERS:
        assert decks[p][0] == {k + 1: c for k, c in enumerate(REF["deck"](secret.decks, 1, p))}, p
        assert pos[p] == tuple(REF["die"](secret.dice, f"t1_{draws[p].id}", i, 52) for i in (0, 1)), p
    for p in PLAYERS:
        fake.add(p, f"cards {pos[p][0]}, {pos[p][1]}, {decks[p][1]}")
    drawn = run()
    assert len(drawn) == 4 and "Every seated player has drawn: round 1 opens." in drawn[2]
    assert "**alice** to act, nothing to call. Pot: 15." in drawn[3]

    # Round 1: bob out of turn is rejected once. alice raises 10 (85, pot 25); bob raises 30
    # (10 to call + 20 more: 65, pot 55); carol folds; alice calls 20 (65, pot 75): the flop.
    (rejected,) = act("bob", "HAND1 ROUND1 call")
    assert "not_your_turn" in rejected and "it is alice's turn" in rejected
    assert "**bob** to act, 10 to call. Pot: 25." in act("alice", "HAND1 ROUND1 raise 10")[0]
    assert "**carol** to act, 30 to call. Pot: 55." in act("bob", "HAND1 ROUND1 raise 30")[0]
    assert "**alice** to act, 20 to call. Pot: 55." in act("carol", "HAND1 ROUND1 fold")[0]
    flop, _ = act("alice", "HAND1 ROUND1 call")
    # The board is what the fixed "deck" secret deals (recomputable by `nomicpoker audit verify`).
    assert flop.startswith("alice calls. **Flop**: 10♦ 10♠ Q♠") and "Pot: 75." in flop
    # Reddit says RATELIMIT: the run fails in one line and the notice waits in the outbox;
    # the next run sends it, once.
    fake.comment_mode = "ratelimit"
    fake.add("alice", "HAND1 ROUND2 check")
    (limited,) = poll.poll(engine, state).tables
    assert "rate_limited" in limited.error and "next run" in limited.error
    fake.comment_mode = "ok"
    (notice,) = run()
    assert "**bob** to act, nothing to call. Pot: 75." in notice
    turn, _ = act("bob", "HAND1 ROUND2 check")
    assert turn.startswith("bob checks. **Turn**: 6♦")
    act("alice", "HAND1 ROUND3 check")
    river, _ = act("bob", "HAND1 ROUND3 check")
    assert river.startswith("bob checks. **River**: J♠")
    act("alice", "HAND1 ROUND4 check")

    # The next dealer reply lands twice (Reddit stored it, answered 500, prawcore retried),
    # and the first copy came back with different whitespace: only the tag says they are one.
    fake.comment_mode, fake.reformat_once = "error500_once", True
    (notice,) = act("bob", "HAND1 ROUND4 raise 10")
    assert "**alice** to act, 10 to call. Pot: 85." in notice  # bob 55
    assert len(fake.deleted) == 1 and fake.deleted[0] == fake.posted[-1]
    (call,) = act("alice", "HAND1 ROUND4 call")  # alice 55, pot 95
    assert "betting is over" in call and "pot 95" in call and "1. alice\n2. bob" in call

    # Showdown on 10♦ 10♠ Q♠ 6♦ J♠. alice's 5♠ 10♠ with the board's 10♠ Q♠ J♠: five spades,
    # a flush (her 10♠ and the board's are two cards: each player has their own deck).
    # bob's 3♠ 7♦: four spades only, so the board's pair of tens with Q J and his 7.
    # The flush wins the whole pot: alice 55 + 95 = 150; bob 55; carol 95.
    (shown,) = act("alice", "HAND1 reveal 5s Ts")
    assert "alice shows 5♠ 10♠" in shown and "Still to reveal: bob." in shown
    (pay,) = act("bob", "HAND1 reveal 7 of diamonds, 3 of spades")
    assert "**Hand #1 is over.**" in pay
    assert "- alice: 5♠ 10♠, Flush, Queen high (Q♠ J♠ 10♠ 10♠ 5♠)" in pay
    assert "- bob: 7♦ 3♠, Pair of Tens (10♦ 10♠ Q♠ J♠ 7♦)" in pay
    assert "- Pot 95: alice wins 95." in pay
    assert "alice: put in 45, receives 95 (+50)" in pay and "bob: put in 45, receives 0 (-45)" in pay

    # Every dealer comment is live in the thread once, in order: the start (001), then after
    # the three decks (002-004, private) 3 dice notes, 3 draws, the turn notice, the rejection,
    # 3 round-1 notices, flop + notice, 1, turn + notice, 1, river + notice, 1, 1, the call for
    # reveals, 1 reveal note, the payout: 005 to 028.
    live = [c for c in fake.comments if c.author == USER]
    assert [find_tag(c.body) for c in live] == ["T-h1-001"] + [f"T-h1-{n:03d}" for n in range(5, 29)]

    with Session(engine) as s:
        table = ledger.get_table(s, "T")
        assert {r.player: (r.money, r.turn, r.pot) for r in ledger.gndt(s, table)} == {
            "alice": (150, "o", 0), "bob": (55, "o", 0), "carol": (95, "o", 0)}
        rolls = [(d.player, d.result, d.source) for d in ledger.stored_rows(s, "T", "dice")]
    assert rolls == [(p, r, "bot") for p in PLAYERS for r in pos[p]]

    before = (len(fake.posted), len(fake.messages))
    assert run() == []  # a second poll posts nothing
    assert (len(fake.posted), len(fake.messages)) == before
    names, diffs = audit(engine, state)
    assert names == ["T"] and diffs == []
