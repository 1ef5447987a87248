"""What opens a hand's page (issue 25): the summary names the kicker where it decided, the
replayer's frames follow the hand step by step with street labels and show the hands face up
from the moment the betting closes at an all-in (Robert's rule 27) with exact chances, and the
folded hand is shown at the end, recomputed from the published secrets and marked so.

The records here are written by hand (a Robert's Rules hand with chosen cards); the chances
are recounted with eval7, the folded hand with the reference implementation of the dealing
(tests/kits/references/fair_dealing.py), the kickers against eval7's ordering."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import eval7
import pytest

from nomicpoker.core.fairness.frames import frames
from nomicpoker.core.fairness.money import replay
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.evaluator import evaluate5
from nomicpoker.core.words.hand_summary import why_it_won
from nomicpoker.shell.audit.site_replay import folded_hands, summary, verdict_line
from nomicpoker.shell.storage.rulesets import load_ruleset

from kits.references.fair_dealing import REF

DECK_SECRET = bytes(range(32))


def _step(n, player, event, chips=0, amount=None, cards=()):
    return {"n": n, "player": player, "event": event, "amount": amount, "cards": list(cards), "chips": chips,
            "comment_id": str(100 + n), "at": "", "cause": "", "words": ""}


def kicker_record() -> dict:
    """alice (5♠ A♥) and bob (5♦ K♥) all in on the turn; carol folded before the flop. Both
    make a pair of fives: alice's ace kicker wins."""
    actions = [
        _step(1, "alice", "post", 1), _step(2, "bob", "post", 2),
        _step(3, "carol", "fold"), _step(4, "alice", "call", 1), _step(5, "bob", "check"),
        _step(6, "alice", "check"), _step(7, "bob", "check"),
        _step(8, "alice", "all_in", 98), _step(9, "bob", "call", 98),
        _step(10, "alice", "reveal", cards=("5s", "Ah")), _step(11, "bob", "reveal", cards=("5d", "Kh")),
    ]
    return {
        "format": "nomicpoker-hand-record/1", "table": "T", "hand": 1, "ruleset": "roberts-nlhe",
        "seats": [{"player": p, "money": 100} for p in ("alice", "bob", "carol")], "button": "carol",
        "ante": 0, "blinds": [1, 2], "actions": actions, "board": ["5c", "9d", "Jc", "2h", "7s"],
        "reveals": [{"player": "alice", "comment_id": "110", "cards": ["5s", "Ah"]},
                    {"player": "bob", "comment_id": "111", "cards": ["5d", "Kh"]}],
        "secrets": {"deck": DECK_SECRET.hex(), "dice": "00" * 32, "decks": "00" * 32},
        "decks": [], "draws": [], "payouts": {"alice": 200}, "destroyed": 0,
    }


@pytest.fixture(scope="module")
def roberts():
    return load_ruleset("roberts-nlhe")


def test_the_summary_names_the_kicker_that_decided(roberts):
    record = kicker_record()
    result = replay(record, roberts).result
    s = summary(result, record, [{"status": "accepted"}] * 9 + [{"status": "rejected"}])
    (pot,) = s["pots"]
    (w,) = pot["winners"]
    assert (w["player"], w["name"], w["why"], w["against"]) == ("alice", "Pair of Fives", "ace kicker, over king", "bob")
    assert pot["amount"] == 200 and s["pot"] == 200
    assert [c["code"] for c in w["best"]] == ["5s", "5c", "Ah", "Jc", "9d"]
    assert s["verdicts"] == "10 comments: 9 accepted, 1 rejected."
    assert verdict_line([]) == "No comments."


