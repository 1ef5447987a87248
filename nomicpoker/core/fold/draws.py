"""The Hole Card Draw phase of the table fold: dice, draw statements and the draw deadline.

A phase of the fold without a hub (:mod:`.effects`): :func:`dice`, :func:`draw`,
:func:`stalled` and :func:`timeout` are functions of the hand's state (only read), the rules
and their input that return what happened as values (rows, verdicts, the dealer's answers,
the hand's state changes, and the request to open round 1); the fold applies them in order.
A module of its own because the draw phase is a room of its own: it runs before any betting,
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
from typing import Any, Mapping

from nomicpoker.core.poker import engine
from nomicpoker.core.words import notices as say
from nomicpoker.core.poker.actions import FoldOut
from nomicpoker.core.fairness.dealing import CHECKSUM_PREFIX, checksums_match, dice_pair_ok, roll
from nomicpoker.core.fold import away
from nomicpoker.core.fold.effects import (AdvanceHand, Effect, LogChanges, LogSteps, Post, Recorded, Reject, Row,
                                          Verdict, hand_set)
from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DRAW_TIMEOUT, DealerEvent, FoldError, Revision, TableConfig
from nomicpoker.core.rules.ruleset import Ruleset

__all__ = ["DRAW_TIMEOUT", "dice", "draw", "draw_clock", "due_time", "stalled", "timeout", "waiting_for_draws",
           "waiting_in"]


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


def _folded_out(rev: Revision, h: HandState) -> tuple[Effect, ...]:
    """The rejection of a draw comment from a player the draw deadline folded out (none: he
    was not)."""
    at = h.timed_out.get(rev.author)
    if at is None:
        return ()
    number = h.start.number
    # "... and thereafter that Player ceases to participate in that Hand."
    return (Reject(rev, number, "folded_out", f"{rev.author} was folded out of hand {number} "
                   f"when the Hole Card Draw deadline passed ({at})", cite_as="require_hand_and_round"),)


def _no_draws(rev: Revision, number: int, what: str, rules: Ruleset) -> tuple[Effect, ...]:
    """The rejection of a draw comment at a table with one shared deck, which has no draws."""
    if rules.deck != "shared":
        return ()
    return (Reject(rev, number, "already_dealt", "this table deals hole cards from the dealer's "
                   f"one deck, sent to you privately: there is no {what}"),)


def dice(rev: Revision, h: HandState, intent: Any, days: DaysState, config: TableConfig,
         rules: Ruleset) -> tuple[Effect, ...]:
    """A Hole Card Draw (``HAND#n DICE52 DICE52``) by ``rev``'s author in hand ``h``: the dice
    rows, the verdict (identical results are drawn again, and their hours start again) and
    the dealer's answer. ``rules``: the rules in force (the fold's)."""
    number = h.start.number
    p = rev.author
    sides = tuple(intent.dice or ())
    refused = _no_draws(rev, number, "Hole Card Draw", rules) or _folded_out(rev, h)
    if refused:
        return refused
    if h.phase != "draw" or p in h.draws or p in h.pairs:
        return (Reject(rev, number, "already_drawn", f"{p} already has a Hole Card Draw "
                       f"({', '.join(str(x) for x in h.pairs[p][1:])}) in hand {number}"
                       if p in h.pairs else f"Hole Card Draws are over in hand {number}"),)
    draw_form = f"HAND#{number} DICE52 DICE52"
    if sides != (52, 52):
        # "unparseable" usually cites the Raise sentence; a draw rests on the draw sentence.
        return (Reject(rev, number, "unparseable", f"a Hole Card Draw is {draw_form} (two 52-sided dice)",
                       cite_as="deck", hint=f"Make a Hole Card Draw comment: `{draw_form}`."),)
    if config.forum_roller:
        results = tuple(rev.dice[:2])
        source = "forum"
        if len(results) != 2:
            return (Reject(rev, number, "unparseable", "the forum's dice roller gave no results"),)
    else:
        results = tuple(roll(h.start.dealt_from.dice, rev.forum_id, i, s) for i, s in enumerate(sides))
        source = "bot"
    out: list[Effect] = []
    for i, (s, r) in enumerate(zip(sides, results)):
        out.append(Row("dice", dict(hand=number, comment_id=rev.forum_id, player=p, index=i, sides=s,
                                    result=r, source=source)))
        out.append(Recorded(number, "dice", {"comment_id": rev.forum_id, "player": p, "index": i,
                                             "sides": s, "result": r, "source": source}))
    ok = dice_pair_ok(*results)
    due = None
    if ok:
        out.append(hand_set(number, pairs={**h.pairs, p: (rev.forum_id, results[0], results[1])}))
        out.append(Verdict(rev, number, "accepted", canonical=f"HAND#{number} DICE52 DICE52"))
    else:
        # the rule makes them draw again: their hours start again
        out.append(hand_set(number, redraws={**h.redraws, p: rev.created}))
        due = days.due_text(p, rev.created)
        out.append(Verdict(rev, number, "rejected", "identical_dice", f"both dice show {results[0]}: draw again",
                           rules.cite("identical_dice"), f"HAND#{number} DICE52 DICE52"))
    cite = rules.cite("identical_dice")
    out.append(Post(number, lambda k: say.dice_rolled(p, rev.permalink or rev.forum_id, sides, results, ok, cite, k, due),
                    rev.thread, reply_to=rev.forum_id))
    return tuple(out)


def draw(rev: Revision, h: HandState, intent: Any, rules: Ruleset) -> tuple[Effect, ...]:
    """A draw statement (the positions the dice gave, and the deck's checksum) by ``rev``'s
    author in hand ``h``: the deck and draw rows, the verdict, the answer, and round 1 when it
    was the last one waited for."""
    number, p = h.start.number, rev.author
    refused = _no_draws(rev, number, "draw statement", rules) or _folded_out(rev, h)
    if refused:
        return refused
    if h.phase != "draw" or p in h.draws:
        return (Reject(rev, number, "already_drawn", f"{p} has already stated a Hole Card Draw in hand {number}"),)
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
        return (Reject(rev, number, "draw_mismatch", "; ".join(problems)),)
    draws = {**h.draws, p: positions}
    out: list[Effect] = [hand_set(number, draws=draws)]
    if p not in h.decks:
        out += [hand_set(number, own_checksums={**h.own_checksums, p: stated}),
                Row("deck", dict(hand=number, player=p, source="own", checksum=stated)),
                Recorded(number, "decks", {"player": p, "source": "own", "checksum": stated})]
    out += [Row("draw", dict(hand=number, player=p, comment_id=rev.forum_id, positions=list(positions),
                             checksum=stated)),
            Recorded(number, "draws", {"player": p, "comment_id": rev.forum_id,
                                       "positions": list(positions), "checksum": stated}),
            Verdict(rev, number, "accepted", canonical=f"cards {', '.join(str(x) for x in positions)}, {stated}"),
            hand_set(number, since=rev.created)]
    waiting = waiting_in(h.hand, draws)
    issued = p in h.decks
    shown = h.decks[p].checksum if issued else stated
    out.append(Post(number, lambda k: say.draw_accepted(p, rev.permalink or rev.forum_id, positions,
                                                        shown, issued, waiting, k),
                    rev.thread, reply_to=rev.forum_id))
    if not waiting:
        out += [hand_set(number, phase="betting"),
                AdvanceHand(number, rev.permalink or f"comment {rev.forum_id}", rev.thread)]
    return tuple(out)


def stalled(ev: DealerEvent, st: TableState, config: TableConfig) -> tuple[Effect, ...]:
    """A recorded ``stalled`` event: the Hole Card Draw deadline passed while no seated
    player had drawn. The rule folds out a player who has not drawn only while someone
    else has, so there is nobody to fold out: say so in the thread, once (the shell tells
    the Dealer), and wait for the draws."""
    h = st.hands.get(ev.hand)
    if h is None or h.phase != "draw" or "" in h.timed_out:
        return ()
    days = st.days
    due = days.due("", h.start.started_at) or ev.at
    number, waiting = h.start.number, waiting_for_draws(h)
    return (hand_set(number, timed_out={**h.timed_out, "": ev.at}),  # over_days.STALL_MARK: said
            Post(number, lambda k: say.draw_stalled(number, days.when(due), waiting, config.name, k), h.start.thread))


def timeout(ev: DealerEvent, st: TableState, rules: Ruleset) -> tuple[Effect, ...]:
    """A recorded draw deadline: fold ``ev.player`` out, say so quoting the sentence that
    obliges every seated player to draw, then open round 1 (or pay the one player left)
    when nobody else is still to draw. An event that no longer applies (the player drew
    first) changes nothing. ``rules``: the rules in force (the fold's)."""
    h = st.hands.get(ev.hand)
    if h is None or h.phase != "draw":
        return ()
    since = dict(draw_clock(h)).get(ev.player)
    if since is None:
        return ()
    number = h.start.number
    put_in, pot = h.hand.seat(ev.player).total_bet, h.hand.pot
    folded = engine.apply(h.hand, FoldOut(ev.player))
    if isinstance(folded, engine.Rejection):  # pragma: no cover - draw_clock lists only players still in
        raise FoldError("bad_input", f"cannot fold {ev.player} out of hand {number}: {folded.message}")
    waiting = waiting_in(folded, h.draws)
    left = [s.name for s in folded.seats if not s.folded]
    cause = f"dealer: {ev.player}'s Hole Card Draw deadline passed at {ev.at}"
    note, change = away.timed_out(st, ev.player)  # AWOL, or sitting out after too many
    days = st.days
    when = days.when if h.edition >= 2 else str  # as reminders state times (edition 1: ISO)
    hours, cite = days.settings.deadline_hours, rules.cite("deck")
    out: tuple[Effect, ...] = (
        hand_set(number, step=("", ev.at), hand=folded, timed_out={**h.timed_out, ev.player: ev.at}, since=ev.at),
        change,
        Post(number, lambda k: say.draw_timed_out(ev.player, number, when(since), hours, when(ev.at), put_in, pot,
                                                  waiting, left, cite, k, note), h.start.thread))
    if folded.result is not None or not waiting:
        return out + (hand_set(number, phase="betting"),
                      AdvanceHand(number, cause, h.start.thread, said=True))  # draw_timed_out said it
    return out + (LogSteps(number, cause), LogChanges(number, cause))
