"""Table views for dealer comments: the WRGPT status table, the GNDT rows and the pots.

Why a module of its own: these are the views of a hand's *state* (who has what, who is in
which pot), while :mod:`nomicpoker.core.words.render` holds the *comments* built around them; keeping
them apart keeps both files small. Pure functions of plain values and engine ``Hand``s.

The status table follows the WRGPT dealer (seed ``000_…``): ``#``, ``Name`` with ``D`` for the
button and ``>`` for the player to act, ``Bankroll``, ``Action`` (chips in this hand),
``Status``, ``Pot#`` and ``Pot size`` for side pots, then the board and the pot. It sits in a
fenced code block: monospaced and aligned in Markdown, and still aligned as plain text. Table
rows start with a seat number, so no player name can close the fence.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from nomicpoker.core.poker.cards import Card, pretty
from nomicpoker.core.poker.engine import Hand, Seat
from nomicpoker.core.words.gndt import GndtRow, one_line

BOARD_SIZE = 5


@dataclass(frozen=True)
class TableView:
    """What the renderer needs about the table, as plain values (no database rows).

    ``players`` is every table player in GNDT order, seated or not; ``money`` is each one's
    Money behind (not in the pot). For :func:`nomicpoker.core.words.render.payout`, ``money`` is the Money *after* the
    payout, as the ledger holds it once the hand is settled.
    """

    name: str
    players: tuple[str, ...]
    money: Mapping[str, int] = field(default_factory=dict)
    button: str | None = None
    #: play over days: a name marker (``V``: on vacation) and a status note (the first six
    #: characters of the until-string, ``AWOL``, ``away``) per player
    marks: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)


def board_text(board: Sequence[Card]) -> str:
    """The board as WRGPT shows it: dealt cards, then ``?`` for each card still to come."""
    shown = [pretty(c) for c in board]
    return " ".join(shown + ["?"] * max(0, BOARD_SIZE - len(shown)))


def seat_of(hand: Hand, name: str) -> Seat | None:
    for s in hand.seats:
        if s.name == name:
            return s
    return None


def to_act_name(hand: Hand) -> str | None:
    """The player to act, or ``None`` between rounds, at the showdown and after the hand."""
    if hand.to_act is None or not (0 <= hand.to_act < len(hand.seats)):
        return None
    return hand.seats[hand.to_act].name


def button_name(table: TableView, hand: Hand | None) -> str | None:
    """The Button: the hand's own record when there is a hand, else the table's."""
    if hand is not None and 0 <= hand.button < len(hand.seats):
        return hand.seats[hand.button].name
    return table.button


# --------------------------------------------------------------------------- derived views


def turn_of(hand: Hand | None, players: Sequence[str]) -> dict[str, str]:
    """The GNDT Turn column per the rule "Turn Indicator": ``x`` for the seated player to act,
    ``-`` for other seated players who have not folded, ``o`` for everyone else. Computed here
    from the seats so the renderer does not depend on engine internals; with no hand running
    everybody is ``o``."""
    out = {p: "o" for p in players}
    if hand is None:
        return out
    actor = to_act_name(hand)
    for s in hand.seats:
        out[s.name] = "o" if s.folded else ("x" if s.name == actor else "-")
    return out


def gndt_rows(table: TableView, hand: Hand | None = None) -> tuple[GndtRow, ...]:
    """GNDT rows for the table: Money from the seat while a hand runs (Money behind), else from
    the table; Pot is each player's chips in the running hand (0 once it is settled)."""
    turn = turn_of(hand if hand is not None and hand.result is None else None, table.players)
    rows = []
    names = list(table.players) + [s.name for s in (hand.seats if hand else ()) if s.name not in table.players]
    for p in names:
        seat = seat_of(hand, p) if hand is not None else None
        running = hand is not None and hand.result is None and seat is not None
        money = seat.money if running and seat is not None else table.money.get(p, 0)
        pot = seat.total_bet if running and seat is not None else 0
        rows.append(GndtRow(player=p, money=money, turn=turn.get(p, "o"), pot=pot))
    return tuple(rows)


def side_pots(hand: Hand) -> list[tuple[int, tuple[str, ...]]]:
    """The pots as WRGPT numbers them: ``[(amount, players still in it)]`` with pot 1 first.

    Each distinct contribution level of a player still in the hand closes a pot; pot 1 is the
    top one (fewest players, e.g. uncalled chips) and the last is the main pot everyone still
    in is part of. A player in pot N is also in every pot > N. Folded players' chips count
    towards the pots up to what they put in."""
    live = [s for s in hand.seats if not s.folded and s.total_bet > 0]
    levels = sorted({s.total_bet for s in live})
    pots: list[tuple[int, tuple[str, ...]]] = []
    prev = 0
    for lv in levels:
        amount = sum(min(s.total_bet, lv) - min(s.total_bet, prev) for s in hand.seats)
        members = tuple(s.name for s in live if s.total_bet >= lv)
        pots.append((amount, members))
        prev = lv
    pots.reverse()
    return pots


