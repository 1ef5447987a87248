"""Tricky flows of Dealing and Play through the local forum and the poll cycle.

Every expected Money, pot and button is worked out by hand from the rule (blognomic-2008: no
side pots, ties split rounding down with the remainder destroyed, the button moves one seat
skipping players who are out) in the comments beside each step. Where a showdown is needed
and the cards must not matter, the loser stays silent past the table's deadline and mucks
(the table's deadline option), or both players reveal the same own-deck cards (a sure tie).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from sqlmodel import Session

from nomicpoker.shell.storage import ledger

from kits.tables.bot import Table

LATER = datetime.now(timezone.utc) + timedelta(hours=30)


def hand_end(t: Table, number: int):
    with Session(t.engine) as s:
        return [r for r in ledger.stored_rows(s, t.name, "hand_end") if r.hand == number]


def record(t: Table, number: int) -> dict:
    with Session(t.engine) as s:
        return ledger.hand_record(s, ledger.get_table(s, t.name), number)


def own_draw(t: Table, number: int, who: tuple[str, ...]) -> None:
    """Own decks: roll, read the dealer's dice reply, state the draw with a home-made checksum."""
    waiting = list(who)
    for _ in range(20):
        if not waiting:
            break
        ids = {p: t.p[p].say(f"HAND#{number} DICE52 DICE52") for p in waiting}
        t.run()
        again = []
        for p in waiting:
            a, b = t.p[p].dice_results(ids[p])
            if a == b:
                again.append(p)
            else:
                t.p[p].positions = (a, b)
        waiting = again
    for p in who:
        a, b = t.p[p].positions
        t.p[p].say(f"cards {a}, {b}, Cards printed by: Kitchen Table Press, Elko")
    t.run()


def test_everyone_but_one_folds_in_round_one_no_reveals_payout_and_secrets(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)  # button carol (the last player): alice acts first; pot 15
    t.draw(1)
    t.new_dealer()
    t.act("alice", "HAND1 ROUND1 folds")
    out = t.act("bob", "HAND1 ROUND1 folds")
    # One comment: the payout. No flop, no call for reveals.
    assert len(out) == 1
    pay = out[0]
    # The fold that ended the hand opens the payout; there is no board to show.
    assert pay.startswith("bob folds. **Hand #1 is over.** No community cards were dealt.")
    assert "Hand #1 is over" in pay and "carol wins without a showdown" in pay
    assert "Pot 15: carol wins 15." in pay
    assert "Reveal" not in pay and "Flop" not in pay
    for name in ("deck", "dice", "decks"):
        assert getattr(t.hands[1], name).hex() in pay
    # carol: 100 - 5 + 15 = 110; alice and bob lose their antes.
    assert t.money() == {"alice": 95, "bob": 95, "carol": 110}
    assert t.gndt() == {"alice": (95, "o", 0), "bob": (95, "o", 0), "carol": (110, "o", 0)}
    rec = record(t, 1)
    assert rec["board"] == [] and rec["reveals"] == []
    assert rec["secrets"] == {n: getattr(t.hands[1], n).hex() for n in ("deck", "dice", "decks")}
    assert len(hand_end(t, 1)) == 1


def test_a_busted_player_is_shown_out_and_the_button_skips_them(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    t.start(ante=5)  # button carol; alice first. Money 95 each, pot 15.
    t.draw(1)
    t.new_dealer()
    t.act("alice", "HAND1 ROUND1 folds")
    t.act("bob", "HAND1 ROUND1 all in")       # bob 95 in: Money 0
    out = t.act("carol", "HAND1 ROUND1 call")  # carol 95 in: Money 0; pot 15 + 190 = 205
    call = [b for b in out if "betting is over" in b]
    assert len(call) == 1 and "1. bob" in call[0] and "2. carol" in call[0]
    # carol's call opened the flop (the run-out); the call for reveals carries the status table.
    assert [b for b in out if "**Flop**" in b][0].startswith("carol calls and is all-in. **Flop**")
    assert "| Bankroll |" in call[0] and "all-in" in call[0]
    t.act("carol", "HAND1 reveal " + " ".join(t.p["carol"].hole()))
    # bob never reveals: past the deadline he mucks and carol, alone showing, takes 205.
    assert t.poll(now=lambda: LATER).ok
    assert t.money() == {"alice": 95, "bob": 0, "carol": 205}
    assert "Out of Money: bob (not seated in the next hand)." in t.dealer_bodies()[-1]
    # The next hand starts at the same archive position as that timeout: the replay must put
    # the timeout (which ended hand 1) before hand 2's start.

    # Hand 2: the button moves from carol to alice; bob has no Money: not seated, shown out.
    t.start(ante=5)
    start = t.new_dealer()[0]
    assert "The Button: alice" in start and "Not seated this hand: bob" in start
    assert "Seated, in GNDT order: alice and carol" in start
    assert re.search(r"\|\s+bob\s+\|\s+0 \|\s+\| out\s+\|", start)  # the status table
    assert t.gndt()["bob"] == (0, "o", 0)
    assert t.seated() == ("alice", "carol")
    t.draw(2)
    notice = t.new_dealer()[-1]
    assert "**carol** to act" in notice  # the first seated player after alice is carol
    t.act("carol", "HAND2 ROUND1 folds")  # alice takes the 10 of antes: 95 - 5 + 10 = 100
    assert t.money() == {"alice": 100, "bob": 0, "carol": 200}

    # Hand 3: one seat on from alice is bob, who is out: the button skips him to carol.
    t.start(ante=5)
    start = t.new_dealer()[0]
    assert "The Button: carol" in start and "Not seated this hand: bob" in start


def test_a_tie_splits_rounding_down_and_the_odd_chip_leaves_the_game(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), issue_decks=False)
    t.start(ante=5)  # pot 15
    own_draw(t, 1, ("alice", "bob", "carol"))
    t.new_dealer()
    t.act("alice", "HAND1 ROUND1 raise 10")  # pot 25
    t.act("bob", "HAND1 ROUND1 folds")
    t.act("carol", "HAND1 ROUND1 call")       # pot 35
    for r in (2, 3, 4):
        t.act("alice", f"HAND1 ROUND{r} check")
        t.act("carol", f"HAND1 ROUND{r} check")
    # Own decks: the same two cards in both hands make the same best five, whatever the board.
    t.act("alice", "HAND1 reveal As Ah")
    out = t.act("carol", "HAND1 reveal As Ah")
    pay = out[-1]
    # 35 split two ways: 17 each, 1 chip destroyed.
    assert "split between alice and carol (alice 17, carol 17)" in pay
    assert "1 chip left over by rounding down is destroyed" in pay
    assert t.money() == {"alice": 85 + 17, "bob": 95, "carol": 85 + 17}
    assert sum(t.money().values()) == 299
    assert hand_end(t, 1)[0].destroyed == 1


