"""Play over days, in the fold (pure): the players' commands, vacations, timeouts and sitting
out, reminders, flood protection and WHAT. The Dealer's controls (protest resolution, pause,
void, fold, seat) are in :mod:`nomicpoker.core.fold.dealer_controls`.

Readings (docs/dealer-guide.md, "Running a game over days"), after the WRGPT manual:

- ``GONE <until>``: from now on the dealer acts for the player at once: each turn is checked
  if that is legal, otherwise folded; antes and blinds are posted as for anyone seated; in a
  Hole Card Draw they have not made, they are folded out. The table hears of it at the end of
  the hand (not at once: "to prevent people from going on vacation with no intention of
  really leaving town"), and from then the status table shows ``V`` and the first six
  characters of the until-string. ``BACK`` ends it at any time; a player not yet folded plays
  on. ``GONE RESIGN`` is a vacation for good: no ``BACK``.
- At a showdown the dealer shows a vacationing player's cards where it knows them (dealt from
  its deck, or drawn from a deck it issued), unless the table's ``vacation_can_win`` is off
  (the default) and they went before this hand began: "You cannot win a contested hand while
  on vacation. Exception: you can win the hand during which you go on vacation." Then, and
  where it does not know the cards, they muck. At a tournament's table (``wrgpt_vacation``) a
  showdown that no player present reaches is not contested (:func:`contested`): the away
  players' cards decide it; and pot by pot, a side pot only players away are in is decided by
  their cards, shown with a bar that keeps them out of the pots a present player is in
  (:func:`away_pots`).
- A timeout marks the player AWOL until they act; after ``max_timeouts`` in a row they sit
  out later hands until they comment ``BACK`` (the bot server of seed ``002_…``).
- ``START h`` sets the player's start of day from the next hand.
- Flood protection: past ``flood_threshold`` invalid comments from one author in one hand,
  one notice says further invalid comments are ignored until their next valid action; they
  then get a verdict (``ignored``, code ``flood``) and no dealer comment.

A phase without a hub (:mod:`.effects`): every entry point is a function of the fold's state
(only read), the table's configuration and its input, and returns what happened as values (the
changes to play over days and to the hand, the dealer's comments and private messages, the
requests to move the hand on). The fold applies them in order, and runs a comment's commands one
after the other (:func:`command`), so each sees the state the one before it left. A helper
that must see a change it makes (``WHAT`` after its own verdict) works on the changed value
(:func:`acted`), never on the fold's state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from nomicpoker.core.words import days_notices as words
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import FoldOut, Muck, Reveal, Timeout
from nomicpoker.core.poker.showdown import pots_at_showdown
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.core.reading.comment_reading import TextReading, first_line
from nomicpoker.core.words.notices import deck_listing
from nomicpoker.core.fairness.dealing import hole_cards
from nomicpoker.core.table.days_state import REMINDER, Alarm, DaysState, wait_alarms
from nomicpoker.core.fold import away, editions
from nomicpoker.core.fold.dealer_controls import unfreeze, without
from nomicpoker.core.fold.draws import draw_clock, waiting_for_draws, waiting_in
from nomicpoker.core.fold.effects import (AdvanceHand, DaysSet, Effect, LogChanges, LogSteps, Message, Post, Recorded,
                                          Reject, Row, Verdict, days_set, hand_set)
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DRAW_TIMEOUT, STALLED, TURN_TIMEOUT, DealerEvent, Revision, TableConfig
from nomicpoker.core.reading.markup import table_talk
from nomicpoker.core.reading.player_commands import Command, CommandError, CommandResult, hides_action

#: ``HandState.timed_out`` key recording that the hand's stalled draw deadline was said (no
#: player is named "")
STALL_MARK = ""

Effects = tuple[Effect, ...]


def waits(h: HandState) -> list[tuple[str, str]]:
    """``(player, since)`` for each player the hand waits on now."""
    if h.phase == "draw":
        return [(p, h.redraws.get(p, h.start.started_at)) for p in waiting_for_draws(h)]
    need = engine.need(h.hand)
    if h.phase == "betting" and need.kind == "action":
        return [(need.players[0], h.since)]
    if h.phase == "reveal" and need.kind == "reveal":
        return [(p, h.since) for p in need.players]
    return []


def alarms(days: DaysState, h: HandState | None) -> tuple[Alarm, ...]:
    """The reminders and deadlines still to come in the current wait (see
    :mod:`nomicpoker.core.table.days_state`): the draw deadline only for players it may fold out
    (:func:`nomicpoker.core.fold.draws.draw_clock`)."""
    if h is None or h.phase == "complete":
        return ()
    if h.phase == "draw":
        clock = dict(draw_clock(h))
        out = [a for a in wait_alarms(days, h.start.number, waits(h), DRAW_TIMEOUT)
               if a.kind == REMINDER or a.player in clock]
        if not clock and waiting_for_draws(h) and STALL_MARK not in h.timed_out and not days.frozen:
            # nobody has drawn: the deadline can fold nobody out; said once when it passes
            due = days.due("", h.start.started_at)
            if due is not None:
                out.append(Alarm(due, STALLED, h.start.number, ""))
        return tuple(out)
    return tuple(wait_alarms(days, h.start.number, waits(h), TURN_TIMEOUT))


# -- comments ---------------------------------------------------------------------------------

def hold(days: DaysState, rev: Revision, text: TextReading) -> Effects:
    """While the table is frozen, keep the comment for later (the change; none: read it now);
    the protester's ``UNDO`` passes."""
    if not days.frozen or undoes_protest(days, rev, text):
        return ()
    return (days_set(held=[*days.held, rev]),)


