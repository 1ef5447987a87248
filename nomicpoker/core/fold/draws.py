"""The Hole Card Draw phase of the table fold: dice, draw statements and the draw deadline.

A part of :mod:`nomicpoker.core.fold.adjudicator` (its ``_Folder`` holds a :class:`DrawPhase` and
is its :class:`DrawHost`: what the phase needs from the fold is declared there), kept in
a module of its own because the draw phase is a room of its own: it runs before any betting,
only under a ruleset where each player draws from their own deck (``blognomic-2008``), and
it has its own readings of the rule (docs/dealer-guide.md):

- A player with a valid Hole Card Draw may not draw again (only identical results are redrawn).
- Round 1 opens when every seated player still in the hand has stated a valid draw.
- **The draw deadline.** With a table deadline (``--deadline-hours``), a seated player who has
  stated no valid draw when it passes is folded out of the hand; what they put in (the ante)
  stays in the pot. The hours count from the hand start, or from the player's last Hole Card
  Draw with identical results (the rule makes them draw again, so they get the time again).
  The expiry is a recorded dealer event with its time (``kind = "draw_timeout"``), written by
  the shell (:mod:`nomicpoker.shell.cycle.deadlines`), so the fold stays a pure function of its inputs.
- While nobody has stated a valid draw, nobody is folded out: folding out everyone would leave
  a hand nobody can win. The first valid draw makes the others' passed deadlines apply.

Pure: no clock (times come from the archive and the recorded events), no I/O.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping, Protocol

from nomicpoker.core.poker import engine
from nomicpoker.core.words import notices as say
from nomicpoker.core.poker.actions import FoldOut
from nomicpoker.core.fairness.dealing import CHECKSUM_PREFIX, checksums_match, dice_pair_ok, roll
from nomicpoker.core.table.fold_state import HandState
from nomicpoker.core.table.fold_types import DRAW_TIMEOUT, DealerEvent, FoldError, Revision, TableConfig
from nomicpoker.core.rules.ruleset import Ruleset

__all__ = ["DRAW_TIMEOUT", "DrawHost", "DrawPhase", "draw_clock", "due_time", "waiting_for_draws", "waiting_in"]


def due_time(since: str, hours: int | None) -> str | None:
    """``since`` plus ``hours`` as ``YYYY-MM-DD HH:MM UTC`` (``None`` without a deadline).
    Pure: the time comes from the archive or a hand-start record, never the clock."""
    if not hours:
        return None
    try:
        due = datetime.fromisoformat(since) + timedelta(hours=hours)
    except ValueError:
        return f"{hours} h after {since}"
    return due.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def waiting_for_draws(h: HandState) -> list[str]:
    """Seated players still in the hand who have not stated a valid Hole Card Draw."""
    return waiting_in(h.hand, h.draws)


def waiting_in(hand: Any, draws: Mapping[str, Any]) -> list[str]:
    """Players still in the engine's ``hand`` with no valid Hole Card Draw in ``draws``: what
    :func:`waiting_for_draws` says of a hand's next state before the fold has it."""
    return [s.name for s in hand.seats if not s.folded and s.name not in draws]


def draw_clock(h: HandState) -> tuple[tuple[str, str], ...]:
    """``(player, since)`` for each player the draw deadline may fold out now: no valid draw
    yet, while somebody else still in the hand has one. ``since`` is when their hours began
    (the hand start, or their last identical-dice draw)."""
    if h.phase != "draw" or not any(p in h.draws for p in (s.name for s in h.hand.seats if not s.folded)):
        return ()
    return tuple((p, h.redraws.get(p, h.start.started_at)) for p in waiting_for_draws(h))


def _checksum_line(stated: str) -> str:
    """The stated checksum as a whole ``Cards printed by: ...`` line (the grammar hands over
    the part after the colon, sometimes without the closing bracket of the hex)."""
    text = " ".join(stated.split())
    if not text:
        return ""
    if text.count("(") > text.count(")"):
        text += ")"
    if not text.casefold().startswith("cards printed by"):
        text = f"{CHECKSUM_PREFIX} {text}"
    return text


