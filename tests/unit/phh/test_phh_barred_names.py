"""A barred show's PHH export (issue 24) with player names TOML must quote or escape (an
apostrophe, double quotes, a backslash, non-ASCII letters): the file is valid TOML, and
``tomllib``, our reader and PokerKit read the barred players and the pot's winner back as the
ledger has them (the aces, kings and queens are barred; the threes present win the main pot)."""

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
NAMES = {"p": "o'neil", "a": 'say "hi"', "b": "José Ñ", "c": "back\\slash"}
HOLES = {"p": ("3c", "3d"), "a": ("As", "Ah"), "b": ("Ks", "Kh"), "c": ("Qs", "Qh")}


def _record() -> dict:
    n = NAMES
    start = start_hand(RR, 1, [(n["p"], 10), (n["a"], 30), (n["b"], 60), (n["c"], 100)], n["c"], blinds=(5, 10))
    h, actions = start, forced_bets(start)
    for ev in (AllIn(n["b"]), Call(n["c"]), AllIn(n["p"]), AllIn(n["a"]), DealBoard(BOARD[:3]), DealBoard(BOARD[3:4]),
               DealBoard(BOARD[4:]), *(Reveal(n[q], HOLES[q], barred=q != "p") for q in ("a", "b", "c", "p"))):
        before = h
        h = play(h, ev)
        actions += steps(h, len(before.log), {s.name: s.total_bet for s in before.seats})
    return {"hand": 1, "table": "spring-t1", "ruleset": "roberts-nlhe",
            "seats": [{"player": s.name, "money": s.money + s.total_bet} for s in start.seats], "button": n["c"],
            "ante": 0, "blinds": [5, 10], "actions": actions, "board": list(BOARD),
            "reveals": [{"player": n[q], "cards": list(HOLES[q])} for q in ("a", "b", "c", "p")],
            "payouts": dict(h.result.payouts), "destroyed": 0}


def test_a_barred_show_with_names_toml_must_quote_reads_back_everywhere():
    text = write_phh(export_phh(_record(), RR))
    doc = tomllib.loads(text)
    assert doc["_nomicpoker_barred"] == [NAMES["a"], NAMES["b"], NAMES["c"]]
    assert doc["_nomicpoker_pots"][0]["winners"] == [NAMES["p"]]
    assert parse_phh(text).get("_nomicpoker_barred") == (NAMES["a"], NAMES["b"], NAMES["c"])
    pokerkit = pytest.importorskip("pokerkit")
    hh = pokerkit.HandHistory.loads(text)
    assert hh.user_defined_fields["_nomicpoker_barred"] == [NAMES["a"], NAMES["b"], NAMES["c"]]
