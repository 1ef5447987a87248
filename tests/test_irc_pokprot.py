"""pokprot on IRC as its players know it (issue 28), on a real ngIRCd (tests/_ircd.py) with
``serve``'s loop running (tests/_irc_kit.py). Fixed secrets "nlhe:1": alice J♥ K♥, bob 4♣ 5♠,
carol 10♥ 3♠; blinds 1/2 (bob the big blind), carol first to act.
"""

from __future__ import annotations

import pytest

from _ircd import ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)
from _irc_kit import IrcTable

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