class DrawHost(Protocol):
    """What the draw phase needs from the fold that hosts it (the adjudicator's ``_Folder``):
    the table's configuration and rules, the hands, and the fold's ways to write a row, queue
    a dealer comment, give a verdict or a rejection, log GNDT changes and move a hand on. All
    public names: the fold's other rooms (over days, dealer controls, advance actions, SCORE)
    call the same methods, and tests/unit/test_rooms.py checks no room reaches into another's
    ``_`` names."""

    c: TableConfig
    st: Any  # the fold's TableState (its ``days`` give the deadline in force)
    days: Any  # the play-over-days room (timeouts make a player AWOL)
    rules: Ruleset

    @property
    def hands(self) -> dict[int, HandState]: ...

    def add_row(self, _kind: str, **values: Any) -> dict[str, Any]: ...

    def post(self, hand: int | None, body_fn: Callable[[str], str], thread: str,
             reply_to: str | None = None) -> None: ...

    def reject(self, rev: Revision, hand: int | None, code: str, message: str,
               cite_as: str | None = None, hint: str | None = None) -> None: ...

    def give_verdict(self, rev: Revision, hand: int | None, status: str, code: str = "",
                     message: str = "", citation: str = "", canonical: str = "") -> None: ...

    def log_changes(self, hand: int | None, cause: str) -> None: ...

    def advance_hand(self, h: HandState, cause: str, thread: str, said: bool = False) -> None: ...

    def log_steps(self, h: HandState, cause: str) -> None: ...


