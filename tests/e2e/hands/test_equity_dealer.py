"""The Dealer's chances at an all-in (issue 25), through the real poll on the local forum with
fixed secrets. Under Robert's Rules the hands are face up once the betting closes (tournament
rule 27), so each street comment of the run-out gives the hands and each player's exact
chances, pot by pot with side pots; a folded hand is never shown, and no hole card is in any
published artefact before that moment. Under Dealing and Play the hands stay hidden until the
reveals: the street comments say nothing of them, and the payout comment recounts the chances
before each street once every card is public (own decks, one hole card required). Not at a
table that turned it off, and never in the replay of a ledger made before the setting existed.
Every figure is recounted here by brute force over the scalar evaluator, from the cards the
players hold and the board the committed secret gives (the reference implementation of
docs/fair-dealing.md)."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections import Counter
from itertools import combinations
from math import comb

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.core.poker.cards import FULL_DECK, pretty
from nomicpoker.core.poker.evaluator import best_hand, value7
from nomicpoker.shell.audit.audit import audit

from kits.tables.bot import Table
from _paths import FIXTURES
from kits.references.fair_dealing import REF

LINE = re.compile(r"^- (\S+?)(?: \(([^)]*)\))?: wins ([\d,]+) \([^)]*\)(?:, ties ([\d,]+))?", re.M)
FIXTURE = FIXTURES / "release-0.1.0"


def figures(paragraph: str) -> dict[str, tuple[int, int]]:
    """``player -> (wins, ties)`` from the lines of one pot."""
    return {m[1]: (int(m[3].replace(",", "")), int((m[4] or "0").replace(",", "")))
            for m in LINE.finditer(paragraph)}


def recount(holes, board, eligible, deck, min_hole):
    """Wins and ties of each eligible player over every completion of ``board``."""
    seen = set(board) | ({c for h in holes.values() for c in h} if deck == "shared" else set())
    rest = [c for c in FULL_DECK if c not in seen]
    wins, ties, n = Counter(), Counter(), 0
    for extra in combinations(rest, 5 - len(board)):
        n += 1
        full = tuple(board) + extra
        v = {p: (best_hand(holes[p], full, min_hole).value if min_hole else value7(holes[p] + full))
             for p in eligible}
        best = max(v.values())
        won = [p for p in eligible if v[p] == best]
        for p in won:
            (wins if len(won) == 1 else ties)[p] += 1
    return n, {p: (wins[p], ties[p]) for p in eligible}


def street_comment(bodies, street):
    return next(b for b in bodies if f"**{street}**" in b)


def test_an_all_in_under_dealing_and_play_is_recounted_in_the_payout_once_every_card_is_public(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), seed="chances")
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    t.act("carol", "HAND1 ROUND1 folds")
    t.act("alice", "HAND1 ROUND2 all in")
    out = t.act("bob", "HAND1 ROUND2 call")
    holes = {p: t.p[p].hole() for p in ("alice", "bob")}
    board = tuple(REF["board"](t.hands[1].deck, 1))
    # the rule shows hole cards only by the reveals: the run-out says nothing of the hands
    turn, river = street_comment(out, "Turn"), street_comment(out, "River")
    for text in out:
        assert "Chances" not in text and "chances" not in text
        for p, cards in holes.items():
            assert " ".join(map(pretty, cards)) not in text
    t.act("alice", f"HAND1 reveal {' '.join(holes['alice'])}")
    t.act("bob", f"HAND1 reveal {' '.join(holes['bob'])}")
    payout = t.dealer_bodies()[-1]
    assert "is over" in payout and "The all-in, recounted now that every card is public:" in payout
    turn_part = payout.split("Chances before the turn")[1].split("Chances before the river")[0]
    river_part = payout.split("Chances before the river")[1]
    assert turn_part.startswith(", over all 1,176 turns and rivers from the Dealer's 49 cards left")
    for p in holes:  # the hands as the players drew them from their own decks
        assert f"- {p} ({' '.join(map(pretty, holes[p]))}): wins" in turn_part
    n, expected = recount(holes, board[:3], list(holes), "per_player", 1)
    assert n == 1176 and figures(turn_part) == expected
    n, expected = recount(holes, board[:4], list(holes), "per_player", 1)
    assert river_part.startswith(", over all 48 rivers") and figures(river_part) == expected
    assert audit(t.engine, t.state) == (["T"], [])


def test_side_pots_under_roberts_rules_are_counted_pot_by_pot(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="eq")
    t.start(ante=0, blinds=(1, 2))  # hand 1 leaves alice 99, bob 141, carol 60
    for who, what in (("carol", "ROUND1 raise 40"), ("alice", "ROUND1 folds"), ("bob", "ROUND1 call"),
                      ("bob", "ROUND2 raise 20"), ("carol", "ROUND2 folds")):
        t.act(who, f"HAND1 {what}")
    assert t.money() == {"alice": 99, "bob": 141, "carol": 60}
    t.start(ante=0, blinds=(1, 2))
    holes = {p: tuple(REF["holes"](t.hands[2].deck, 2, ["bob", "carol", "alice"])[p]) for p in t.players}
    for who in ("alice", "bob"):
        t.act(who, "HAND2 ROUND1 all in")
    out = t.act("carol", "HAND2 ROUND1 call")
    board = tuple(REF["board"](t.hands[2].deck, 2))
    flop, turn = street_comment(out, "Flop"), street_comment(out, "Turn")
    hands = ", ".join(f"{p} {' '.join(map(pretty, c))}" for p, c in holes.items())
    for text, before in ((flop, "flop"), (turn, "turn")):
        assert f"Chances before the {before}, over all " in text and f"Hands: {hands}." in text
        # bob's uncalled 42 goes back to him: no pot of his alone
        main, side = text.split("Main pot 180 (alice, bob, carol):")[1].split("Side pot 1 78 (alice, bob):")
        assert set(figures(main)) == {"alice", "bob", "carol"} and set(figures(side)) == {"alice", "bob"}
    main, side = turn.split("Main pot 180 (alice, bob, carol):")[1].split("Side pot 1 78 (alice, bob):")
    n, expected = recount(holes, board[:3], ["alice", "bob", "carol"], "shared", 0)
    assert n == 903 and "over all 903 turns and rivers from the 43 unseen cards" in turn
    assert figures(main) == expected
    assert figures(side) == recount(holes, board[:3], ["alice", "bob"], "shared", 0)[1]
    assert audit(t.engine, t.state) == (["T"], [])


def roberts_holes(t: Table, hand: int, order) -> dict[str, tuple[str, ...]]:
    return {p: tuple(c) for p, c in REF["holes"](t.hands[hand].deck, hand, list(order)).items()}


def test_hands_are_public_from_the_moment_the_betting_closes_at_an_all_in_and_not_before(tmp_path):
    """Robert's rule 27 makes the hands still in public when the betting closes at an all-in:
    before that, no artefact holds a hole card (the leak scan of tests/e2e/record/test_public_record.py);
    after it, the street comments show those two hands, and still never the folded one."""
    from kits.tables.public_record import check_nothing_leaks, tabled

    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False, seed="tab")
    t.start(ante=0, blinds=(1, 2))  # carol has the button: alice posts 1, bob 2, carol acts first
    holes = roberts_holes(t, 1, ["alice", "bob", "carol"])
    t.act("carol", "HAND1 ROUND1 folds")
    t.act("alice", "HAND1 ROUND1 all in")
    assert tabled(t) == set()
    check_nothing_leaks(t, [], tmp_path / "before")  # bob may still fold: nothing is public
    out = t.act("bob", "HAND1 ROUND1 call")
    assert tabled(t) == {"alice", "bob"}
    flop = street_comment(out, "Flop")
    for p in ("alice", "bob"):
        assert f"{p} {' '.join(map(pretty, holes[p]))}" in flop or f"- {p} ({' '.join(map(pretty, holes[p]))})" in flop
    assert " ".join(map(pretty, holes["carol"])) not in "\n".join(t.dealer_bodies_all())
    check_nothing_leaks(t, [], tmp_path / "after")  # carol's hand and the secrets: still nowhere


def test_a_table_that_turns_chances_off_shows_none(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"reminders": 0, "equity": False}, seed="off")
    t.start(ante=0, blinds=(1, 2))
    first = next(p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x")
    other = next(p for p in t.players if p != first)
    t.act(first, "HAND1 ROUND1 all in")
    t.act(other, "HAND1 ROUND1 call")
    assert any("**River**" in b for b in t.dealer_bodies())
    assert not any("Chances" in b for b in t.dealer_bodies_all())


def all_in_round_one(t: Table, hand: int) -> None:
    """Whoever the turn notice names goes all in, until nobody is left to act."""
    for _ in range(len(t.players)):
        to_act = [p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x"]
        if not to_act:
            return
        t.act(to_act[0], f"HAND{hand} ROUND1 all in")


def test_table_set_turns_chances_off_from_then_on_and_the_replay_agrees(tmp_path):
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="set")  # created now: on
    res = CliRunner().invoke(app, ["table", "set", "--table", "T", "equity=no", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.start(ante=0, blinds=(1, 2))
    for who, what in (("alice", "all in"), ("bob", "all in"), ("carol", "folds")):
        t.act(who, f"HAND1 ROUND1 {what}")
    assert sum("**River**" in b for b in t.dealer_bodies()) == 1
    assert not any("Chances" in b for b in t.dealer_bodies_all())
    holes = roberts_holes(t, 1, ["alice", "bob", "carol"])
    for p in ("alice", "bob"):
        t.act(p, f"HAND1 reveal {' '.join(holes[p])}")
    res = CliRunner().invoke(app, ["table", "set", "--table", "T", "equity=yes", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.start(ante=0, blinds=(1, 2))
    all_in_round_one(t, 2)
    live = [p for p, (_m, turn, _pot) in t.gndt().items() if turn != "o"]
    boards = f"{comb(52 - 2 * len(live), 5):,}"
    assert sum(f"Chances before the flop, over all {boards} boards" in b for b in t.dealer_bodies_all()) == 1
    assert audit(t.engine, t.state) == (["T"], [])


def test_a_ledger_from_before_the_setting_replays_its_all_in_word_for_word(tmp_path):
    """The 0.1.0 demo ledger ends with an all-in on the flop. Its table was made before the
    equity setting existed, so its replay gives no chances: audit finds only the two rows a
    later release words differently (the not_your_turn reply, docs/ledger.md), none of the
    run-out's street comments."""
    st = tmp_path / "state"
    st.mkdir()
    for name in ("ledger.db", "forum.db"):
        shutil.copy(FIXTURE / name, st / name)
    run = lambda *a: CliRunner().invoke(app, [*a, "--state", str(st)])  # noqa: E731
    assert run("db", "upgrade").exit_code == 0
    with sqlite3.connect(st / "ledger.db") as db:  # the run-out, as 0.1.0 posted it
        streets = [b for (b,) in db.execute("SELECT body FROM np_outbox WHERE body LIKE '%**Turn**%' "
                                            "OR body LIKE '%**River**%'")]
    assert len(streets) == 2 and all("Nobody can bet" in b for b in streets)
    res = run("audit")
    lines = [ln for ln in res.output.splitlines() if ln.startswith("demo: ")]
    assert [ln.split(":")[1].strip() for ln in lines] == ["verdict seq 66", "outbox seq 67"], res.output
    assert all("wording only" in ln and "Chances" not in ln for ln in lines)
