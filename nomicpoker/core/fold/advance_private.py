"""Advance actions sent privately, and what is shown when the hand ends (pure).

WHY private: WRGPT's manual (seed ``000_…``) recommends advance bets because "the dealer is the
only account to receive your mail, no one will find out about your advance bets". Where the
forum lets the Dealer read its own inbox (``Abilities.private_inbox``: the local forum), the
shell archives a private message from a seated player like a comment, in the pseudo-thread
:data:`PRIVATE_THREAD` (:mod:`nomicpoker.shell.cycle.private_inbox`), so the fold reads it in archive
order with everything else and ``audit`` replays it. This module is the fold's side:

- a private message is about the hand running when it is archived; its first visible line is
  an advance action (or ``UNDO``); anything else is answered privately and changes nothing
  (other commands belong in the thread, where the table sees them), but for a player's
  tournament commands at a tournament's table (:func:`tournament_ask`);
- every answer goes privately (the confirmation, a refusal), and the ledger's verdict keeps
  the code but not the action's words until the hand ends;
- when the hand ends the dealer posts every advance action that came privately (and ``UNDO``)
  in the thread, and shows the cards of players who asked for it with ``/R`` ("reveal on
  fold") and were not shown at the showdown.

A phase without a hub (:mod:`.effects`): :func:`comment` and :func:`unnamed` read the fold's
state and return what happened; an advance action found in a message is handed on as a
:class:`~nomicpoker.core.fold.effects.TakeAdvance` request, which the fold gives to the
advance-action phase. :func:`reply` and :func:`refuse` are the answers both phases give.
"""

from __future__ import annotations

from datetime import datetime, timezone

from nomicpoker.core.fold import editions
from nomicpoker.core.fold.effects import Effect, Message, Post, Reject, TakeAdvance, Verdict
from nomicpoker.core.reading.advance import AdvanceError
from nomicpoker.core.reading.comment_reading import Reading, first_line  # noqa: F401 - first_line: its old home
from nomicpoker.core.reading.player_commands import Command
from nomicpoker.core.poker.cards import pretty
from nomicpoker.core.fairness.dealing import hole_cards
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DealerEvent, Revision, TableConfig
from nomicpoker.core.words.gndt import md_escape
from nomicpoker.core.words.tags import reference_tag

#: the archive's thread for private messages to the Dealer (no forum thread reference starts
#: with "~": local slugs are [a-z0-9-], Reddit ids alphanumeric, blog threads URLs)
PRIVATE_THREAD = "~private"

#: the dealer event answering a private message that reached none of the sender's tables (its
#: subject names none while they sit at several, or names only tables they do not sit at):
#: recorded by the shell at the first of those tables (:mod:`nomicpoker.shell.cycle.private_inbox`)
#: with the tables in its data, since the other tables are outside this table's inputs
UNNAMED_PRIVATE = "unnamed_private"


def unnamed_answer(player: str, received: str, tables: list[str], named: list[str], by_line: bool,
                   edition: int = 2) -> tuple[str, str]:
    """The private answer to a message that reached no table: which tables the player sits
    at and how to name one (``by_line``: a chat, whose private lines have no subject, names
    it with a tag at the start of the line). It never repeats the message (it may be an
    advance action): only when it came (in words from ``edition`` 2, in ISO form before: a
    table of edition 1 replays its answers as they were sent). Nothing was applied."""
    listed = ", ".join(f"`{t}`" for t in tables)
    if named:
        why = "names no table you sit at now (it names " + ", ".join(f"`{t}`" for t in named) + ")"
    else:
        why = "names no table"
    example = tables[0]
    if by_line:
        how = (f"Send it again starting with the table's tag: `({example}) CALL *` or `[{example}] CALL *` "
               "(the tag, then the message).")
    else:
        how = (f"Send it again with the table in the subject: the table's name alone (`{example}`), "
               f"or anywhere in the subject as `({example})`, `[{example}]` or `table {example}` "
               "(a reply to one of the Dealer's private messages for that table keeps its tag).")
    body = (f"{md_escape(player)}: your private message of {md_escape(_moment(received) if edition >= 2 else received)} {why}, and you sit at "
            f"{len(tables)} table{'s' if len(tables) != 1 else ''}: {listed}. Nothing was done with it. {how}\n")
    return "Your message to the Dealer: which table?", body


def _moment(received: str) -> str:
    """When a message came, in words a player reads ("2026-11-23 14:05 UTC"), not ISO."""
    try:
        when = datetime.fromisoformat(received)
    except ValueError:
        return received
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M UTC")


def reply(rev: Revision, number: int, text: str, config: TableConfig) -> Effect:
    """The answer to an advance action ``rev``, where it came from: in the thread, or privately
    (a private message, or a forum whose players do not read the thread: the table must not
    learn of it)."""
    if rev.thread == PRIVATE_THREAD or config.answers_privately():
        return Message(number, rev.author, f"Your advance action in hand {number} ({config.name})", text + "\n")
    return Post(number, lambda k: f"{text}\n\n{reference_tag(k)}\n", rev.thread, reply_to=rev.forum_id)


def refuse(rev: Revision, number: int, code: str, message: str, config: TableConfig) -> tuple[Effect, ...]:
    """A refused advance action: in the thread as any rejection, or privately (the ledger's
    verdict then keeps the code, not the words, until the hand ends)."""
    if rev.thread != PRIVATE_THREAD:
        return (Reject(rev, number, code, message),)
    return (Verdict(rev, number, "rejected", code),
            reply(rev, number, f"{md_escape(rev.author)}: your private advance action was not "
                  f"taken ({code}): {message}.", config))