class DrawPhase:
    """The draw phase: reads dice and draw comments and applies the draw deadline, through
    its :class:`DrawHost` (it holds no state of its own: the hand's is in :class:`HandState`)."""

    def __init__(self, host: DrawHost):
        self.host = host

    def _folded_out(self, rev: Revision, h: HandState) -> bool:
        """Reject a draw comment from a player the draw deadline folded out."""
        at = h.timed_out.get(rev.author)
        if at is None:
            return False
        number = h.start.number
        # "... and thereafter that Player ceases to participate in that Hand."
        self.host.reject(rev, number, "folded_out", f"{rev.author} was folded out of hand {number} "
                     f"when the Hole Card Draw deadline passed ({at})", cite_as="require_hand_and_round")
        return True

    def _no_draws(self, rev: Revision, number: int, what: str) -> bool:
        """Reject a draw comment at a table with one shared deck, which has no draws (True)."""
        if self.host.rules.deck != "shared":
            return False
        self.host.reject(rev, number, "already_dealt", "this table deals hole cards from the dealer's "
                     f"one deck, sent to you privately: there is no {what}")
        return True

    def dice(self, rev: Revision, h: HandState, intent) -> None:
        number = h.start.number
        p = rev.author
        sides = tuple(intent.dice or ())
        if self._no_draws(rev, number, "Hole Card Draw") or self._folded_out(rev, h):
            return
        if h.phase != "draw" or p in h.draws or p in h.pairs:
            self.host.reject(rev, number, "already_drawn", f"{p} already has a Hole Card Draw "
                         f"({', '.join(str(x) for x in h.pairs[p][1:])}) in hand {number}"
                         if p in h.pairs else f"Hole Card Draws are over in hand {number}")
            return
        draw_form = f"HAND#{number} DICE52 DICE52"
        if sides != (52, 52):
            # "unparseable" usually cites the Raise sentence; a draw rests on the draw sentence.
            self.host.reject(rev, number, "unparseable",
                         f"a Hole Card Draw is {draw_form} (two 52-sided dice)", cite_as="deck",
                         hint=f"Make a Hole Card Draw comment: `{draw_form}`.")
            return
        if self.host.c.forum_roller:
            results = tuple(rev.dice[:2])
            source = "forum"
            if len(results) != 2:
                self.host.reject(rev, number, "unparseable", "the forum's dice roller gave no results")
                return
        else:
            results = tuple(roll(h.start.dealt_from.dice, rev.forum_id, i, s) for i, s in enumerate(sides))
            source = "bot"
        for i, (s, r) in enumerate(zip(sides, results)):
            self.host.add_row("dice", hand=number, comment_id=rev.forum_id, player=p, index=i, sides=s,
                      result=r, source=source)
            h.record["dice"].append({"comment_id": rev.forum_id, "player": p, "index": i,
                                     "sides": s, "result": r, "source": source})
        ok = dice_pair_ok(*results)
        due = None
        if ok:
            h.pairs[p] = (rev.forum_id, results[0], results[1])
            self.host.give_verdict(rev, number, "accepted", canonical=f"HAND#{number} DICE52 DICE52")
        else:
            h.redraws[p] = rev.created  # the rule makes them draw again: their hours start again
            due = self.host.st.days.due_text(p, rev.created)
            self.host.give_verdict(rev, number, "rejected", "identical_dice", f"both dice show {results[0]}: draw again",
                          self.host.rules.cite("identical_dice"), f"HAND#{number} DICE52 DICE52")
        self.host.post(number, lambda k: say.dice_rolled(p, rev.permalink or rev.forum_id, sides, results, ok,
                                                     self.host.rules.cite("identical_dice"), k, due),
                   rev.thread, reply_to=rev.forum_id)

    def draw(self, rev: Revision, h: HandState, intent) -> None:
        number, p = h.start.number, rev.author
        if self._no_draws(rev, number, "draw statement") or self._folded_out(rev, h):
            return
        if h.phase != "draw" or p in h.draws:
            self.host.reject(rev, number, "already_drawn", f"{p} has already stated a Hole Card Draw in hand {number}")
            return
        pair = h.pairs.get(p)
        positions = tuple(intent.positions or ())
        stated = _checksum_line(intent.checksum or "")
        problems = []
        if pair is None:
            problems.append(f"{p} has no Hole Card Draw with two different results yet "
                            f"(comment HAND#{number} DICE52 DICE52 first)")
        elif sorted(positions) != sorted(pair[1:]):
            problems.append(f"the dice gave {pair[1]}, {pair[2]}, not "
                            f"{', '.join(str(x) for x in positions)}")
        if p in h.decks and not checksums_match(stated, h.decks[p].checksum):
            problems.append(f"the checksum of {p}'s deck is {h.decks[p].checksum!r}, not {stated!r}")
        if not stated.strip():
            problems.append("the statement must give the deck's 'Cards printed by:' checksum")
        if problems:
            self.host.reject(rev, number, "draw_mismatch", "; ".join(problems))
            return
        h.draws[p] = positions
        if p not in h.decks:
            h.own_checksums[p] = stated
            self.host.add_row("deck", hand=number, player=p, source="own", checksum=stated)
            h.record["decks"].append({"player": p, "source": "own", "checksum": stated})
        self.host.add_row("draw", hand=number, player=p, comment_id=rev.forum_id,
                  positions=list(positions), checksum=stated)
        h.record["draws"].append({"player": p, "comment_id": rev.forum_id,
                                  "positions": list(positions), "checksum": stated})
        self.host.give_verdict(rev, number, "accepted",
                      canonical=f"cards {', '.join(str(x) for x in positions)}, {stated}")
        h.since = rev.created
        waiting = waiting_for_draws(h)
        shown = h.decks[p].checksum if p in h.decks else stated
        self.host.post(number, lambda k: say.draw_accepted(p, rev.permalink or rev.forum_id, positions,
                                                       shown, p in h.decks, waiting, k),
                   rev.thread, reply_to=rev.forum_id)
        if not waiting:
            h.phase = "betting"
            self.host.advance_hand(h, rev.permalink or f"comment {rev.forum_id}", rev.thread)

    def stalled(self, ev: DealerEvent) -> None:
        """A recorded ``stalled`` event: the Hole Card Draw deadline passed while no seated
        player had drawn. The rule folds out a player who has not drawn only while someone
        else has, so there is nobody to fold out: say so in the thread, once (the shell tells
        the Dealer), and wait for the draws."""
        h = self.host.hands.get(ev.hand)
        if h is None or h.phase != "draw" or "" in h.timed_out:
            return
        h.timed_out[""] = ev.at  # over_days.STALL_MARK: said
        days = self.host.st.days
        due = days.due("", h.start.started_at) or ev.at
        self.host.post(h.start.number, lambda k: say.draw_stalled(
            h.start.number, days.when(due), waiting_for_draws(h), self.host.c.name, k), h.start.thread)

    def timeout(self, ev: DealerEvent) -> None:
        """A recorded draw deadline: fold ``ev.player`` out, say so quoting the sentence that
        obliges every seated player to draw, then open round 1 (or pay the one player left)
        when nobody else is still to draw. An event that no longer applies (the player drew
        first) changes nothing."""
        h = self.host.hands.get(ev.hand)
        if h is None or h.phase != "draw":
            return
        since = dict(draw_clock(h)).get(ev.player)
        if since is None:
            return
        number = h.start.number
        put_in, pot = h.hand.seat(ev.player).total_bet, h.hand.pot
        h.step = ("", ev.at)
        folded = engine.apply(h.hand, FoldOut(ev.player))
        if isinstance(folded, engine.Rejection):  # pragma: no cover - draw_clock lists only players still in
            raise FoldError("bad_input", f"cannot fold {ev.player} out of hand {number}: {folded.message}")
        h.hand = folded
        h.timed_out[ev.player] = ev.at
        h.since = ev.at
        waiting = waiting_for_draws(h)
        left = [s.name for s in h.hand.seats if not s.folded]
        cause = f"dealer: {ev.player}'s Hole Card Draw deadline passed at {ev.at}"
        note = self.host.days.timed_out(ev.player)  # AWOL, or sitting out after too many
        days = self.host.st.days
        when = days.when if h.edition >= 2 else str  # as reminders state times (edition 1: ISO)
        self.host.post(number, lambda k: say.draw_timed_out(
            ev.player, number, when(since), days.settings.deadline_hours, when(ev.at), put_in, pot, waiting, left,
            self.host.rules.cite("deck"), k, note), h.start.thread)
        if h.hand.result is not None or not waiting:
            h.phase = "betting"
            self.host.advance_hand(h, cause, h.start.thread, said=True)  # draw_timed_out said it
        else:
            self.host.log_steps(h, cause)
            self.host.log_changes(number, cause)