def undoes_protest(days: DaysState, rev: Revision, text: TextReading) -> bool:
    """``rev`` is the protester's ``UNDO`` while their protest freezes the table.

    WHY it comes before the advance-action reading (where a bare ``UNDO`` withdraws an
    advance action): a player who has just protested and writes ``UNDO`` means the protest,
    the one thing of theirs open at a frozen table (no advance action fires during a
    freeze). Anyone else's ``UNDO``, or the protester's once the freeze is over, is read
    as withdrawing their advance action (docs/comment-grammar.md). A private message is
    never a protest's ``UNDO``: private messages carry only advance actions."""
    return (days.frozen == "protest" and rev.thread != PRIVATE_THREAD and rev.revision == 1
            and not rev.deleted and rev.author == days.protester and text.undoes())


def reads_commands(rev: Revision, cmds: tuple[CommandResult, ...], config: TableConfig) -> bool:
    """Whether the comment's commands ``cmds`` are applied (a player's, and there are some)."""
    return bool(cmds) and rev.author in config.players


def command(rev: Revision, cmd: CommandResult, number: int | None, st: TableState, config: TableConfig) -> Effects:
    """One of the comment's commands (the fold applies them in order, each after the one before)."""
    if isinstance(cmd, CommandError):
        return (Reject(rev, number, cmd.code, cmd.message),)
    return COMMANDS[cmd.kind](rev, cmd, number, rev.permalink or rev.forum_id, st, config)


def commands_done(no_action: bool, cmds: tuple[CommandResult, ...]) -> bool:
    """True when nothing else in the comment is to be read after its commands (it held only
    commands, or a protest whose text is for the Dealer)."""
    return no_action or hides_action(cmds)


def after_commands(rev: Revision, st: TableState, config: TableConfig) -> Effects:
    """A comment of commands only: what the dealer does now for players away is made by it."""
    h = away.running(st)
    if h is None:
        return act_for_away(st, config)
    step = (rev.forum_id, rev.created)
    return (hand_set(h.start.number, step=step),) + _act_for_away(st, config, replace(h, step=step))


def _verdict(rev: Revision, number: int | None, cmd: Command, message: str = "") -> Verdict:
    return Verdict(rev, number, "accepted", message=message, canonical=cmd.canonical)