def _width(text: str) -> int:
    """Display width in a monospaced font: wide East Asian characters take two cells,
    combining marks none, so names in other scripts do not skew the columns. ASCII text is
    one cell a character (no ASCII character is wide or combining), counted without the
    per-character lookups: every status table of every fold measures its cells."""
    if text.isascii():
        return len(text)
    w = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


#: In the code block, HTML-active characters become look-alikes: a Markdown renderer would
#: show entities literally there, and a forum taking the body as raw HTML would strip ``<x>``.
_CELL_SAFE = str.maketrans({"<": "‹", ">": "›", "&": "＆"})


def _cell(text: str) -> str:
    """A name for the status table's code block: one line, nothing a forum could read as HTML."""
    return one_line(text).translate(_CELL_SAFE)


def _fit(text: str, width: int, right: bool = False) -> str:
    pad = " " * max(0, width - _width(text))
    return pad + text if right else text + pad


def _clip(text: str, limit: int) -> str:
    if _width(text) <= limit:
        return text
    out = ""
    for ch in text:
        if _width(out + ch) > limit - 1:
            break
        out += ch
    return out + "…"


NAME_LIMIT = 24


def status_table(table: TableView, hand: Hand) -> str:
    """The WRGPT-style status table in a fenced code block, with the board and the pot.

    Rows are every table player in GNDT order (``#`` is the GNDT position). Name carries
    ``D`` for the button (else ``V`` for a player on vacation) and ``>`` for the player to act;
    a player's note (until-string, ``AWOL``, ``away``) takes the Status cell unless all-in. Bankroll is Money behind, Action the
    chips put in this hand, Status ``folded`` / ``all-in`` / ``out`` (not seated this hand) or
    blank. Pot# and Pot size are filled only when side pots exist (the ruleset builds them and
    somebody still in is all-in), as WRGPT does: the smallest pot each player is in and its size.

    Names are untrusted but a code block shows its content verbatim, so they are printed as
    they are except for line breaks (spaces) and ``< > &`` (look-alikes ``‹ › ＆``): a forum
    that takes the body as HTML must not read a name as a tag, and entities would show
    literally in Markdown. Long names are clipped to ``NAME_LIMIT`` columns with ``…``.
    """
    actor = to_act_name(hand)
    button = button_name(table, hand)
    pots = side_pots(hand) if hand.ruleset.side_pots and any(s.all_in for s in hand.seats) else []
    if len(pots) < 2:
        pots = []
    smallest: dict[str, tuple[int, int]] = {}
    for i, (amount, members) in enumerate(pots, start=1):
        for m in members:
            smallest.setdefault(m, (i, amount))

    names = list(table.players) + [s.name for s in hand.seats if s.name not in table.players]
    head = ("#", "Name", "Bankroll", "Action", "Status", "Pot#", "Pot size")
    rows: list[tuple[str, ...]] = []
    for i, p in enumerate(names, start=1):
        seat = seat_of(hand, p)
        mark = ("D" if p == button else table.marks.get(p, " ")[:1] or " ") + (">" if p == actor else " ")
        shown = _clip(_cell(p), NAME_LIMIT)
        note = _cell(table.notes.get(p, ""))[:6]
        if seat is None:
            money = table.money.get(p, 0)  # out of Money is "out" whatever else is true
            rows.append((str(i), f"{mark} {shown}", str(money), "", (note if money else "") or "out", "", ""))
            continue
        status = "folded" if seat.folded else ("all-in" if seat.all_in else "")
        if note and not seat.all_in:
            status = note  # WRGPT shows the until-string where the status would be
        pot_no, pot_size = smallest.get(p, (None, None)) if not seat.folded else (None, None)
        rows.append((
            str(i), f"{mark} {shown}", str(seat.money), str(seat.total_bet), status,
            "" if pot_no is None else str(pot_no), "" if pot_size is None else str(pot_size),
        ))
    widths = [max(_width(h), *(_width(r[c]) for r in rows)) if rows else _width(h) for c, h in enumerate(head)]
    right = (True, False, True, True, False, True, True)

    def line(cells: Sequence[str]) -> str:
        return "|" + "|".join(" " + _fit(c, w, r) + " " for c, w, r in zip(cells, widths, right)) + "|"

    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [rule, "|" + "|".join(" " + _fit(h, w) + " " for h, w in zip(head, widths)) + "|", rule]
    out += [line(r) for r in rows]
    out.append(rule)
    out.append(f"Board: {board_text(hand.board)}")
    out.append(f"Pot: {hand.pot}")
    return "```\n" + "\n".join(out) + "\n```"
