"""Dealer comments, continued: the WRGPT-style status table, GNDT rows while a hand runs, and
whole hands played by the real engine rendered end to end (every form a notice offers must be
read back by the grammar as that action)."""

from __future__ import annotations

import dataclasses
import re

from nomicpoker.core.poker.engine import Hand, LegalActions, PotAward, Result, Seat, ShownHand
from nomicpoker.core.words.render import (
    TableView,
    call_for_reveals,
    dice_rolled,
    draw_accepted,
    edit_noted,
    find_tag,
    gndt_rows,
    hand_start,
    payout,
    rejection,
    side_pots,
    status_table,
    street,
    turn_notice,
)

from kits.references.render import (
    D_AND_P, NLHE, TABLE, flop_hand, fresh_hand, settled_hand,
)


# --------------------------------------------------------------------------- status table


def table_lines(body: str) -> list[str]:
    block = body.split("```\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


def bar_columns(line: str) -> list[int]:
    return [i for i, ch in enumerate(line) if ch in "|+"]


def test_status_table_columns_align_and_mark_button_and_actor():
    lines = table_lines(status_table(TABLE, flop_hand()))
    grid = [ln for ln in lines if ln[:1] in "|+"]
    assert len(grid) == 3 + 5 + 1  # rule, header, rule, five players, rule
    cols = bar_columns(grid[0])
    for ln in grid:
        assert bar_columns(ln) == cols, ln
    head = [c.strip() for c in grid[1].strip("|").split("|")]
    assert head == ["#", "Name", "Bankroll", "Action", "Status", "Pot#", "Pot size"]
    rows = {c[1].strip(" D>"): c for c in ([x.strip() for x in ln.strip("|").split("|")] for ln in grid[3:8])}
    assert rows["alice"][1].startswith("D")
    assert rows["dave"][1].startswith(">")
    assert rows["carol"][4] == "folded"
    assert rows["erin"][4] == "out"
    assert rows["bob"][2:4] == ["65", "35"]
    assert "Board: 7♥ 2♠ K♦ ? ?" in lines
    assert "Pot: 75" in lines


def test_status_table_aligns_wide_and_hostile_names():
    t = TableView("T", ("名前名前", "a|b", "x\ny"), {}, None)
    h = Hand(D_AND_P, 1, tuple(Seat(p, 10, 0, 5) for p in t.players), button=0, round=1, to_act=0)
    lines = table_lines(status_table(t, h))
    grid = [ln for ln in lines if ln[:1] in "|+"]
    assert len(grid) == 3 + 3 + 1  # the newline in a name did not add a row

    # each CJK character takes two cells in a monospaced font
    widths = {len(ln) + sum(1 for ch in ln if ord(ch) > 0x2E80) for ln in grid}
    assert len(widths) == 1
    assert any("名前名前" in ln for ln in grid)
    assert any(" a|b " in ln for ln in grid)  # literal inside the code block
    assert any(" x y " in ln for ln in grid)


def test_status_table_shows_html_characters_in_names_as_lookalikes():
    t = TableView("T", ("<b>x</b>", "A&T"), {}, None)
    h = Hand(D_AND_P, 1, tuple(Seat(p, 10, 0, 5) for p in t.players), button=0, round=1, to_act=0)
    block = "\n".join(table_lines(status_table(t, h)))
    assert "‹b›x‹/b›" in block
    assert "A＆T" in block
    assert "<" not in block and "&" not in block


def test_status_table_reproduces_the_wrgpt_side_pot_example():
    """Seed 000's status message: X4 all-in 5000, X1 all-in 4975, X2 50 in, X3 25 folded, X5
    folded. Pot 1 = 25 (X4's uncalled chips), pot 2 = 9850 (X1 and X4), pot 3 = 175."""
    names = ("X1", "X3", "X2", "X4", "X5")
    seats = (
        Seat("X1", 0, 4975, 4975),
        Seat("X3", 4925, 25, 25, folded=True),
        Seat("X2", 5025, 50, 50),
        Seat("X4", 0, 5000, 5000),
        Seat("X5", 5000, 0, 0, folded=True),
    )
    h = Hand(NLHE, 2, seats, button=0, round=1, to_act=2)
    assert side_pots(h) == [(25, ("X4",)), (9850, ("X1", "X4")), (175, ("X1", "X2", "X4"))]
    lines = table_lines(status_table(TableView("t", names, {}, "X1"), h))
    cells = {c[1].strip(" D>"): c for c in ([x.strip() for x in ln.strip("|").split("|")] for ln in lines[3:8])}
    assert cells["X1"][4:] == ["all-in", "2", "9850"]
    assert cells["X2"][4:] == ["", "3", "175"]
    assert cells["X4"][4:] == ["all-in", "1", "25"]
    assert cells["X3"][4:] == ["folded", "", ""]
    assert "Pot: 10050" in lines


def test_status_table_leaves_pot_columns_blank_without_side_pots():
    lines = table_lines(status_table(TABLE, settled_hand_running()))
    rows = [[x.strip() for x in ln.strip("|").split("|")] for ln in lines[3:8]]
    # five player rows (the loop must not pass by running zero times), each with seven cells
    assert [r[1].strip(" D>") for r in rows] == list(TABLE.players)
    for cells in rows:
        assert len(cells) == 7 and cells[5:] == ["", ""]


def settled_hand_running() -> Hand:
    h = settled_hand()
    return dataclasses.replace(h, result=None, round=4)


def test_gndt_rows_while_a_hand_runs_use_seats_and_turn_markers():
    rows = gndt_rows(TABLE, flop_hand())
    by = {r.player: r for r in rows}
    assert (by["dave"].turn, by["dave"].money, by["dave"].pot) == ("x", 80, 15)
    assert by["bob"].turn == "-"
    assert by["carol"].turn == "o"
    assert by["erin"].turn == "o"
    assert [r.player for r in rows] == list(TABLE.players)


# --------------------------------------------------------------------------- with the real engine


def test_a_hand_played_by_the_engine_renders_every_comment():
    """Three players, ante 5: bob raises 20, carol (30 Money) goes all-in for 25, alice and
    bob call, all check to the showdown and bob's trip sevens take the 90 pot. The numbers
    below are worked out by hand from those actions."""
    from nomicpoker.core.poker import engine as E
    from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Raise, Reveal
    from nomicpoker.shell.storage.rulesets import load_ruleset

    rs = load_ruleset("blognomic-2008")
    t = TableView("T", ("alice", "bob", "carol"), {"alice": 100, "bob": 100, "carol": 30}, "alice")
    h = E.start_hand(rs, 1, [("alice", 100), ("bob", 100), ("carol", 30)], "alice", ante=5)
    start = hand_start(t, h, ante=5, key="T-1-0001")
    assert "the pot is 15" in start and "First to act in round 1: bob" in start

    h = E.apply(h, Raise("bob", 1, 1, 20))
    h = E.apply(h, AllIn("carol", 1, 1))
    notice = turn_notice(t, h, E.legal_actions(h), key="T-1-0002")
    assert notice.startswith("carol goes all-in. Hand #1, round 1 (pre-flop): **alice** to act, 25 to call")
    assert "`HAND1 ROUND1 raise Z` (Z from 26 to 95" in notice
    assert "Pot: 60" in notice
    grid = table_lines(notice)
    carol = [ln for ln in grid if "carol" in ln][0]
    assert "all-in" in carol and "|        0 |" in carol

    h = E.apply(h, Call("alice", 1, 1))
    assert turn_notice(t, h, E.legal_actions(h), key="k").startswith("alice calls. Hand #1")
    h = E.apply(h, Call("bob", 1, 1))
    h = E.apply(h, DealBoard(("7h", "2s", "Kd")))
    flop = street(t, h, "Flop", ("7h", "2s", "Kd"), key="T-1-0003")
    assert "**Flop**: 7♥ 2♠ K♦" in flop and "Pot: 90." in flop and "bob acts first" in flop
    for card in (("Tc",), ("3d",), None):
        while E.need(h).kind == "action":
            h = E.apply(h, Check(E.need(h).players[0], 1, h.round))
        if card:
            h = E.apply(h, DealBoard(card))
    order = E.need(h).players
    reveals = call_for_reveals(t, h, order, key="T-1-0004")
    assert "`HAND1 reveal 7h 2s`" in reveals
    for p, cards in (("alice", ("Ah", "Kh")), ("bob", ("7s", "7d")), ("carol", ("2h", "2d"))):
        h = E.apply(h, Reveal(p, cards, 1))
    assert h.result is not None
    after = TableView("T", t.players, {s.name: s.money for s in h.seats}, "alice")
    body = payout(after, h, secrets={"deck": "ab" * 32}, key="T-1-0005")
    assert "Pot 90: bob wins 90." in body
    assert "bob: put in 30, receives 90 (+60)" in body
    assert "| bob | 160 | o | 0 |" in body
    assert "| carol | 0 | o | 0 |" in body
    assert find_tag(body) == "T-1-0005"


def test_no_comment_carries_a_raw_html_tag_from_a_hostile_name():
    """BlogNomic's WordPress takes a comment body as HTML: a name like ``<img onerror=…>``
    must reach it only as entities (prose) or look-alikes (status table)."""
    evil = "<img src=x onerror=alert(1)>"
    t = TableView("<T>", (evil, "bob"), {evil: 10, "bob": 10}, evil)
    seats = (Seat(evil, 10, 0, 5), Seat("bob", 10, 0, 5))
    h = Hand(D_AND_P, 1, seats, button=0, round=2, board=("7h", "2s", "Kd"), to_act=0)
    legal = LegalActions(evil, fold=True, check=True, call=None, raise_min=1, raise_max=10, all_in=10)
    res = Result(awards=(PotAward(10, (evil, "bob"), (evil,), {evil: 10}),), returned={}, destroyed=0,
                 payouts={evil: 10}, shown=(ShownHand(evil, ("Ah", "Ad"), ("Ah", "Ad", "7h", "Kd", "2s"), "Pair of Aces", 1),),
                 uncontested=False)
    bodies = [
        hand_start(t, h, ante=5, key="k"),
        turn_notice(t, h, legal, key="k", deadline="<soon>"),
        rejection(evil, evil, "unparseable", evil, "", key="k"),
        dice_rolled(evil, evil, (52, 52), (1, 2), identical=False, key="k"),
        draw_accepted(evil, evil, (1, 2), evil, key="k"),
        street(t, h, "Flop", ("7h", "2s", "Kd"), key="k"),
        call_for_reveals(t, h, (evil, "bob"), key="k"),
        payout(t, dataclasses.replace(h, result=res), secrets={"deck": "ab"}, key="k"),
        edit_noted(evil, evil, key="k"),
    ]
    for body in bodies:
        assert "<" not in body, body
        assert "&lt;img src=x onerror=alert(1)&gt;" in body or "‹img src=x onerror=alert(1)›" in body


def test_every_form_a_turn_notice_offers_is_read_by_the_grammar_as_that_action():
    from nomicpoker.core.reading.grammar import parse_comment

    legal = LegalActions("dave", fold=True, check=True, call=20, raise_min=21, raise_max=80, all_in=80)
    body = turn_notice(TABLE, flop_hand(), legal, key="k")
    forms = re.findall(r"^- `([^`]+)`", body, re.MULTILINE)
    kinds = {}
    for form in forms:
        intent = parse_comment(form.replace(" Z", " 30"))
        kinds[form] = (intent.kind, intent.hand, intent.round)
    assert kinds == {
        "HAND3 ROUND2 check": ("check", 3, 2),
        "HAND3 ROUND2 call": ("call", 3, 2),
        "HAND3 ROUND2 raise Z": ("raise", 3, 2),
        "HAND3 ROUND2 all in": ("all_in", 3, 2),
        "HAND3 ROUND2 folds": ("fold", 3, 2),
    }


def test_the_draw_and_reveal_forms_the_dealer_shows_are_read_by_the_grammar():
    from nomicpoker.core.reading.grammar import parse_comment

    start = hand_start(TABLE, fresh_hand(), ante=5, key="k")
    dice = re.search(r"`(HAND#3 DICE52 DICE52)`", start).group(1)
    assert parse_comment(dice).dice == (52, 52)
    draw = re.search(r"`(cards 14, 26, Cards printed by: [^`]+)`", start).group(1)
    assert parse_comment(draw).positions == (14, 26)
    reveal = re.search(r"`(HAND3 reveal [^`]+)`", call_for_reveals(TABLE, flop_hand(), ("bob",), key="k")).group(1)
    assert parse_comment(reveal).cards == ("7h", "2s")


def test_a_cells_width_is_the_per_character_rule_ascii_included():
    """The status table's column width: ASCII text is counted by its length (a fast path), which
    must be what the per-character rule gives (East Asian wide = 2, combining = 0, else 1)."""
    import unicodedata

    from nomicpoker.core.words.tables_view import _width

    def by_character(text: str) -> int:
        return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
                   for c in text)

    samples = ["".join(map(chr, range(128))), "alice", "", "Bob <b>&", "名前", "e\u0301te", "ＡＢ1", "a名\u0301"]
    for text in samples:
        assert _width(text) == by_character(text), text
    assert _width("名前") == 4 and _width("e\u0301") == 1 and _width("alice") == 5
