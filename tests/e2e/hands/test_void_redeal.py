"""``hand void`` keeps the button for the redeal (issue 22): Robert's Rules treat a misdeal as
redealt, "The dealer will retrieve the card, reshuffle, and recut the cards", so the hand
that replaces a voided one has the same button; after a hand played out it moves as before."""

from __future__ import annotations

from nomicpoker.shell.dealer.controls import control

from kits.tables.bot import Table


def test_the_hand_after_a_void_keeps_the_button_and_a_played_hand_moves_it(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False)
    first = t.start(ante=0, blinds=(1, 2))
    assert first.button == "carol"
    done = control(t.engine, t.state, t.name, "void", "misdeal")
    assert not done.report.error
    redeal = t.start(ante=0, blinds=(1, 2))
    assert redeal.button == "carol"  # the redeal: same button
    control(t.engine, t.state, t.name, "void", "again")
    assert t.start(ante=0, blinds=(1, 2)).button == "carol"
    for _ in range(2):  # this one is played out: two fold, the third takes the blinds
        to_act = next(p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x")
        t.act(to_act, "fold")
    assert t.start(ante=0, blinds=(1, 2)).button == "alice"  # the button moves on as usual
