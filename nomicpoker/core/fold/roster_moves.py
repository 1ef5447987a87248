"""Players moved between tables, in the fold (pure): the ``move_out`` and ``move_in`` dealer
events of a tournament (:mod:`nomicpoker.core.table.roster` says what they carry).

Robert's Rules: "As players are eliminated, tables are broken in a pre-set order, with players
from the broken tables assigned to empty seats at other tables", and "The number of players at
each table will be kept reasonably balanced by the transfer of a player as needed." A move is a
dealer event of each table's ledger, posted in the table's thread (its latest hand's) and
written in the change log with its reason before the next hand; the player's Money goes with
him: it leaves this table's GNDT (Money to 0, he is off the roster) and comes onto the other's.

Only between hands: a move recorded while a hand runs is an inconsistent ledger
(``FoldError('bad_input')``; the director refuses it before recording). A ``move_out`` must
carry exactly the player's Money, so the chips that leave one table are the chips that arrive
at the other (``audit`` checks a tournament's chips are conserved across its tables).

WHY its own module: the fold's other phases are being rewritten to return effects
(:mod:`nomicpoker.core.fold.effects`); this handler needs only rows, posts and the roster, so it
stays apart from them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nomicpoker.core.table.fold_types import DealerEvent, FoldError
from nomicpoker.core.table.roster import MOVE_IN, MOVE_OUT, after_move, chips_of
from nomicpoker.core.words import moves as words


def event(host: Any, ev: DealerEvent) -> None:
    """Apply one move (``host`` is the adjudicator's ``_Folder``: ``st``, ``c``, ``add_row``,
    ``post``)."""
    st = host.st
    cur = st.current
    if cur is not None and cur.phase != "complete":
        raise FoldError("bad_input", f"{ev.kind} of {ev.player} is recorded while hand {cur.start.number} is "
                        "running: players move between hands only")
    chips = chips_of(ev)
    new = after_move(host.c.players, ev)
    why = str(ev.data.get("why", "")) or ev.note
    if ev.kind == MOVE_OUT:
        have = st.money.get(ev.player, 0)
        if have != chips:
            raise FoldError("bad_event", f"{ev.kind} of {ev.player} carries {chips} chips but his Money here is "
                            f"{have}: the chips that leave must be his")
        where = str(ev.data.get("to", ""))
        # to no table: a disqualified player's chips "removed from play" (Robert's)
        cause = f"dealer: {ev.player} moved to table {where} ({why})" if where else f"dealer: {ev.player}'s chips removed from play ({why})"
        host.add_row("entry", hand=None, player=ev.player, column="Money", old=str(have), new="0", cause=cause)
        st.money.pop(ev.player, None)
        st.gndt.pop(ev.player, None)
        st.days.sitting_out.pop(ev.player, None)
    elif ev.kind == MOVE_IN:
        where = str(ev.data.get("from", ""))
        seat = ev.data.get("seat")
        cause = f"dealer: {ev.player} moved from table {where} to seat {seat} ({why})"
        st.money[ev.player] = chips
        st.gndt[ev.player] = (chips, "o", 0)
        for column, value in (("Money", chips), ("Turn", "o"), ("Pot", 0)):
            host.add_row("entry", hand=None, player=ev.player, column=column, old="", new=str(value), cause=cause)
    st.roster = list(new)
    host.c = replace(host.c, players=new)
    if cur is not None:
        number, thread = cur.start.number, cur.start.thread
        host.post(number, lambda k: words.moved(ev.kind == MOVE_IN, ev.player, where, chips, why, k), thread)


__all__ = ["event"]