def test_the_frames_label_each_street_and_turn_the_hands_up_when_the_betting_closes(roberts):
    fs = frames(kicker_record(), roberts)
    assert [(f.kind, f.street) for f in fs] == [
        ("start", "preflop"), ("action", "preflop"), ("action", "preflop"), ("action", "preflop"),
        ("board", "flop"), ("action", "flop"), ("action", "flop"), ("board", "turn"),
        ("action", "turn"), ("action", "turn"), ("board", "river"),
        ("reveal", "showdown"), ("reveal", "showdown"), ("end", "end")]
    stacks = [{s.name: s.stack for s in f.seats} for f in fs]
    assert stacks[0] == {"alice": 99, "bob": 98, "carol": 100}
    assert stacks[-1] == {"alice": 200, "bob": 0, "carol": 100}
    allin, call = fs[8], fs[9]
    assert all(not s.cards for s in allin.seats)  # bob may still fold: nothing is shown
    up = {s.name: (s.cards, s.how) for s in call.seats}
    assert up == {"alice": (("5s", "Ah"), "face up"), "bob": (("5d", "Kh"), "face up"), "carol": ((), "")}
    # the chances before the river, recounted with eval7 over the 44 unseen cards (carol's
    # folded hand counts as unseen, as a broadcast counts it)
    eq = call.equity
    assert eq is not None and eq.boards == 44 and eq.to_come == 1
    board = ["5c", "9d", "Jc", "2h"]
    seen = set(board) | {"5s", "Ah", "5d", "Kh"}
    wins, ties = Counter(), 0
    for river in (c for c in FULL_DECK if c not in seen):
        a = eval7.evaluate([eval7.Card(c) for c in ["5s", "Ah", *board, river]])
        b = eval7.evaluate([eval7.Card(c) for c in ["5d", "Kh", *board, river]])
        if a == b:
            ties += 1
        else:
            wins["alice" if a > b else "bob"] += 1
    (pot,) = eq.pots
    assert dict(pot.wins) == {"alice": wins["alice"], "bob": wins["bob"]}
    assert pot.ties["alice"] == pot.ties["bob"] == ties
    assert fs[10].equity is None  # the river is out: nothing to come


def test_the_folded_hand_is_shown_after_the_hand_recomputed_and_marked(roberts):
    record = kicker_record()
    dealt = REF["holes"](DECK_SECRET, 1, ["alice", "bob", "carol"])  # the reference dealing
    (carol,) = folded_hands(record, roberts, ["alice", "bob"])
    assert carol["player"] == "carol" and carol["how"] == "recomputed"
    assert [c["code"] for c in carol["hole"]] == list(dealt["carol"])
    end = {s.name: (s.cards, s.how) for s in frames(record, roberts)[-1].seats}
    assert end["carol"] == (tuple(dealt["carol"]), "recomputed")
    # while the hand runs (no secrets published) nothing is recomputed, and no hand is turned up
    running = {**record, "secrets": None, "payouts": None, "actions": record["actions"][:9]}
    assert folded_hands(running, roberts, []) == []
    assert all(not s.cards for f in frames(running, roberts) for s in f.seats)


def _same_name_pairs(n: int, seed: int):
    rng = random.Random(seed)
    found = 0
    while found < n:
        cards = rng.sample(list(FULL_DECK), 10)
        a, b = cards[:5], cards[5:]
        if evaluate5(a).name == evaluate5(b).name:
            found += 1
            yield a, b


def test_why_it_won_agrees_with_eval7_on_hands_of_the_same_name():
    """On random pairs of five-card hands with the same name: a kicker is named exactly when
    eval7 says one hand is better, it is a card of the better hand, and outranks the card
    the worse hand has in its place."""
    names = "23456789TJQKA"
    checked = 0
    for a, b in _same_name_pairs(400, 25):
        va, vb = (eval7.evaluate([eval7.Card(c) for c in h]) for h in (a, b))
        if va == vb:
            assert why_it_won(a, b) == why_it_won(b, a) == ""
            continue
        win, lose = (a, b) if va > vb else (b, a)
        said = why_it_won(win, lose)
        assert why_it_won(lose, win) == ""
        cat = evaluate5(win).name.split(",")[0]
        if cat.startswith(("Straight", "Full House", "Royal")):
            assert said == ""  # the name says it all
            continue
        assert said, (win, lose)
        mine, theirs = said.replace(" kicker", "").split(", over ")
        mine = mine.split()[-1]
        rank = {r: i for i, r in enumerate(names)}
        word = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
        assert rank[word[mine]] > rank[word[theirs]] and word[mine] in {c[0] for c in win}
        checked += 1
    assert checked > 100


def test_a_pair_of_fives_ace_kicker_over_king():
    assert why_it_won(["5s", "5c", "Ah", "Jc", "9c"], ["5d", "5h", "Kh", "Jd", "9d"]) == "ace kicker, over king"
    assert why_it_won(["Ks", "Kc", "5h", "5c", "9c"], ["Kd", "Kh", "5d", "5s", "8d"]) == "nine kicker, over eight"
    assert why_it_won(["Ah", "Kh", "Qh", "5h", "3h"], ["Ac", "Kc", "Jc", "5c", "3c"]) == "third card queen, over jack"
    assert why_it_won(["5s", "5c", "Ah", "Jc", "9c"], ["4d", "4h", "Kh", "Jd", "9d"]) == ""  # the name decided
