"""WRGPT's timeout rule (issue 22): "If you miss your deadline you will be put on vacation and a
$0 bet will be entered for you." A player whose deadline passed is on vacation at once: at
each later turn, in this hand and the next ones, the dealer checks or folds for him without
waiting for a new deadline, until he comments ``BACK`` or an action of his is accepted. The
notice quotes the sentence. In the pure table fold: roberts-nlhe, blinds 1/2, alice, bob and
carol (button carol: alice small blind, bob big blind, carol first to act)."""

from __future__ import annotations

import hashlib

from nomicpoker.core.words.days_notices import TIMEOUT_RULE
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import DealerEvent, HandStart, Revision, TableConfig
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
CFG = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False,
                  settings=TableSettings(deadline_hours=4, reminders=0, max_timeouts=5))
START = HandStart(1, "1", "carol", 0, (1, 2), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def fold(steps):
    """``steps``: (author, body) comments, or ("TIMEOUT", player) for a passed deadline."""
    revs, events = [], []
    for who, what in steps:
        if who == "TIMEOUT":
            events.append(DealerEvent(len(revs), 1, "timeout", what, f"2026-01-01T{len(revs) + 5:02d}:00:00+00:00"))
        else:
            n = len(revs) + 1
            revs.append(Revision(n, "1", str(n), 1, who, f"2026-01-01T{n + 5:02d}:30:00+00:00", what))
    return fold_table(CFG, [START], revs, events)


def comments(r) -> list[str]:
    return [o["body"] for o in r.rows["outbox"] if o["kind"] == "comment"]


def to_act(r) -> str | None:
    h = r.state.current
    return h.hand.seats[h.hand.to_act].name if h.hand.to_act is not None else None


PRE = [("carol", "call"), ("alice", "call"), ("bob", "check")]  # the flop; alice first


def test_a_timed_out_player_is_on_vacation_at_once_for_the_rest_of_the_hand():
    # the flop: alice and bob check, carol's deadline passes: she checks (a $0 bet)
    r = fold(PRE + [("alice", "check"), ("bob", "check"), ("TIMEOUT", "carol")])
    note = next(b for b in comments(r) if "deadline passed" in b)
    assert TIMEOUT_RULE in note and "carol is AWOL until they act (1 of 5 timeouts in a row before sitting out): on vacation" in note
    assert len(r.state.current.hand.board) == 4  # the turn is out
    # the turn: alice bets, bob calls; carol is not given a new deadline: she folds at once
    r = fold(PRE + [("alice", "check"), ("bob", "check"), ("TIMEOUT", "carol"),
                    ("alice", "raise 4"), ("bob", "call")])
    assert r.state.current.hand.seat("carol").folded
    assert any(b.startswith("bob calls. carol is away: the dealer folds for them.") for b in comments(r))
    assert r.state.days.away("carol")


def test_back_or_an_accepted_action_ends_it():
    base = PRE + [("alice", "check"), ("bob", "check"), ("TIMEOUT", "carol")]
    # carol comes back before the turn reaches her: she plays her own turn
    r = fold(base + [("carol", "BACK"), ("alice", "check"), ("bob", "check")])
    assert to_act(r) == "carol" and not r.state.days.away("carol")
    # an action of hers accepted (an advance action) ends it too
    r = fold(base + [("carol", "CALL $50"), ("alice", "raise 4"), ("bob", "call")])
    seat = r.state.current.hand.seat("carol")
    assert not seat.folded and seat.total_bet == 2 + 4  # her advance call fired
    assert not r.state.days.away("carol")


def test_a_timeout_facing_a_bet_folds_and_the_next_turn_is_not_awaited():
    # pre-flop: carol's deadline passes facing the big blind: she folds; nothing more to do
    # in this hand, but she stays AWOL (on vacation) for the next hands until BACK
    r = fold([("TIMEOUT", "carol")])
    assert r.state.current.hand.seat("carol").folded
    assert "carol" in r.state.days.awol and r.state.days.away("carol")
