"""WRGPT's vacation at a tournament's table (issue 24; seed ``000_…``), in the pure table fold:
a table made by ``tournament start`` (``TableSettings.wrgpt_vacation``) against one made
otherwise, with the same comments. roberts-nlhe, ante 1 and blinds 1/2, alice, bob and carol
(button carol: alice small blind, bob big blind, carol first to act before the flop).

The manual's sentences, each quoted by the test that pins it:

- "While you are on vacation, the dealer will post antes and blinds for you as necessary. When
  the action gets to you you will bet $0 at all times, ie. check or fold."
- "You may infer correctly from the above, that sticky actions take precedence over vacations."
- "You cannot win a contested hand while on vacation. Exception: you can win the hand during
  which you go on vacation." Contested: a player still in the hand at the showdown is not away
  (:func:`nomicpoker.core.fold.over_days.contested`); a showdown only players away reach is
  decided by their cards.
- "If you miss your deadline you will be put on vacation and a $0 bet will be entered for you.
  In future hands your status line will show "AWOL"." and "GONE RESIGN ... will be treated as a
  special sort of vacation": no AWOL player is sat out for his timeouts at a tournament's table.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import DealerEvent, HandStart, Revision, TableConfig
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.core.words.days_notices import TIMEOUT_RULE
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
SETTINGS = TableSettings(deadline_hours=4, reminders=0, max_timeouts=2)
ORDINARY = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "roberts-nlhe", issue_decks=False, settings=SETTINGS)
TOURNAMENT = replace(ORDINARY, settings=replace(SETTINGS, tournament="spring", wrgpt_vacation=True))


def start(number: int, after: int, money=(100, 100, 100)) -> HandStart:
    return HandStart(number, str(number), "carol", 1, (1, 2), tuple(zip(PLAYERS, money)), after,
                     f"2026-01-0{number}T00:00:00+00:00", SECRETS.commitments(), SECRETS, RULES)


def fold(config: TableConfig, hands, steps):
    """``hands``: (number, money) of each hand, started after the comments before its first
    step; ``steps``: (hand, author, body), or (hand, "TIMEOUT", player) for a passed deadline."""
    revs, events, starts = [], [], []
    for number, money in hands:
        first = next(i for i, s in enumerate(steps) if s[0] == number) if any(s[0] == number for s in steps) \
            else len(steps)
        starts.append(start(number, sum(1 for s in steps[:first] if s[1] != "TIMEOUT"), money))
    for number, who, what in steps:
        day = f"2026-01-0{number}"
        if who == "TIMEOUT":
            events.append(DealerEvent(len(revs), number, "timeout", what, f"{day}T{len(revs) % 18 + 5:02d}:00:00+00:00"))
        else:
            n = len(revs) + 1
            revs.append(Revision(n, str(number), str(n), 1, who, f"{day}T{n % 18 + 5:02d}:30:00+00:00", what))
    return fold_table(config, starts, revs, events)


def comments(r) -> list[str]:
    return [o["body"] for o in r.rows["outbox"] if o["kind"] == "comment"]


def seat(r, number: int, name: str):
    return r.state.hands[number].hand.seat(name)


def test_the_dealer_posts_antes_and_blinds_and_bets_0_check_or_fold():
    """"While you are on vacation, the dealer will post antes and blinds for you as necessary.
    When the action gets to you you will bet $0 at all times, ie. check or fold." bob goes on
    vacation before hand 2, in which he is the big blind: his ante and blind are posted, his
    option is checked, and facing a bet on the flop he is folded."""
    steps = [(1, "bob", "GONE 13 Sep"), (1, "carol", "fold"), (1, "alice", "fold"),
             (2, "carol", "call"), (2, "alice", "call")]
    r = fold(TOURNAMENT, [(1, (100, 100, 100)), (2, (99, 102, 99))], steps)
    bob = seat(r, 2, "bob")
    assert (bob.total_bet, bob.folded) == (1 + 2, False)  # the ante and the big blind, then a $0 check
    assert any("bob is away: the dealer checks for them" in b for b in comments(r))
    r = fold(TOURNAMENT, [(1, (100, 100, 100)), (2, (99, 102, 99))], steps + [(2, "alice", "raise 4")])
    bob = seat(r, 2, "bob")
    assert bob.folded and bob.total_bet == 3  # facing a bet: folded, not a chip more
    assert r.state.days.away("bob")


def test_a_sticky_action_takes_precedence_over_the_vacation():
    """"You may infer correctly from the above, that sticky actions take precedence over
    vacations." bob, on vacation, left ``CALL/S *``: facing carol's raise he calls."""
    steps = [(1, "bob", "GONE 13 Sep"), (1, "bob", "CALL/S *"), (1, "carol", "raise 6"), (1, "alice", "fold")]
    r = fold(TOURNAMENT, [(1, (100, 100, 100))], steps)
    bob = seat(r, 1, "bob")
    assert not bob.folded and bob.total_bet == 1 + 6