def test_an_all_in_for_less_takes_the_whole_pot_without_side_pots(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), deadline_hours=24)
    # Hand 1 makes the stacks unequal: alice raises 10, both fold; alice takes 25.
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 folds")
    t.act("carol", "HAND1 ROUND1 folds")
    assert t.money() == {"alice": 110, "bob": 95, "carol": 95}
    # Hand 2: button alice, bob first. After antes alice 105, bob 90, carol 90, pot 15.
    t.start(ante=5)
    t.draw(2)
    t.new_dealer()
    t.act("bob", "HAND2 ROUND1 all in")    # bob adds 90: pot 105
    t.act("carol", "HAND2 ROUND1 folds")
    t.act("alice", "HAND2 ROUND1 all in")  # alice adds 105 (90 to call + 15): pot 210
    # bob is all-in for less; nobody can bet: the board runs out and bob reveals.
    t.act("bob", "HAND2 reveal " + " ".join(t.p["bob"].hole()))
    assert t.poll(now=lambda: LATER).ok  # alice stays silent and mucks
    pay = t.dealer_bodies()[-1]
    # No side pots: bob takes all 210, alice's 15 he could not match included.
    assert "Pot 210: bob wins 210." in pay
    assert "Side pots: none under this ruleset" in pay
    assert "Returned" not in pay
    assert t.money() == {"alice": 0, "bob": 210, "carol": 90}


def test_a_comment_edited_before_the_bot_saw_it_acts_as_edited(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    cid = t.p["alice"].say("HAND1 ROUND1 folds")
    t.forum.edit_comment(cid, "HAND1 ROUND1 raise 10", author="alice")
    out = t.act("bob", "just watching")
    # The first reading the dealer had is the edited text: alice raised 10; no edit note.
    assert t.gndt()["alice"] == (85, "-", 15)
    assert not any("edited" in b for b in out)
    assert any("alice raises 10" in b and "**bob** to act, 10 to call" in b for b in out)
    # Edited again after the bot read it: noted once, the raise stands.
    t.forum.edit_comment(cid, "HAND1 ROUND1 folds", author="alice")
    t.run()
    t.run()
    notes = [b for b in t.new_dealer() if "edited a comment" in b]
    assert len(notes) == 1
    assert "the first reading stands (as a spoken action does): `HAND1 ROUND1 raise 10`, accepted." in notes[0]
    assert t.gndt()["alice"] == (85, "-", 15)


def test_a_comment_deleted_before_the_bot_saw_it_does_not_act(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    cid = t.p["alice"].say("HAND1 ROUND1 folds")
    t.forum.delete_comment(cid, author="alice")
    t.run()
    assert t.gndt()["alice"] == (95, "x", 5)  # still alice's turn
    assert t.new_dealer() == []


def test_betting_before_the_draws_and_acting_for_another_quote_the_sentences_they_rest_on(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.new_dealer()
    out = t.act("alice", "HAND1 ROUND1 raise 10")
    # No draws stated yet: the rule has the draw statement come first ("shall then post").
    assert len(out) == 1 and "`betting_closed`" in out[0]
    assert "> The Seated Player shall then post a comment to the Story Post for the Hand" in out[0]
    out = t.act("alice", "bob: HAND#1 DICE52 DICE52")
    # Acting for another player's draw: the sentence that has each Seated Player comment.
    assert len(out) == 1 and "`not_player_action`" in out[0]
    assert "> Each Seated Player shall obtain a new Deck of Cards" in out[0]


def test_the_edit_note_names_a_rejected_first_reading_by_its_code(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    cid = t.p["bob"].say("HAND1 ROUND1 raise 10")  # not bob's turn: rejected
    t.run()
    t.forum.edit_comment(cid, "HAND1 ROUND1 folds", author="bob")
    t.run()
    notes = [b for b in t.new_dealer() if "edited a comment" in b]
    assert len(notes) == 1 and "the first reading stands (as a spoken action does): rejected (`not_your_turn`)." in notes[0]
    assert t.gndt()["bob"] == (95, "-", 5)  # the edit did not fold him


def test_two_different_actions_in_one_comment_are_rejected_once_and_change_nothing(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    out = t.act("alice", "HAND1 ROUND1 raise 10\n\nactually HAND1 ROUND1 folds")
    assert len(out) == 1 and "`ambiguous`" in out[0]
    assert '"HAND1 ROUND1 raise 10" and "HAND1 ROUND1 folds"' in out[0]
    assert t.gndt()["alice"] == (95, "x", 5)
    t.run()
    assert t.new_dealer() == []  # one reply, not one per poll
