"""Advance actions with /R (reveal on fold) and vacations, as WRGPT's manual says (issue 14):

- "/R ... always takes effect even if the first IF arm is not the one actually selected" and
  "An UNDO command will erase the intent to reveal your hand": a folded hand asked for with /R
  is shown when the hand ends, with the cards the player was dealt (read from his own inbox);
- "sticky actions take precedence over vacations. Unless of course your sticky action
  translates into an insufficient bet (possible with MAKE or RAISE), in which case you will
  be folded."
"""

from __future__ import annotations

import re

from kits.tables.bot import Table
from kits.tables.game import _to_act, advance_table, order_from_turn
from nomicpoker.shell.audit.audit import audit


def _dealt(t: Table, who: str) -> str:
    """The hole cards as the player read them in his inbox (e.g. "7h 2s")."""
    for m in t.forum.inbox(who):
        if m.subject.startswith("Your hole cards"):
            return re.search(r"\(([2-9TJQKA][cdhs] [2-9TJQKA][cdhs])\)", m.body).group(1)
    raise AssertionError(f"no hole cards for {who}")


def _pretty(cards: str) -> str:
    sym = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    return " ".join(("10" if c[0] == "T" else c[0]) + sym[c[1]] for c in cards.split())


def test_fold_r_shows_the_folded_hand_when_the_hand_ends(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    said = t.act(second, "IF/B>=100 CALL * ELSE FOLD/R")  # /R on the ELSE: promoted anyway
    assert any("shown when the hand ends" in b for b in said), said
    said = t.act(first, "raise 6")
    assert any(f"{second} (advance action): folds" in b for b in said), said
    assert not any(_pretty(_dealt(t, second)) in b for b in said)  # not before the end
    said = t.act(third, "fold")
    shown = [b for b in said if "asked for their cards to be shown (/R)" in b]
    assert shown and _pretty(_dealt(t, second)) in shown[0] and "(folded)" in shown[0], said
    assert audit(t.engine, t.state)[1] == []


def test_undo_erases_the_intent_to_reveal(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    t.act(second, "CALL/R $1000")
    said = t.act(second, "UNDO")
    assert any("will not be shown" in b for b in said), said
    t.act(first, "raise 6")
    t.act(second, "fold")
    said = t.act(third, "fold")
    assert not any("(/R)" in b for b in said), said


def test_a_sticky_action_takes_precedence_over_a_vacation(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    t.act(second, "CALL/S *")
    t.act(second, "GONE 13 Sep")
    said = t.act(first, "raise 6")
    # on vacation the dealer would fold him facing a raise; his sticky call acts instead
    assert any(f"{second} (advance action): calls" in b for b in said), said
    assert not any(f"{second} is away" in b or "away and folds" in b for b in said)
    assert audit(t.engine, t.state)[1] == []


def test_an_insufficient_sticky_make_on_vacation_folds(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    # MAKE $3 (a round total of 3) is short of a call of 6
    t.act(second, "MAKE/S $3")
    t.act(second, "GONE back monday")
    said = t.act(first, "raise 6")
    fired = [b for b in said if f"{second} (advance action): folds" in b]
    assert fired and "on vacation" in fired[0] and "MAKE" in fired[0], said
    assert t.gndt()[second][1] == "o"  # folded
    assert audit(t.engine, t.state)[1] == []


def test_an_insufficient_sticky_make_not_on_vacation_leaves_the_turn(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    t.act(second, "MAKE/S $3")
    said = t.act(first, "raise 6")
    assert not any("(advance action)" in b for b in said), said
    assert _to_act(t) == second
    assert any("did not act" in m.body for m in t.forum.inbox(second))
