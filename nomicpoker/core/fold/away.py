"""Timeouts, AWOL and missed turns, as changes to play over days (pure helpers).

WHY a module of its own: a deadline that passes (a turn's, in the fold; a Hole Card Draw's,
in :mod:`.draws`) and the dealer acting at once for a player already away (in
:mod:`.over_days`) all count a missed turn the same way. Each phase calls these helpers, which
read the state and return the change (:class:`~nomicpoker.core.fold.effects.DaysSet`) with the
sentence for the notice; no phase calls another for it.

The readings (docs/dealer-guide.md, "Running a game over days"): a timeout marks the player
AWOL until they act; after ``max_timeouts`` in a row they sit out later hands until they
comment ``BACK``; from edition 2 an AWOL player is on vacation at once in the running hand
(WRGPT), in a hand of edition 1 each later turn gave him a new deadline.

At a tournament's table (``TableSettings.wrgpt_vacation``, set by ``tournament start``) nobody
sits out for his timeouts: WRGPT's AWOL player stays dealt in ("If you miss your deadline you
will be put on vacation and a $0 bet will be entered for you. In future hands your status line
will show "AWOL"."), posting antes and blinds, until ``BACK``, an accepted action, or the
director's ``disqualify`` ("You will be removed from the tournment if you exceed allowed timeout
limits.").
"""

from __future__ import annotations

from typing import Any

from nomicpoker.core.fold.effects import DaysSet
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.words import days_notices as words


def running(st: TableState) -> HandState | None:
    """The hand running now (``None`` between hands)."""
    h = st.current
    return h if h is not None and h.phase != "complete" else None


def awol_away(st: TableState) -> bool:
    """Whether a player AWOL after a timeout is on vacation at once in the running hand
    (WRGPT's rule, edition 2); in a hand of edition 1 (``TableSettings.edition``) each later
    turn gave him a new deadline."""
    cur = running(st)
    return cur is None or cur.edition >= 2


def missed(st: TableState, player: str, timed_out: bool = False) -> tuple[str, dict[str, Any]]:
    """One more turn missed in a row (a timeout, or the dealer acting at once for an AWOL
    player), and sitting out later hands at the table's limit: the sentence for the notice
    and the fields of play over days that change."""
    d = st.days
    count = d.timeouts.get(player, 0) + 1
    changes: dict[str, Any] = {"timeouts": {**d.timeouts, player: count}}
    limit = d.settings.max_timeouts
    if d.settings.wrgpt_vacation:  # a tournament's table: dealt in while AWOL, whatever the count
        return words.tournament_awol_note(player, count, limit, timed_out), changes
    if count >= limit:
        changes["sitting_out"] = {**d.sitting_out, player: "timeouts"}
    note = words.timeouts_note(player, count, limit, timed_out, edition=1 if not awol_away(st) else 2)
    return note, changes


def timed_out(st: TableState, player: str) -> tuple[str, DaysSet]:
    """A timeout: AWOL, one more in a row, and sitting out at the limit. The sentence for
    the timeout notice, and the change."""
    d = st.days
    changes: dict[str, Any] = {}
    if player not in d.awol and player not in d.vacation and awol_away(st):
        cur = running(st)  # "you can win the hand during which you go on vacation"
        changes["vacation_hand"] = {**d.vacation_hand, player: cur.start.number if cur else 0}
    changes["awol"] = d.awol | {player}
    note, more = missed(st, player, timed_out=True)
    return note, DaysSet({**changes, **more})