def _checked_down(gone_in: int, config: TableConfig = TOURNAMENT, gone: str = "GONE 13 Sep"):
    """Hand 2 checked down to the showdown between carol (present) and bob, who went on
    vacation during hand ``gone_in``; alice folds on the flop. Then carol shows her cards."""
    steps = [(1, "carol", "fold"), (1, "alice", "fold")]
    steps += [(2, "bob", gone)] if gone_in == 2 else []
    steps = ([(1, "bob", gone)] if gone_in == 1 else []) + steps
    steps += [(2, "carol", "call"), (2, "alice", "call")]
    steps += [(2, "alice", "fold"), (2, "carol", "check"), (2, "carol", "check"), (2, "carol", "check")]
    hands = [(1, (100, 100, 100)), (2, (99, 102, 99))]
    r = fold(config, hands, steps)
    h = r.state.hands[2]
    assert len(h.hand.board) == 5, comments(r)[-3:]
    cards = " ".join(h.holes["carol"])
    return fold(config, hands, steps + [(2, "carol", f"HAND2 reveal {cards}")])


def test_a_player_away_cannot_win_a_contested_hand():
    """"You cannot win a contested hand while on vacation." bob went in hand 1; hand 2 reaches
    a showdown against carol, who is here: bob's cards are not shown, he mucks and carol takes
    the pot whatever the cards."""
    r = _checked_down(gone_in=1)
    h = r.state.hands[2]
    assert h.hand.seat("bob").mucked
    assert h.hand.result is not None
    assert all(a.winners == ("carol",) for a in h.hand.result.awards)
    assert any(b.startswith("bob is away: the dealer mucks for them.") for b in comments(r))


def test_exception_the_hand_during_which_he_goes_on_vacation():
    """"Exception: you can win the hand during which you go on vacation." bob goes during hand
    2 itself: at its showdown the dealer shows his cards, and they are compared with carol's."""
    r = _checked_down(gone_in=2)
    h = r.state.hands[2]
    bob = h.hand.seat("bob")
    assert not bob.mucked and bob.revealed == tuple(h.holes["bob"])
    assert any(f"shows {' '.join(h.holes['bob'])}" in b for b in comments(r))


def _all_away(config: TableConfig):
    """Hand 2: alice (1 chip, all in on her small blind) and bob (big blind) both went on
    vacation in hand 1; carol, here, folds before the flop. Nobody present reaches the showdown."""
    steps = [(1, "alice", "GONE 13 Sep"), (1, "bob", "GONE 13 Sep"), (1, "carol", "raise 10"), (2, "carol", "fold")]
    return fold(config, [(1, (100, 100, 100)), (2, (2, 199, 99))], steps)


def test_a_showdown_only_players_away_reach_is_not_contested():
    """The contested hand, read at a tournament's table: alice and bob, both away, reach the
    showdown alone. It is contested by nobody here, so nobody present was denied: the dealer
    shows both hands and the cards decide. (At a table of its own both muck, as before: the
    last to concede keeps the pot.)"""
    r = _all_away(TOURNAMENT)
    h = r.state.hands[2]
    alice, bob = h.hand.seat("alice"), h.hand.seat("bob")
    assert alice.revealed == tuple(h.holes["alice"]) and bob.revealed == tuple(h.holes["bob"])
    assert not alice.mucked and not bob.mucked
    plain = _all_away(ORDINARY).state.hands[2].hand
    assert plain.seat("alice").mucked and plain.seat("bob").mucked


def test_an_awol_player_is_never_sat_out_at_a_tournament_table():
    """"If you miss your deadline you will be put on vacation and a $0 bet will be entered for
    you. In future hands your status line will show "AWOL"." At a tournament's table the count
    of timeouts never sits him out (WRGPT deals him in, blinds and all, until the director
    removes him); at a table of its own he sits out after ``max_timeouts`` (2 here)."""
    steps = [(1, "TIMEOUT", "carol"), (1, "alice", "fold")]  # carol folded; bob wins
    steps += [(2, "alice", "call"), (2, "bob", "check")]  # carol (AWOL) folded at once: her 2nd
    hands = [(1, (100, 100, 100)), (2, (99, 103, 98))]
    r = fold(TOURNAMENT, hands, steps)
    days = r.state.days
    assert "carol" in days.awol and "carol" not in days.sitting_out
    assert days.markers()[1]["carol"] == "AWOL"
    said = "\n".join(comments(r))
    assert TIMEOUT_RULE in said
    assert "carol is AWOL (2 timeouts in a row): on vacation, dealt in with antes and blinds posted" in said
    assert "the tournament director may remove them from the tournament" in said
    plain = fold(ORDINARY, hands, steps).state.days
    assert plain.sitting_out == {"carol": "timeouts"}


