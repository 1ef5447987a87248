"""A hand with a *barred* show exported as PHH (issue 24): the dealer showed the cards of players
away at a tournament's table (``reveal_away``: "You cannot win a contested hand while on
vacation", WRGPT, seed ``000_…``), so their cards win only the side pots no player present
contests. PHH has no barred show: written as any show, PokerKit pays every pot to the best
cards. The export must not mislead an outside reader: it says the hand is not exact and why,
names the barred players (``_nomicpoker_barred``, a user-defined field as the PHH
specification allows: an underscore prefix) and gives the pots and ``winnings`` as the ledger
paid them. Read back by PokerKit (an independent parser and engine).

The hand of tests/unit/poker/test_showdown_barred.py, worked by hand there: roberts-nlhe, blinds
5/10, button ``c``; ``p`` 10 chips, ``a`` 30, ``b`` 60, ``c`` 100; ``b`` all in, ``c`` calls,
``p`` and ``a`` all in; board 2c 7d 9h Jc 4s; p 3c 3d, a As Ah, b Ks Kh, c Qs Qh. ``p`` is
present; ``a``, ``b`` and ``c`` are away and shown with the bar. The main pot (40: p, a, b, c)
is p's, whatever the cards; side pot 1 (60: a, b, c) goes to a's aces, side pot 2 (60: b, c)
to b's kings: p 40, a 60, b 60, c 40. By the cards alone a's aces take the main pot too: p 0,
a 100, b 60, c 40."""

from __future__ import annotations

import tomllib

import pytest

from kits.references.engine import RR, play
from nomicpoker.core.phh.export import export_phh
from nomicpoker.core.phh.phh import parse_phh, write_phh
from nomicpoker.core.poker.actions import AllIn, Call, DealBoard, Reveal
from nomicpoker.core.poker.engine import start_hand
from nomicpoker.core.words.hand_log import forced_bets, steps

BOARD = ("2c", "7d", "9h", "Jc", "4s")
HOLES = {"p": ("3c", "3d"), "a": ("As", "Ah"), "b": ("Ks", "Kh"), "c": ("Qs", "Qh")}
LEDGER = {"p": 40, "a": 60, "b": 60, "c": 40}  # worked by hand (module docstring)
BY_THE_CARDS = {"p": 0, "a": 100, "b": 60, "c": 40}


def _record(away: str = "abc") -> dict:
    """The hand's public record, its steps logged one event at a time as the fold logs them;
    the players of ``away`` shown with the bar."""
    start = start_hand(RR, 1, [("p", 10), ("a", 30), ("b", 60), ("c", 100)], "c", blinds=(5, 10))
    h, actions = start, forced_bets(start)
    for ev in (AllIn("b"), Call("c"), AllIn("p"), AllIn("a"), DealBoard(BOARD[:3]), DealBoard(BOARD[3:4]),
               DealBoard(BOARD[4:]), *(Reveal(q, HOLES[q], barred=q in away) for q in ("a", "b", "c", "p"))):
        before = h
        h = play(h, ev)
        actions += steps(h, len(before.log), {s.name: s.total_bet for s in before.seats})
    return {"hand": 1, "table": "spring-t1", "ruleset": "roberts-nlhe",
            "seats": [{"player": s.name, "money": s.money + s.total_bet} for s in start.seats], "button": "c",
            "ante": 0, "blinds": [5, 10], "actions": actions, "board": list(BOARD),
            "reveals": [{"player": q, "cards": list(HOLES[q])} for q in ("a", "b", "c", "p")],
            "payouts": dict(h.result.payouts), "destroyed": 0}


def test_a_barred_show_is_exported_as_not_exact_with_the_ledgers_pots_and_winnings():
    text = write_phh(export_phh(_record(), RR))
    doc = tomllib.loads(text)
    names = doc["players"]
    assert names == ["p", "a", "b", "c"]  # from the first seat after the button
    assert dict(zip(names, doc["finishing_stacks"])) == LEDGER
    assert dict(zip(names, doc["winnings"])) == {"p": 40, "a": 60, "b": 60, "c": 0}
    assert doc["_nomicpoker_exact"] is False
    assert doc["_nomicpoker_barred"] == ["a", "b", "c"]
    [why] = doc["_nomicpoker_not_expressed"]
    assert why.startswith("a, b, c away at a tournament's table") and "_nomicpoker_pots" in why
    assert doc["_nomicpoker_pots"] == [{"amount": 40, "players": ["p", "a", "b", "c"], "winners": ["p"]},
                                       {"amount": 60, "players": ["a", "b", "c"], "winners": ["a"]},
                                       {"amount": 60, "players": ["b", "c"], "winners": ["b"]}]
    assert "p2 sm AsAh" in doc["actions"]  # the shows stay: they decide the side pots
    again = parse_phh(text)  # our own reader reads what it wrote
    assert again.get("_nomicpoker_barred") == ("a", "b", "c") and again.finishing_stacks == tuple(LEDGER.values())


def test_pokerkit_reads_the_file_and_the_fields_say_where_its_replay_departs():
    """PokerKit parses the file, keeps our fields as user-defined ones and replays it; its
    replay pays by the cards alone (the main pot to a's aces), which the file's own fields
    flag: not exact, the barred players, the ledger's winnings and finishing stacks."""
    pokerkit = pytest.importorskip("pokerkit")
    text = write_phh(export_phh(_record(), RR))
    hh = pokerkit.HandHistory.loads(text)
    *_, last = iter(hh)
    assert dict(zip(hh.players, last.stacks)) == BY_THE_CARDS != LEDGER
    assert dict(zip(hh.players, hh.finishing_stacks)) == LEDGER
    assert list(hh.winnings) == [40, 60, 60, 0]
    assert hh.user_defined_fields["_nomicpoker_barred"] == ["a", "b", "c"]
    assert hh.user_defined_fields["_nomicpoker_exact"] is False


def test_without_a_bar_the_export_is_exact_and_pokerkit_replays_the_ledger():
    pokerkit = pytest.importorskip("pokerkit")
    text = write_phh(export_phh(_record(away=""), RR))
    doc = tomllib.loads(text)
    assert doc["_nomicpoker_exact"] is True
    assert not {"winnings", "_nomicpoker_barred", "_nomicpoker_pots", "_nomicpoker_not_expressed"} & set(doc)
    hh = pokerkit.HandHistory.loads(text)
    *_, last = iter(hh)
    assert dict(zip(hh.players, last.stacks)) == dict(zip(hh.players, hh.finishing_stacks)) == BY_THE_CARDS