def _gone(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    p, d = rev.author, st.days
    if p in d.resigned:
        return (Reject(rev, number, "resigned", f"{p} has resigned from the game"),)
    cur = away.running(st)
    out: Effects = (days_set(vacation={**d.vacation, p: cmd.arg},
                             vacation_hand={**d.vacation_hand, p: cur.start.number if cur else 0}),
                    _verdict(rev, number, cmd))
    seal = _sealing_hand(st, number)
    if config.private and seal is not None:
        out += (Message(seal, p, f"Vacation at {config.name}", words.vacation_private(p)),)
    return out


def _resign(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    return (_gone(rev, Command("gone", "RESIGN", cmd.text), number, ref, st, config)
            + (days_set(resigned=st.days.resigned | {rev.author}),))


def _back(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    p, d = rev.author, st.days
    if p in d.resigned:
        return (Reject(rev, number, "resigned", f"{p} has resigned from the game: there is no "
                       "coming BACK after GONE RESIGN"),)
    sat_out = d.sitting_out.get(p) == "timeouts"
    # WRGPT: "Vacations are announced to the rest of the table at the end of a hand": a
    # vacation the table never heard of ends without a word to it (where players see only
    # what the Dealer sends them; elsewhere the BACK comment is in the thread anyway)
    unheard = p in d.vacation and p not in d.announced and not sat_out
    change: dict[str, Any] = {book: {k: v for k, v in getattr(d, book).items() if k != p}
                              for book in ("vacation", "vacation_hand", "timeouts")}
    change.update(announced=without(d.announced, p), awol=without(d.awol, p))
    if sat_out:
        change["sitting_out"] = {k: v for k, v in d.sitting_out.items() if k != p}
    out: Effects = (DaysSet(change), _verdict(rev, number, cmd))
    if unheard and editions.mails_like_wrgpt(config, st, st.hands.get(number)):  # type: ignore[arg-type]
        seal = _sealing_hand(st, number)
        if seal is not None:
            out += (Message(seal, p, f"Back at {config.name}", f"{p}, you are back: you act for yourself again.\n"),)
        return out
    return out + (Post(number, lambda k: words.back(p, ref, k, sat_out), rev.thread, rev.forum_id),)


def _start(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    hour = int(cmd.arg)
    return (days_set(pending_start={**st.days.pending_start, rev.author: hour}), _verdict(rev, number, cmd),
            Post(number, lambda k: words.start_hour(rev.author, hour, ref, k), rev.thread, rev.forum_id))


def _protest(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    out: Effects = (days_set(frozen="protest", protester=rev.author), _verdict(rev, number, cmd, message=cmd.arg),
                    Post(number, lambda k: words.protest_filed(rev.author, ref, k), rev.thread, rev.forum_id))
    floorman = st.days.settings.floorman
    seal = _sealing_hand(st, number)
    if floorman and config.private and seal is not None:
        out += (Message(seal, floorman, f"Protest at {config.name}",
                        words.protest_private(rev.author, config.name, ref, cmd.arg)),)
    return out


def _sealing_hand(st: TableState, number: int | None) -> int | None:
    """The hand whose secrets seal a private notice about a comment in hand ``number``'s
    thread: that hand, else (a thread with no hand) the latest hand; ``None`` before any
    hand, when nothing can seal it and the notice is not sent (the verdict stands).

    WHY: the ledger keeps a private message as an HMAC keyed by a hand's secrets
    (:mod:`nomicpoker.core.fairness.sealed`); a GONE or PROTEST posted outside a hand's thread on a
    forum with private messages asked for the secrets of a hand 0 that never exists, and
    the KeyError stopped the table's poll at every later run."""
    if number is not None and number in st.hands:
        return number
    cur = st.current
    return cur.start.number if cur is not None else None


def _undo(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    d = st.days
    if d.frozen != "protest" or d.protester != rev.author:
        return (Reject(rev, number, "nothing_to_undo", f"{rev.author} has no protest to withdraw"),)
    return (_verdict(rev, number, cmd),) + unfreeze(st, rev.created, f"{rev.author} withdraws the protest", "", rev.thread)


def _what(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState, config: TableConfig) -> Effects:
    p = rev.author
    h = st.hands.get(number) if number is not None else None
    # the state after this comment's own verdict (an accepted WHAT is an action: no longer AWOL)
    lines = _state_lines(replace(st.days, **acted(st.days, p, number).fields), st.money, p, h)
    out: Effects = (_verdict(rev, number, cmd),)
    if editions.mails_like_wrgpt(config, st, h):  # e-mail: WRGPT answers WHAT to the asker alone
        out += (Message(number if h is not None else None, p, f"Your state at {config.name}",
                        words.what_public(p, ref, lines, f"{config.name}-h{number or 0}-answer")),)
    else:
        out += (Post(number, lambda k: words.what_public(p, ref, lines, k), rev.thread, rev.forum_id),)
    if h is None or not config.private or h.hand.find_seat(p) is None:
        return out
    deck = h.decks.get(p)
    body = words.what_private(p, config.name, h.start.number, h.holes.get(p),
                              deck_listing(deck) if deck is not None else None, h.draws.get(p))
    return out + (Message(h.start.number, p, f"Your state in hand {h.start.number} ({config.name})", body),)


def _tournament_ask(rev: Revision, cmd: Command, number: int | None, ref: str, st: TableState,
                    config: TableConfig) -> Effects:
    """``SEATLOG``, ``RAIL``, ``RAIL OFF``: accepted at a tournament's table, where the shell
    answers the accepted verdict with the tournament's data (the seat log, the rail:
    :mod:`nomicpoker.shell.tournament.asks`), which no table's fold holds; refused elsewhere."""
    if not st.days.settings.tournament:
        return (Reject(rev, number, "not_a_tournament", f"{cmd.canonical} is a tournament's command, and "
                       f"table {config.name} is not a tournament's table"),)
    return (_verdict(rev, number, cmd),)


def _state_lines(d: DaysState, money: dict[str, int], p: str, h: HandState | None) -> list[str]:
    running = h is not None and h.phase != "complete"
    lines = [] if running and h.hand.find_seat(p) is not None else [f"Money: {money.get(p, 0)}."]  # type: ignore[union-attr]
    if running:
        assert h is not None
        seat = h.hand.find_seat(p)
        lines.append(f"Hand {h.start.number}, {h.phase}; pot {h.hand.pot}.")
        if seat is None:
            lines.append("Not seated in this hand.")
        else:
            lines.append(f"In this hand: {seat.total_bet} put in, {seat.money} behind"
                         + (", folded." if seat.folded else "."))
        for who, since in waits(h):
            due = d.due_text(who, since)
            lines.append(f"Waiting for {who}" + (f" until {due}." if due else "."))
    status = ("resigned" if p in d.resigned else f"on vacation ({d.vacation[p] or 'no date'})"
              if p in d.vacation else "sitting out" if p in d.sitting_out else
              "AWOL" if p in d.awol else "active")
    lines.append(f"Status: {status}.")
    start = d.pending_start.get(p, d.start_hour.get(p))
    if start is not None:
        lines.append(f"Your start of day: {start}:00.")
    return lines


#: the handler of each players' command (``CommandKind``): a new command adds one here
COMMANDS: dict[str, Callable[[Revision, Command, int | None, str, TableState, TableConfig], Effects]] = {
    "gone": _gone, "resign": _resign, "back": _back, "start": _start, "protest": _protest, "undo": _undo,
    "what": _what, "seatlog": _tournament_ask, "rail": _tournament_ask}


def note_talk(rev: Revision, h: HandState | None) -> Effects:
    """Keep the table talk a comment of hand ``h`` came with, for the payout (WRGPT: "all
    table talk is shown interspersed with action in the showdown messages")."""
    talk = table_talk(rev.body, rev.body_format) if editions.shows_talk(h) else ()
    if h is None or not any(t.strip() for t in talk):
        return ()
    entry = [rev.author, rev.created, first_line(rev.body, rev.body_format), "\n".join(talk).strip()]
    return (hand_set(h.start.number, talk=[*h.talk, entry]),)


def _told(st: TableState, config: TableConfig, player: str) -> bool:
    """Whether the table knows ``player`` is away: announced at the end of a hand (WRGPT),
    or written where every player reads it (a GONE comment in a thread; only e-mail keeps
    a player's GONE between the player and the Dealer)."""
    return player in st.days.announced or not editions.mails_like_wrgpt(config, st)


# -- accepted actions and floods ----------------------------------------------------------------

def acted(d: DaysState, author: str, hand: int | None) -> DaysSet:
    """An accepted action: no longer AWOL, the timeout count and flood count start over."""
    change: dict[str, Any] = {}
    if author in d.awol and author not in d.vacation:
        # the AWOL "vacation" ends with this action
        change["vacation_hand"] = {k: v for k, v in d.vacation_hand.items() if k != author}
    change["awol"] = without(d.awol, author)
    change["timeouts"] = {k: v for k, v in d.timeouts.items() if k != author}
    if hand is not None:
        change["invalid"] = {k: v for k, v in d.invalid.items() if k != (hand, author)}
        change["flooded"] = d.flooded - {(hand, author)}
    return DaysSet(change)


def flood_gate(rev: Revision, hand: int | None, code: str, message: str, citation: str, st: TableState,
               config: TableConfig) -> tuple[bool, Effects]:
    """Count an invalid comment; past the threshold, give one notice and then ignore (True:
    the verdict is among the effects, and no rejection reply is to be posted)."""
    if hand is None or rev.author not in config.players:
        return False, ()
    d, key = st.days, (hand, rev.author)
    n = d.invalid.get(key, 0) + 1
    count = days_set(invalid={**d.invalid, key: n})
    limit = d.settings.flood_threshold
    if n <= limit:
        return False, (count,)
    if key not in d.flooded:
        return True, (count, days_set(flooded=d.flooded | {key}), Verdict(rev, hand, "rejected", code, message, citation),
                      Post(hand, lambda k: words.flood(rev.author, hand, limit, k), rev.thread, rev.forum_id))
    return True, (count, Verdict(rev, hand, "ignored", "flood", f"{code}: {message}"))


# -- the dealer acting for players ----------------------------------------------------------

def act_for_away(st: TableState, config: TableConfig) -> Effects:
    """Whatever the running hand waits for from a player on vacation, done at once."""
    h = away.running(st)
    return () if h is None else _act_for_away(st, config, h)


def _act_for_away(st: TableState, config: TableConfig, h: HandState) -> Effects:
    if h.phase == "draw":
        return fold_out_away(st, config, h)
    if h.phase == "betting":
        return away_to_act(st, config, h)
    if h.phase == "reveal":
        return away_reveals(st, config, h)
    return ()


def away_to_act(st: TableState, config: TableConfig, h: HandState, opening: str = "") -> Effects:
    """The player to act is on vacation: check if legal, else fold, now (none: he is not
    away, and the hand is not moved on). ``opening``: the action before, not announced yet,
    said first."""
    d = st.days
    need = engine.need(h.hand)
    if need.kind != "action" or not d.away(need.players[0], away.awol_away(st)):
        return ()
    p = need.players[0]
    res = engine.apply(h.hand, Timeout(player=p))
    if isinstance(res, engine.Rejection):  # pragma: no cover - a timeout is always legal in turn
        return ()
    number = h.start.number
    # the next player's clock starts with this step
    out: Effects = (hand_set(number, hand=res, since=h.step[1] or h.since),)
    what = "folds" if res.seat(p).folded else "checks"
    note = ""
    if p in d.awol and p not in d.vacation:
        note, change = away.missed(st, p)
        out += (DaysSet(change),)
    told = _told(st, config, p)
    return out + (Post(number, lambda k: words.away_acts(p, what, k, opening, note, announced=told), h.start.thread),
                  AdvanceHand(number, f"dealer: {p} is away and {what}", h.start.thread, said=True))


def away_reveals(st: TableState, config: TableConfig, h: HandState) -> Effects:
    """Players on vacation at a showdown: shown where the dealer knows their cards and the
    table lets them win, mucked otherwise (none: nobody was away)."""
    need = engine.need(h.hand)
    if need.kind != "reveal":
        return ()
    d, number = st.days, h.start.number
    for p in need.players:
        if not d.away(p, away.awol_away(st)):
            continue
        known = h.holes.get(p) or (hole_cards(h.decks[p].cards, h.draws[p])
                                    if p in h.decks and p in h.draws else None)
        may_win = entitled(d, p, number) or (d.settings.wrgpt_vacation and not contested(st, h))
        barred = not may_win and d.settings.wrgpt_vacation and bool(away_pots(st, h, p))
        rows: Effects = ()
        if known and (may_win or barred):
            res = engine.apply(h.hand, Reveal(player=p, cards=tuple(known), hand=number, barred=barred))
            what = "shows " + " ".join(known)
            if not isinstance(res, engine.Rejection):
                rows = (Row("reveal", dict(hand=number, player=p, comment_id="", cards=list(known))),
                        Recorded(number, "reveals", {"player": p, "comment_id": "", "cards": list(known)}))
        else:
            res = engine.apply(h.hand, Muck(player=p))
            what = "mucks"
        if isinstance(res, engine.Rejection):  # pragma: no cover - engine contract
            continue
        told = _told(st, config, p)
        note = words.away_side_pot_note(p) if barred and what != "mucks" else ""
        return rows + (hand_set(number, hand=res),
                       Post(number, lambda k, p=p, what=what, t=told, n=note: words.away_acts(p, what, k, note=n,
                                                                                          announced=t),
                            h.start.thread),
                       AdvanceHand(number, f"dealer: {p} is away and {what}", h.start.thread, said=True))
    return ()


def entitled(d: DaysState, p: str, number: int) -> bool:
    """Whether player ``p``, away, may still win hand ``number`` whatever the others: the
    table's ``vacation_can_win``, or WRGPT's "Exception: you can win the hand during which you
    go on vacation." (he went during this very hand)."""
    return d.settings.vacation_can_win or d.vacation_hand.get(p) == number


def contested(st: TableState, h: HandState) -> bool:
    """Whether the showdown of hand ``h`` is *contested* in WRGPT's sense ("You cannot win a
    contested hand while on vacation."): a player still in it (not folded) who may win it, one
    who is not away or who went away during this very hand (the exception: he may win it, so
    he contests it). At a tournament's table (``wrgpt_vacation``) a showdown only the other
    players away reach (all in on their blinds, or checked down by the dealer) is not: their
    cards decide it, where the dealer knows them, since somebody must win it and nobody who
    may win it was denied."""
    awol, d, number = away.awol_away(st), st.days, h.start.number
    return any(not s.folded and (not d.away(s.name, awol) or entitled(d, s.name, number)) for s in h.hand.seats)


def away_pots(st: TableState, h: HandState, player: str) -> tuple[int, ...]:
    """The pots of hand ``h`` (their indices, main pot 0) that ``player`` is eligible for and no
    player who may win (:func:`contested`'s: not away, or away since this very hand) is in: a
    side pot only players away reach, beside a main pot a present player contests. Nobody
    present contests it, so at a tournament's table (``wrgpt_vacation``) the cards of the
    players away in it decide it, as they decide a showdown only players away reach: the
    dealer shows ``player``'s cards with a bar (``Reveal.barred``) that keeps them out of every
    pot a player who may win is in."""
    awol, d, number = away.awol_away(st), st.days, h.start.number
    seats = h.hand.seats
    me = next(i for i, s in enumerate(seats) if s.name == player)
    may = {i for i, s in enumerate(seats)
           if not s.folded and (not d.away(s.name, awol) or entitled(d, s.name, number))}
    return tuple(k for k, pot in enumerate(pots_at_showdown(h.hand))
                 if me in pot.eligible and not may & set(pot.eligible))


def fold_out_away(st: TableState, config: TableConfig, h: HandState) -> Effects:
    """Hole Card Draws a player on vacation has not made: folded out at once (while
    someone not on vacation is still in the hand). Each fold-out is applied to the hand the
    one before left (a value: the fold has the hand only when the effects are applied)."""
    d, number = st.days, h.start.number
    hand = h.hand
    out: Effects = ()
    for p in waiting_for_draws(h):
        left = [s.name for s in hand.seats if not s.folded]
        awol = away.awol_away(st)
        if not d.away(p, awol) or all(d.away(x, awol) for x in left if x != p) or len(left) < 2:
            continue
        res = engine.apply(hand, FoldOut(p))
        if isinstance(res, engine.Rejection):  # pragma: no cover - waiting players are in
            continue
        hand = res
        told = _told(st, config, p)
        out += (hand_set(number, hand=res),
                Post(number, lambda k, p=p, t=told: words.away_acts(p, "folds (no Hole Card Draw)", k, announced=t),
                     h.start.thread))
    cause = "dealer: players away folded out"
    if hand.result is not None or (not waiting_in(hand, h.draws) and h.draws):
        return out + (hand_set(number, phase="betting"), AdvanceHand(number, cause, h.start.thread, said=True))
    return out + (LogSteps(number, cause), LogChanges(number, cause))


# -- hand boundaries -------------------------------------------------------------------------

def begin_hand(d: DaysState) -> DaysSet:
    """A hand starts: ``START`` hours asked for during the last one apply from now."""
    return days_set(start_hour={**d.start_hour, **d.pending_start}, pending_start={}, reminded={})


def hand_ended(d: DaysState, h: HandState) -> Effects:
    """Announce the vacations the table has not heard of (WRGPT: at the end of a hand)."""
    new = {p: u for p, u in d.vacation.items() if p not in d.announced and p not in d.resigned}
    resigned = sorted(p for p in d.resigned if p not in d.announced)
    if not new and not resigned:
        return (days_set(reminded={}),)
    return (days_set(reminded={}, announced=d.announced | set(new) | set(resigned)),
            Post(h.start.number, lambda k: words.vacations_announced(new, resigned, k), h.start.thread))


# -- reminders ---------------------------------------------------------------------------------

def reminder(ev: DealerEvent, st: TableState, config: TableConfig) -> Effects:
    """A recorded reminder: the player waited on is told how long is left (once per wait and
    number)."""
    h = away.running(st)
    if h is None or h.start.number != ev.hand:
        return ()
    since = dict(waits(h)).get(ev.player)
    if since is None:
        return ()
    d = st.days
    n = int(ev.data.get("n", 1)) if ev.data else 1
    sent_since, sent = d.reminded.get(ev.player, ("", 0))
    if sent_since == since and n <= sent:
        return ()
    out: Effects = (days_set(reminded={**d.reminded, ev.player: (since, n)}),)
    due = d.due_text(ev.player, since) or "none"
    what = ("state your Hole Card Draw" if h.phase == "draw" else
            "reveal your cards" if h.phase == "reveal" else "act")
    mention = config.mention.replace("{name}", ev.player)
    of = d.settings.reminders
    if not config.answers_privately():  # e-mail: the reminder goes to the player alone
        out += (Post(ev.hand, lambda k: words.reminder(mention, ev.hand, what, due, n, of, k), h.start.thread),)
    if config.private:
        out += (Message(ev.hand, ev.player, f"Your turn in hand {ev.hand} ({config.name})",
                        words.reminder_private(ev.player, config.name, ev.hand, what, due)),)
    return out