def test_a_resignation_is_a_special_sort_of_vacation():
    """"If for some reason you must resign from (quit) the game, send the following command:
    GONE RESIGN. This will be treated as a special sort of vacation with no limits on the
    number of hands that can be played per day. You cannot come BACK after resigning from the
    game." bob resigns in hand 1: in hand 2 he is dealt in as the big blind, checked for, and
    mucks at a showdown carol contests; his BACK is refused. (The hand limit that does not
    protect him is the shell's: tests/e2e/tournament/test_tournament_vacation.py.)"""
    r = _checked_down(gone_in=1, gone="GONE RESIGN")
    h = r.state.hands[2]
    assert "bob" in r.state.days.resigned and h.hand.seat("bob").total_bet == 1 + 2
    assert h.hand.seat("bob").mucked
    assert all(a.winners == ("carol",) for a in h.hand.result.awards)
    steps = [(1, "bob", "GONE RESIGN"), (1, "bob", "BACK")]
    back = fold(TOURNAMENT, [(1, (100, 100, 100))], steps)
    assert back.state.days.away("bob")
    assert any(v["status"] == "rejected" and v["code"] == "resigned" for v in back.rows["verdict"])


def test_a_player_who_goes_during_the_hand_contests_it():
    """"You cannot win a contested hand while on vacation. Exception: you can win the hand
    during which you go on vacation." alice went in hand 1; in hand 2 (all in on her small
    blind) she meets bob, who goes on vacation during hand 2 itself, before carol folds. bob
    may win hand 2, so he contests it: alice cannot win it and mucks; bob's cards are shown
    and he takes the pot. (The old code read the showdown as reached by players away only and
    let the cards decide: alice's trip fours beat bob's two pair.)"""
    steps = [(1, "alice", "GONE 13 Sep"), (1, "carol", "raise 10"), (1, "bob", "fold"),
             (2, "bob", "GONE 13 Sep"), (2, "carol", "fold")]
    r = fold(TOURNAMENT, [(1, (100, 100, 100)), (2, (2, 199, 99))], steps)
    h = r.state.hands[2]
    assert h.hand.result is not None, comments(r)[-3:]
    assert h.hand.seat("alice").mucked and h.hand.seat("bob").revealed == tuple(h.holes["bob"])
    assert all(a.winners == ("bob",) for a in h.hand.result.awards)


def _side_pot_of_the_away(config: TableConfig):
    """Hand 2: carol (here) has 1 chip, all in on her ante; alice, away since hand 1, has 2,
    all in on her ante and small blind; bob, away since hand 1, posts his ante and big blind.
    Nobody can bet: the board runs out. The main pot (1 from each, 3) has carol in it; the side
    pot (alice's second chip and bob's, 2) only alice and bob, both away; bob's third chip is
    uncalled. carol shows her cards."""
    steps = [(1, "alice", "GONE 13 Sep"), (1, "bob", "GONE 13 Sep"), (1, "carol", "fold")]
    hands = [(1, (100, 100, 100)), (2, (2, 297, 1))]
    r = fold(config, hands, steps)
    h = r.state.hands[2]
    assert len(h.hand.board) == 5, comments(r)[-3:]
    return fold(config, hands, steps + [(2, "carol", f"HAND2 reveal {' '.join(h.holes['carol'])}")])


def _best(hole, board) -> int:
    """The rank of a hand by treys (an independent evaluator: lower is better)."""
    from treys import Card, Evaluator

    return Evaluator().evaluate([Card.new(c) for c in board], [Card.new(c) for c in hole])


def test_a_side_pot_only_players_away_contest_goes_by_their_cards():
    """"You cannot win a contested hand while on vacation." read per pot: the main pot, which
    carol (here) contests, is hers whatever the cards; the side pot, which only alice and bob
    (both away) reach, is contested by nobody present, so their cards decide it (the dealer
    shows them: he dealt them), as a showdown only players away reach. (The old code mucked
    both, carol kept the main pot and the last of them to concede, bob, the side pot.) At a
    table of its own both still muck, as before."""
    r = _side_pot_of_the_away(TOURNAMENT)
    h = r.state.hands[2]
    alice, bob = h.hand.seat("alice"), h.hand.seat("bob")
    assert alice.revealed == tuple(h.holes["alice"]) and bob.revealed == tuple(h.holes["bob"])
    main, side = h.hand.result.awards
    assert (main.amount, main.winners) == (3, ("carol",))
    ranks = {p: _best(h.holes[p], h.hand.board) for p in ("alice", "bob")}
    best = min(ranks.values())
    assert side.amount == 2 and set(side.winners) == {p for p, v in ranks.items() if v == best}
    said = "\n".join(comments(r))
    assert "alice cannot win a pot a player present contests" in said
    plain = _side_pot_of_the_away(ORDINARY).state.hands[2].hand
    assert plain.seat("alice").mucked and plain.seat("bob").mucked
    assert [a.winners for a in plain.result.awards] == [("carol",), ("bob",)]  # the last to concede