def unnamed(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    """A recorded :data:`UNNAMED_PRIVATE` event: answer the sender privately. The answer
    holds nothing of a hand (no seal needed, so it goes even between hands)."""
    d = ev.data
    subject, body = unnamed_answer(ev.player, str(d.get("received", ev.at)), list(d.get("tables", [])),
                                   list(d.get("named", [])), bool(d.get("by_line")), editions.edition_of(st))
    return (Message(None, ev.player, subject, body),)


#: the players' commands a private message may hold at a tournament's table
#: (``TableSettings.private_asks``): answered by the shell (:mod:`nomicpoker.shell.tournament.asks`)
PRIVATE_ASKS = ("seatlog", "rail")


def tournament_ask(rev: Revision, reading: Reading, st: TableState) -> tuple[Effect, ...]:
    """A private message that is one of a player's tournament commands (``SEATLOG``, ``RAIL``,
    ``RAIL OFF``, alone on its line, and no other command) at a tournament's table made with
    ``private_asks``: an accepted verdict, which the shell answers by private message as it
    does the same command in the thread (WRGPT's players mailed the Dealer: "At any time during
    the tournament, players can get a detailed report about the starting seat assignment by
    using the SEATLOG command."). Empty otherwise: the message is read as before (advance
    actions only), and so is a message whose first line is an advance action (``CALL *`` then
    ``RAIL`` below it: the action is taken, never dropped for the command). Between hands too:
    the answer holds nothing of a hand."""
    if not st.days.settings.private_asks or reading.text.looks_advance:
        return ()  # an advance action on the first line is read as ever: a command below it changes nothing
    cmds = reading.text.commands
    if len(cmds) != 1 or not isinstance(cmds[0], Command) or cmds[0].kind not in PRIVATE_ASKS:
        return ()
    h = st.current
    number = h.start.number if h is not None and h.phase != "complete" else None
    return (Verdict(rev, number, "accepted", canonical=cmds[0].canonical),)


def comment(rev: Revision, reading: Reading, st: TableState, config: TableConfig,
            advance_on: bool) -> tuple[Effect, ...]:
    """``private``: read one private message, about the running hand of the fold's state ``st``
    (only read); ``advance_on``: the table takes advance actions. An advance action in it is
    handed to the advance-action phase (:class:`TakeAdvance`); anything else is answered."""
    asked = tournament_ask(rev, reading, st)
    if asked:
        return asked
    h = st.current
    if h is None or h.phase == "complete":
        # no hand to seal an answer with: the verdict says why, nothing is sent
        return (Verdict(rev, None, "ignored", "no_hand", "a private message while no hand is running"),)
    number = h.start.number
    seat = h.hand.find_seat(rev.author)

    def ignore(code: str, message: str) -> tuple[Effect, ...]:
        return (Verdict(rev, number, "ignored", code, message),
                reply(rev, number, f"{md_escape(rev.author)}: {message}.", config))

    if not advance_on:
        return ignore("advance_off", "advance actions are not taken at this table")
    if seat is None or seat.folded:
        return ignore("not_seated", f"you are not in hand {number}")
    if h.phase != "betting" and h.phase != "draw":
        return ignore("betting_over", f"the betting of hand {number} is over")
    if not reading.text.looks_advance:
        return ignore("private_not_advance", "only advance actions (and UNDO) are read in private messages; "
                      "post anything else in the hand's thread")
    p = reading.text.program
    if isinstance(p, AdvanceError):
        return refuse(rev, number, p.code, p.message, config)
    assert p is not None
    to_act = h.hand.to_act
    my_turn = (h.phase == "betting" and to_act is not None
               and h.hand.seats[to_act].name == rev.author)
    return (TakeAdvance(rev, number, p, my_turn),)


def _known_cards(h: HandState, p: str) -> tuple[str, ...] | None:
    if p in h.holes:
        return tuple(h.holes[p])
    if p in h.decks and p in h.draws:
        return tuple(hole_cards(h.decks[p].cards, h.draws[p]))
    return None


def shown_on_request(h: HandState) -> str:
    """The hand-end words for ``/R`` and private advance actions ("" when there are none); a
    hand of edition 1 gives each private action's time in ISO form, as it was posted."""
    lines: list[str] = []
    shown = {r["player"] for r in h.record.get("reveals", [])}
    for p in sorted(h.reveal_asked - shown):
        seat = h.hand.find_seat(p)
        how = "folded" if seat is not None and seat.folded else "not shown at the showdown"
        cards = _known_cards(h, p)
        if cards is None:
            lines.append(f"{md_escape(p)} asked for their cards to be shown (/R), but they come from "
                         f"their own deck: the dealer does not know them.")
        else:
            lines.append(f"{md_escape(p)} asked for their cards to be shown (/R): "
                         f"{' '.join(pretty(c) for c in cards)} ({how}).")
    if h.private_advance:
        sent = "; ".join(f"{md_escape(p)} at {md_escape(_moment(when) if h.edition >= 2 else when)}: {md_escape(text)}"
                         for p, when, text in h.private_advance)
        lines.append(f"Advance actions sent privately in hand {h.start.number}: {sent}.")
    return "\n\n".join(lines)
