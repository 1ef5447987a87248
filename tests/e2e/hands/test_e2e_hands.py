"""Several complete hands of Dealing and Play through the local forum and the poll cycle.

Expected Money, pots and dealer sentences are worked out by hand from the rule (four players,
100 Money each, ante 5) in the comments next to each step, never copied from output.
"""

from __future__ import annotations

import re

from nomicpoker.core.fairness.dealing import commitment

from kits.tables.bot import Table
from kits.references.fair_dealing import REF


def one(bodies, *needles):
    """Exactly one of ``bodies`` contains every needle; return it."""
    hits = [b for b in bodies if all(n in b for n in needles)]
    assert len(hits) == 1, (needles, bodies)
    return hits[0]


def test_three_hands_from_story_post_to_payout(tmp_path):
    t = Table(tmp_path)
    t.start(ante=5)
    start = t.new_dealer()
    # The hand-start comment: 4 antes of 5 = pot 20, button dave (the last player), commitments.
    assert len(start) == 1
    body = start[0]
    assert "Hand #1 has commenced" in body and "the pot is 20" in body
    assert "The Button: dave" in body
    for name in ("deck", "dice", "decks"):
        assert commitment(getattr(t.hands[1], name)) in body
    assert t.gndt() == {p: (95, "-", 5) for p in t.players}  # nobody bets before the draws
    # Every player got a deck privately.
    for p in t.players:
        assert any("Your deck for hand 1" in m.body for m in t.forum.inbox(p))

    t.draw(1)
    drawn = t.new_dealer()
    assert sum("Dice for" in b for b in drawn) >= 4
    assert sum("Hole Card Draw is recorded" in b for b in drawn) == 4
    one(drawn, "Every seated player has drawn: round 1 opens")
    notice = one(drawn, "**alice** to act")  # first seated player after the button (dave)
    assert "nothing to call" in notice and "Pot: 20" in notice
    assert t.gndt()["alice"][1] == "x" and t.gndt()["bob"][1] == "-"

    # alice raises 20: Money 95 -> 75, pot 20 -> 40; bob owes 20.
    out = t.act("alice", "HAND1 ROUND1 raise 20")
    assert len(out) == 1 and "**bob** to act, 20 to call. Pot: 40." in out[0]
    # bob calls: Money alice 75 bob 75, pot 60.
    out = t.act("bob", "HAND1 ROUND1 call")
    assert "**carol** to act, 20 to call. Pot: 60." in out[0]
    assert t.money()["alice"] == 75 and t.money()["bob"] == 75
    assert sum(v[2] for v in t.gndt().values()) == 60
    out = t.act("carol", "HAND1 ROUND1 folds")
    assert "**dave** to act, 20 to call. Pot: 60." in out[0]
    assert t.gndt()["carol"][1] == "o"  # folded
    # dave folds: round 1 ends (alice's raise was called), the flop comes, alice acts first.
    out = t.act("dave", "HAND1 ROUND1 folds")
    assert len(out) == 2
    # The flop comment opens with the fold that closed round 1 (announced once, here).
    assert out[0].startswith("dave folds. **Flop**") and "Pot: 60." in out[0]
    assert len(re.findall(r"[2-9JQKA]|10", out[0].split("\n")[0].split(":", 1)[1])) == 3
    assert "**alice** to act, nothing to call. Pot: 60." in out[1]
    out = t.act("alice", "HAND1 ROUND2 check")
    assert "**bob** to act" in out[0]
    out = t.act("bob", "HAND1 ROUND2 check")
    assert out[0].startswith("bob checks. **Turn**")
    t.act("alice", "HAND1 ROUND3 check")
    out = t.act("bob", "HAND1 ROUND3 check")
    assert out[0].startswith("bob checks. **River**")
    # alice raises 10 (Money 65, pot 70), bob folds: alice wins 70 uncontested -> 135.
    out = t.act("alice", "HAND1 ROUND4 raise 10")
    assert "**bob** to act, 10 to call. Pot: 70." in out[0]
    out = t.act("bob", "HAND1 ROUND4 folds")
    assert len(out) == 1
    pay = out[0]
    assert pay.startswith("bob folds. **Hand #1 is over.**") and "alice wins without a showdown" in pay
    assert "Pot 70: alice wins 70." in pay
    for name in ("deck", "dice", "decks"):
        assert getattr(t.hands[1], name).hex() in pay  # published at the end
    assert "| alice | 135 | o | 0 |" in pay
    assert t.money() == {"alice": 135, "bob": 75, "carol": 95, "dave": 95}

    # Every dealer comment of hand 1, in order (one per event the rule makes the Dealer answer).
    def kind(body):
        for needle, k in (("has commenced", "start"), ("Dice for", "dice"), ("Hole Card Draw is recorded", "draw"),
                          ("to act", "turn"), ("**Flop**", "flop"), ("**Turn**", "turn-card"),
                          ("**River**", "river"), ("is over", "payout")):
            if needle in body:
                return k
        return body
    kinds = [kind(b) for b in t.dealer_bodies()]
    assert kinds == (["start"] + ["dice"] * 4 + ["draw"] * 4 + ["turn"] * 4  # alice, bob, carol, dave
                     + ["flop", "turn", "turn"] + ["turn-card", "turn", "turn"]
                     + ["river", "turn", "turn", "payout"])
    assert all(re.search(r"`\[np:T-h1-\d{3}\]`\n$", b) for b in t.dealer_bodies())

    # Hand 2: the button moves one seat (dave -> alice), so bob acts first.
    t.start(ante=5)
    body = t.new_dealer()[0]
    assert "Hand #2 has commenced" in body and "The Button: alice" in body
    # Money after antes: alice 130, bob 70, carol 90, dave 90; pot 20.
    assert t.money() == {"alice": 130, "bob": 70, "carol": 90, "dave": 90}
    t.draw(2)
    notice = one(t.new_dealer(), "**bob** to act")
    assert "Pot: 20" in notice
    # bob goes all in for 70 (pot 90); carol calls 70 (Money 20, pot 160); dave and alice fold.
    out = t.act("bob", "HAND2 ROUND1 all in")
    assert "**carol** to act, 70 to call. Pot: 90." in out[0]
    t.act("carol", "HAND2 ROUND1 call")
    t.act("dave", "HAND2 ROUND1 folds")
    out = t.act("alice", "HAND2 ROUND1 folds")
    # bob is all-in and carol alone can act: flop, turn and river run out, then the showdown.
    assert [b.split("**")[1] for b in out[:3]] == ["Flop", "Turn", "River"]
    call = one(out, "betting is over")
    assert "1. bob" in call and "2. carol" in call and "pot 160" in call
    out = t.act("bob", "HAND2 reveal " + " ".join(t.p["bob"].hole()))
    assert len(out) == 1 and "bob shows" in out[0] and "Still to reveal: carol." in out[0]
    out = t.act("carol", "HAND2 reveal " + " ".join(t.p["carol"].hole()))
    pay = one(out, "Hand #2 is over")
    assert "Shown hands:" in pay
    money = t.money()
    assert sum(money.values()) == 400  # nothing created or destroyed
    # The premises (fixed secrets "test:2"): the board and the hole cards each player read.
    assert "Board: 3♣ A♠ 9♣ 9♦ 8♦." in pay
    assert sorted(t.p["bob"].hole()) == ["8s", "9c"] and sorted(t.p["carol"].hole()) == ["9c", "Ah"]
    # ... and those premises recomputed from the hand's secrets by the reference implementation
    # of docs/fair-dealing.md (independent of nomicpoker): the board, and each player's issued
    # deck (position k is the k-th card of the player's shuffle) as read from the inbox.
    assert REF["board"](t.hands[2].deck, 2) == ["3c", "As", "9c", "9d", "8d"]
    for p in ("bob", "carol"):
        ref_deck = REF["deck"](t.hands[2].decks, 2, p)
        assert t.p[p].deck == {k + 1: c for k, c in enumerate(ref_deck)}, p
        assert t.p[p].hole() == tuple(ref_deck[k - 1] for k in t.p[p].positions)
    # By hand: both have three nines (their own 9♣, the board's 9♣ and 9♦: own decks make the
    # same card twice possible); carol pairs the board's A♠ with her A♥, bob the 8♦ with his
    # 8♠. Nines over aces beats nines over eights: carol takes the whole 160.
    assert "Full House, Nines over Aces" in pay and "Full House, Nines over Eights" in pay
    assert "Pot 160: carol wins 160." in pay
    assert money == {"alice": 130, "bob": 0, "carol": 180, "dave": 90}

    # Hand 3: one seat on from alice is bob, who has no Money: he is not seated and the
    # button skips him to carol; dave (after carol) acts first. Antes: alice 125, carol 175,
    # dave 85; pot 15.
    t.start(ante=5)
    body = t.new_dealer()[0]
    assert "Hand #3 has commenced" in body
    assert "The Button: carol" in body and "Not seated this hand: bob" in body
    assert t.gndt()["bob"] == (0, "o", 0)
    t.draw(3, ("alice", "carol", "dave"))
    assert "**dave** to act" in t.new_dealer()[-1]
    t.act("dave", "HAND3 ROUND1 folds")
    out = t.act("alice", "HAND3 ROUND1 folds")
    # Everybody folds to carol, who takes the 15 of antes: 175 + 15 = 190.
    assert len(out) == 1 and out[0].startswith("alice folds. **Hand #3 is over.**")
    assert "carol wins without a showdown" in out[0]
    assert t.money() == {"alice": 125, "bob": 0, "carol": 190, "dave": 85}

    # Polling again after everything posts nothing new.
    before = len(t.comments())
    t.run()
    assert len(t.comments()) == before
