"""The table's deadline applied to the Hole Card Draws: a player who never draws no longer
stalls the hand.

End to end through the real local forum, the real SQLite ledger and the poll cycle, with an
injected clock (``poll(now=...)``) as the betting-deadline tests do. Every Money, pot and
time below is worked out by hand: antes of 5 from three players make a pot of 15; a folded
out player keeps 100 - 5 = 95; the deadline is the hand start (or the identical-dice draw)
plus the table's hours.
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.audit.audit import audit
from nomicpoker.core.fairness.dealing import roll
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.storage.store import DealerEventRow

from kits.tables.bot import Table, fixed_secrets
from kits.tables.clock import poll_at, started_at

#: the rule sentence obliging every seated player to make a Hole Card Draw (rule.txt, word for word)
DRAW_SENTENCE = ("Each Seated Player shall obtain a new Deck of Cards from the BlogNomic Poker Deck "
                 "Trading Post for use in that Hand, and shall make a comment of")


def events(t: Table) -> list[tuple[str, str, str]]:
    with Session(t.engine) as s:
        return [(e.kind, e.player, e.at) for e in s.exec(select(DealerEventRow).order_by(DealerEventRow.id))]


def test_a_player_without_a_draw_at_the_deadline_is_folded_out_and_round_one_opens(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)  # button carol: alice acts first; pot 15
    start = t.new_dealer()[0]
    t0 = started_at(t)
    # The hand-start comment gives the draw deadline: the start plus 24 hours.
    due = (t0 + timedelta(hours=24)).strftime("%Y-%m-%d %H:%M UTC")
    assert f"Deadline for Hole Card Draws: {due}" in start
    t.draw(1, who=("alice", "carol"))
    t.new_dealer()

    # One minute short of 24 hours: nothing happens.
    assert poll_at(t, t0 + timedelta(hours=23, minutes=59)) == []
    assert events(t) == []

    # At 24 hours bob, silent, is folded out; his ante stays in the pot of 15.
    at = t0 + timedelta(hours=24)
    notice, turn = poll_at(t, at)
    assert notice.startswith("bob has stated no Hole Card Draw by the table's deadline (24 hours from "
                             f"{t0:%Y-%m-%d %H:%M} UTC")  # as reminders give times (issue 22)
    assert "bob is folded out of hand 1, and the 5 they put in stays in the pot (15)." in notice
    assert "> " + DRAW_SENTENCE in notice
    assert "Every player left in the hand has drawn: round 1 opens." in notice
    assert "**alice** to act" in turn and "Pot: 15." in turn
    assert events(t) == [("draw_timeout", "bob", at.isoformat(timespec="seconds"))]
    assert t.gndt() == {"alice": (95, "x", 5), "bob": (95, "o", 5), "carol": (95, "-", 5)}

    # A second poll later records nothing more and posts nothing.
    assert poll_at(t, at + timedelta(hours=1)) == []
    assert len(events(t)) == 1

    # bob's late draw is refused, quoting the sentence on folding.
    (late,) = t.act("bob", "HAND#1 DICE52 DICE52")
    assert "(`folded_out`)" in late and "bob was folded out of hand 1" in late
    assert "thereafter that Player ceases to participate in that Hand" in late

    # alice folds: carol, the one player left, takes the 15: 95 + 15 = 110.
    t.act("alice", "HAND1 ROUND1 folds")
    assert t.money() == {"alice": 95, "bob": 95, "carol": 110}
    assert audit(t.engine, t.state)[1] == []  # the recorded event replays byte for byte


def test_when_only_one_player_has_drawn_the_others_are_folded_out_and_that_player_wins(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)
    t0 = started_at(t)
    t.draw(1, who=("carol",))
    t.new_dealer()
    alice_out, bob_out, payout = poll_at(t, t0 + timedelta(hours=30))
    # Both silent players are folded out at once, in seat order.
    assert alice_out.startswith("alice has stated no Hole Card Draw")
    assert "Still to state a Hole Card Draw: bob." in alice_out
    assert bob_out.startswith("bob has stated no Hole Card Draw")
    assert "Only carol is left in the hand and wins the pot." in bob_out
    assert "**Hand #1 is over.** No community cards were dealt." in payout
    assert "carol wins without a showdown" in payout and "Pot 15: carol wins 15." in payout
    for name in ("deck", "dice", "decks"):
        assert getattr(t.hands[1], name).hex() in payout  # the secrets are published
    assert t.money() == {"alice": 95, "bob": 95, "carol": 110}
    assert t.gndt() == {"alice": (95, "o", 0), "bob": (95, "o", 0), "carol": (110, "o", 0)}
    assert [(k, p) for k, p, _ in events(t)] == [("draw_timeout", "alice"), ("draw_timeout", "bob")]
    assert audit(t.engine, t.state)[1] == []
    # The next hand starts normally (the button moves from carol to alice).
    started = t.start(ante=5)
    assert started.button == "alice"


def test_nobody_is_folded_out_while_nobody_has_drawn(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), deadline_hours=24)
    t.start(ante=5)
    t.new_dealer()
    # nobody to fold out, but the stall is said once (issue 22), and nothing else happens
    (stall,) = poll_at(t, started_at(t) + timedelta(hours=100))
    assert stall.startswith("Hand #1: the Hole Card Draw deadline passed at ") and "the hand waits" in stall
    assert [e[0] for e in events(t)] == ["stalled"]
    assert poll_at(t, started_at(t) + timedelta(hours=101)) == []
    assert t.gndt() == {"alice": (95, "-", 5), "bob": (95, "-", 5)}


def test_without_a_table_deadline_the_draws_wait_forever(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    assert "Deadline for Hole Card Draws" not in t.new_dealer()[0]
    t.draw(1, who=("alice",))
    t.new_dealer()
    assert poll_at(t, started_at(t) + timedelta(days=365)) == []
    assert events(t) == []


def secrets_with_identical_dice(comment_id: str):
    """Hand secrets whose dice secret rolls the same number twice for ``comment_id``."""
    for n in range(5000):
        value = fixed_secrets(f"redraw:{n}")
        if roll(value.dice, comment_id, 0, 52) == roll(value.dice, comment_id, 1, 52):
            return value
    raise AssertionError("no such secret in 5000 tries")


def test_identical_dice_start_the_player_s_deadline_again(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), deadline_hours=24)
    # On a fresh forum the hand-start comment is comment 1, so bob's first dice comment is 2.
    t.start(ante=5, secrets=secrets_with_identical_dice("2"))
    t.new_dealer()
    t0 = started_at(t)
    # bob rolls 20 hours into the hand (his comment carries that time) and gets a pair.
    t.p["bob"].forum = LocalForum(forum_db_path(t.state), clock=lambda: t0 + timedelta(hours=20))
    cid = t.p["bob"].say("HAND#1 DICE52 DICE52")
    assert cid == "2"
    t.run()
    (redraw,) = t.new_dealer()
    assert "Both results are the same number" in redraw
    new_due = (t0 + timedelta(hours=44)).strftime("%Y-%m-%d %H:%M UTC")
    assert f"Your new deadline for the Hole Card Draw: {new_due}." in redraw
    t.p["bob"].forum = t.forum
    t.draw(1, who=("alice",))
    t.new_dealer()
    # 25 hours after the start bob is past the first deadline but not his new one.
    assert poll_at(t, t0 + timedelta(hours=25)) == []
    # 44 hours after the start (24 after his identical roll) he is folded out; alice, alone,
    # takes the 10 of antes: 95 + 10 = 105.
    notice, payout = poll_at(t, t0 + timedelta(hours=44))
    assert notice.startswith("bob has stated no Hole Card Draw by the table's deadline (24 hours from "
                             f"{t0 + timedelta(hours=20):%Y-%m-%d %H:%M} UTC")
    assert "Pot 10: alice wins 10." in payout
    assert t.money() == {"alice": 105, "bob": 95}
    assert audit(t.engine, t.state)[1] == []


def test_when_the_first_to_act_is_folded_out_the_next_player_after_the_button_acts_first(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)  # button carol: alice would act first
    t0 = started_at(t)
    t.draw(1, who=("bob", "carol"))
    t.new_dealer()
    notice, turn = poll_at(t, t0 + timedelta(hours=24))
    assert notice.startswith("alice has stated no Hole Card Draw")
    assert "**bob** to act" in turn
    assert t.gndt() == {"alice": (95, "o", 5), "bob": (95, "x", 5), "carol": (95, "-", 5)}
    # bob raises 10 (pot 25), carol calls (pot 35): the flop comes, alice's ante still in it.
    t.act("bob", "HAND1 ROUND1 raise 10")
    flop = t.act("carol", "HAND1 ROUND1 call")
    assert any("**Flop**" in b and "Pot: 35." in b for b in flop)
    assert audit(t.engine, t.state)[1] == []
