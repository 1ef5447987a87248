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
  where it does not know the cards, they muck.
- A timeout marks the player AWOL until they act; after ``max_timeouts`` in a row they sit
  out later hands until they comment ``BACK`` (the bot server of seed ``002_…``).
- ``START h`` sets the player's start of day from the next hand.
- Flood protection: past ``flood_threshold`` invalid comments from one author in one hand,
  one notice says further invalid comments are ignored until their next valid action; they
  then get a verdict (``ignored``, code ``flood``) and no dealer comment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nomicpoker.core.words import days_notices as words
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import FoldOut, Muck, Reveal, Timeout
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.core.reading.comment_reading import TextReading, first_line
from nomicpoker.core.words.notices import deck_listing
from nomicpoker.core.fairness.dealing import hole_cards
from nomicpoker.core.table.days_state import REMINDER, Alarm, DaysState, wait_alarms
from nomicpoker.core.fold import away, editions, effects
from nomicpoker.core.fold.dealer_controls import unfreeze
from nomicpoker.core.fold.draws import draw_clock, waiting_for_draws
from nomicpoker.core.table.fold_types import DRAW_TIMEOUT, STALLED, TURN_TIMEOUT, DealerEvent, Revision
from nomicpoker.core.reading.markup import table_talk

#: ``HandState.timed_out`` key recording that the hand's stalled draw deadline was said (no
#: player is named "")
STALL_MARK = ""
from nomicpoker.core.reading.player_commands import Command, CommandError, CommandResult, hides_action

if TYPE_CHECKING:  # pragma: no cover
    from nomicpoker.core.table.fold_state import HandState


def waits(h: "HandState") -> list[tuple[str, str]]:
    """``(player, since)`` for each player the hand waits on now."""
    if h.phase == "draw":
        return [(p, h.redraws.get(p, h.start.started_at)) for p in waiting_for_draws(h)]
    need = engine.need(h.hand)
    if h.phase == "betting" and need.kind == "action":
        return [(need.players[0], h.since)]
    if h.phase == "reveal" and need.kind == "reveal":
        return [(p, h.since) for p in need.players]
    return []


def alarms(days: DaysState, h: "HandState | None") -> tuple[Alarm, ...]:
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


class Days:
    """The fold's play-over-days room; ``host`` is the adjudicator's ``_Folder``."""

    def __init__(self, host: Any):
        self.f = host

    @property
    def d(self) -> DaysState:
        return self.f.st.days

    def _current(self) -> "HandState | None":
        h = self.f.st.current
        return h if h is not None and h.phase != "complete" else None

    # -- comments -------------------------------------------------------------------------

    def hold(self, rev: Revision, text: TextReading) -> bool:
        """While the table is frozen, keep the comment for later (True); the protester's
        ``UNDO`` passes."""
        d = self.d
        if not d.frozen:
            return False
        if self.undoes_protest(rev, text):
            return False
        d.held.append(rev)
        return True

    def undoes_protest(self, rev: Revision, text: TextReading) -> bool:
        """``rev`` is the protester's ``UNDO`` while their protest freezes the table.

        WHY it comes before the advance-action reading (where a bare ``UNDO`` withdraws an
        advance action): a player who has just protested and writes ``UNDO`` means the protest,
        the one thing of theirs open at a frozen table (no advance action fires during a
        freeze). Anyone else's ``UNDO``, or the protester's once the freeze is over, is read
        as withdrawing their advance action (docs/comment-grammar.md). A private message is
        never a protest's ``UNDO``: private messages carry only advance actions."""
        d = self.d
        return (d.frozen == "protest" and rev.thread != PRIVATE_THREAD and rev.revision == 1
                and not rev.deleted and rev.author == d.protester and text.undoes())

    def commands(self, rev: Revision, h: "HandState | None", number: int | None, no_action: bool,
                 cmds: tuple[CommandResult, ...]) -> bool:
        """Apply the comment's commands ``cmds`` (its reading's); True when nothing else in it
        is to be read (it held only commands, or a protest whose text is for the Dealer)."""
        if not cmds or rev.author not in self.f.c.players:
            return False
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        ref = rev.permalink or rev.forum_id
        for cmd in cmds:
            if isinstance(cmd, CommandError):
                self.f.reject(rev, number, cmd.code, cmd.message)
                continue
            getattr(self, "_" + cmd.kind)(rev, cmd, number, ref)
        done = no_action or hides_action(cmds)
        if done:
            h = self._current()
            if h is not None:  # what the dealer does for them now is made by this comment
                h.step = (rev.forum_id, rev.created)
            self.act_for_away()
        return done

    def _verdict(self, rev: Revision, number: int | None, cmd: Command, message: str = "") -> None:
        self.f.give_verdict(rev, number, "accepted", message=message, canonical=cmd.canonical)

    def _gone(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        p, d = rev.author, self.d
        if p in d.resigned:
            self.f.reject(rev, number, "resigned", f"{p} has resigned from the game")
            return
        d.vacation[p] = cmd.arg
        cur = self._current()
        d.vacation_hand[p] = cur.start.number if cur else 0
        self._verdict(rev, number, cmd)
        seal = self._sealing_hand(number)
        if self.f.c.private and seal is not None:
            self.f.send_private(seal, p, f"Vacation at {self.f.c.name}", words.vacation_private(p))

    def _resign(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        self._gone(rev, Command("gone", "RESIGN", cmd.text), number, ref)
        self.d.resigned.add(rev.author)

    def _back(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        p, d = rev.author, self.d
        if p in d.resigned:
            self.f.reject(rev, number, "resigned", f"{p} has resigned from the game: there is no "
                           "coming BACK after GONE RESIGN")
            return
        sat_out = d.sitting_out.get(p) == "timeouts"
        # WRGPT: "Vacations are announced to the rest of the table at the end of a hand": a
        # vacation the table never heard of ends without a word to it (where players see only
        # what the Dealer sends them; elsewhere the BACK comment is in the thread anyway)
        unheard = p in d.vacation and p not in d.announced and not sat_out
        for book in (d.vacation, d.vacation_hand, d.timeouts):
            book.pop(p, None)
        d.announced.discard(p)
        d.awol.discard(p)
        if sat_out:
            d.sitting_out.pop(p, None)
        self._verdict(rev, number, cmd)
        if unheard and editions.mails_like_wrgpt(self.f.c, self.f.st, self.f.st.hands.get(number)):
            seal = self._sealing_hand(number)
            if seal is not None:
                self.f.send_private(seal, p, f"Back at {self.f.c.name}",
                                    f"{p}, you are back: you act for yourself again.\n")
            return
        self._say(number, lambda k: words.back(p, ref, k, sat_out), rev.thread, rev.forum_id)

    def _start(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        hour = int(cmd.arg)
        self.d.pending_start[rev.author] = hour
        self._verdict(rev, number, cmd)
        self._say(number, lambda k: words.start_hour(rev.author, hour, ref, k), rev.thread, rev.forum_id)

    def _protest(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        d = self.d
        d.frozen, d.protester = "protest", rev.author
        self._verdict(rev, number, cmd, message=cmd.arg)
        self._say(number, lambda k: words.protest_filed(rev.author, ref, k), rev.thread, rev.forum_id)
        floorman = self.d.settings.floorman
        seal = self._sealing_hand(number)
        if floorman and self.f.c.private and seal is not None:
            self.f.send_private(seal, floorman, f"Protest at {self.f.c.name}",
                            words.protest_private(rev.author, self.f.c.name, ref, cmd.arg))

    def _sealing_hand(self, number: int | None) -> int | None:
        """The hand whose secrets seal a private notice about a comment in hand ``number``'s
        thread: that hand, else (a thread with no hand) the latest hand; ``None`` before any
        hand, when nothing can seal it and the notice is not sent (the verdict stands).

        WHY: the ledger keeps a private message as an HMAC keyed by a hand's secrets
        (:mod:`nomicpoker.core.fairness.sealed`); a GONE or PROTEST posted outside a hand's thread on a
        forum with private messages asked for the secrets of a hand 0 that never exists, and
        the KeyError stopped the table's poll at every later run."""
        if number is not None and number in self.f.st.hands:
            return number
        cur = self.f.st.current
        return cur.start.number if cur is not None else None

    def _undo(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        d = self.d
        if d.frozen != "protest" or d.protester != rev.author:
            self.f.reject(rev, number, "nothing_to_undo", f"{rev.author} has no protest to withdraw")
            return
        self._verdict(rev, number, cmd)
        effects.apply(self.f, unfreeze(self.f.st, rev.created, f"{rev.author} withdraws the protest", "", rev.thread))

    def _what(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        p = rev.author
        self._verdict(rev, number, cmd)
        h = self.f.st.hands.get(number) if number is not None else None
        lines = self._state_lines(p, h)
        if editions.mails_like_wrgpt(self.f.c, self.f.st, h):  # e-mail: WRGPT answers WHAT to the asker alone
            self.f.send_private(number if h is not None else None, p, f"Your state at {self.f.c.name}",
                                words.what_public(p, ref, lines, f"{self.f.c.name}-h{number or 0}-answer"))
        else:
            self._say(number, lambda k: words.what_public(p, ref, lines, k), rev.thread, rev.forum_id)
        if h is None or not self.f.c.private or h.hand.find_seat(p) is None:
            return
        deck = h.decks.get(p)
        body = words.what_private(p, self.f.c.name, h.start.number, h.holes.get(p),
                                  deck_listing(deck) if deck is not None else None, h.draws.get(p))
        self.f.send_private(h.start.number, p, f"Your state in hand {h.start.number} ({self.f.c.name})", body)

    def _seatlog(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        self._tournament_ask(rev, cmd, number)

    def _rail(self, rev: Revision, cmd: Command, number: int | None, ref: str) -> None:
        self._tournament_ask(rev, cmd, number)

    def _tournament_ask(self, rev: Revision, cmd: Command, number: int | None) -> None:
        """``SEATLOG``, ``RAIL``, ``RAIL OFF``: accepted at a tournament's table, where the shell
        answers the accepted verdict with the tournament's data (the seat log, the rail:
        :mod:`nomicpoker.shell.tournament.asks`), which no table's fold holds; refused elsewhere."""
        if not self.d.settings.tournament:
            self.f.reject(rev, number, "not_a_tournament", f"{cmd.canonical} is a tournament's command, and "
                          f"table {self.f.c.name} is not a tournament's table")
            return
        self._verdict(rev, number, cmd)

    def _state_lines(self, p: str, h: "HandState | None") -> list[str]:
        d = self.d
        running = h is not None and h.phase != "complete"
        lines = [] if running and h.hand.find_seat(p) is not None else [f"Money: {self.f.st.money.get(p, 0)}."]
        if running:
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

    def note_talk(self, rev: Revision, h: "HandState | None") -> None:
        """Keep the table talk a comment of hand ``h`` came with, for the payout (WRGPT: "all
        table talk is shown interspersed with action in the showdown messages")."""
        talk = table_talk(rev.body, rev.body_format) if editions.shows_talk(h) else ()
        if h is not None and any(t.strip() for t in talk):
            h.talk.append([rev.author, rev.created, first_line(rev.body, rev.body_format), "\n".join(talk).strip()])

    def _told(self, player: str) -> bool:
        """Whether the table knows ``player`` is away: announced at the end of a hand (WRGPT),
        or written where every player reads it (a GONE comment in a thread; only e-mail keeps
        a player's GONE between the player and the Dealer)."""
        return player in self.d.announced or not editions.mails_like_wrgpt(self.f.c, self.f.st)

    def _say(self, number: int | None, body_fn, thread: str, reply_to: str | None = None) -> None:
        self.f.post(number, body_fn, thread, reply_to=reply_to)

    # -- accepted actions and floods ------------------------------------------------------

    def acted(self, author: str, hand: int | None) -> None:
        """An accepted action: no longer AWOL, the timeout count and flood count start over."""
        d = self.d
        if author in d.awol and author not in d.vacation:
            d.vacation_hand.pop(author, None)  # the AWOL "vacation" ends with this action
        d.awol.discard(author)
        d.timeouts.pop(author, None)
        if hand is not None:
            d.invalid.pop((hand, author), None)
            d.flooded.discard((hand, author))

    def flood_gate(self, rev: Revision, hand: int | None, code: str, message: str, citation: str) -> bool:
        """Count an invalid comment; past the threshold, give one notice and then ignore (True:
        the verdict is written here, and no rejection reply is to be posted)."""
        if hand is None or rev.author not in self.f.c.players:
            return False
        d, key = self.d, (hand, rev.author)
        d.invalid[key] = n = d.invalid.get(key, 0) + 1
        limit = d.settings.flood_threshold
        if n <= limit:
            return False
        if key not in d.flooded:
            d.flooded.add(key)
            self.f.give_verdict(rev, hand, "rejected", code, message, citation)
            self._say(hand, lambda k: words.flood(rev.author, hand, limit, k), rev.thread, rev.forum_id)
            return True
        self.f.give_verdict(rev, hand, "ignored", "flood", f"{code}: {message}")
        return True

    # -- the dealer acting for players ----------------------------------------------------

    def timed_out(self, player: str) -> str:
        """A timeout (:func:`.away.timed_out`): the sentence for the timeout notice."""
        note, change = away.timed_out(self.f.st, player)
        effects.apply(self.f, (change,))
        return note

    def awol_away(self) -> bool:
        return away.awol_away(self.f.st)

    def _missed(self, player: str, timed_out: bool = False) -> str:
        note, changes = away.missed(self.f.st, player, timed_out)
        effects.apply(self.f, (effects.DaysSet(changes),))
        return note

    def act_for_away(self) -> None:
        """Whatever the running hand waits for from a player on vacation, done at once."""
        h = self._current()
        if h is None:
            return
        if h.phase == "draw":
            self.fold_out_away(h)
        elif h.phase == "betting":
            self.away_to_act(h)
        elif h.phase == "reveal":
            self.away_reveals(h)

    def away_to_act(self, h: "HandState", opening: str = "") -> bool:
        """The player to act is on vacation: check if legal, else fold, now (True: done and
        the hand moved on). ``opening``: the action before, not announced yet, said first."""
        need = engine.need(h.hand)
        if need.kind != "action" or not self.d.away(need.players[0], self.awol_away()):
            return False
        p = need.players[0]
        res = engine.apply(h.hand, Timeout(player=p))
        if isinstance(res, engine.Rejection):  # pragma: no cover - a timeout is always legal in turn
            return False
        h.hand, h.since = res, h.step[1] or h.since  # the next player's clock starts with this step
        what = "folds" if res.seat(p).folded else "checks"
        number = h.start.number
        note = self._missed(p) if p in self.d.awol and p not in self.d.vacation else ""
        told = self._told(p)
        self._say(number, lambda k: words.away_acts(p, what, k, opening, note, announced=told), h.start.thread)
        self.f.advance_hand(h, f"dealer: {p} is away and {what}", h.start.thread, said=True)
        return True

    def away_reveals(self, h: "HandState") -> bool:
        """Players on vacation at a showdown: shown where the dealer knows their cards and the
        table lets them win, mucked otherwise (True: something was done)."""
        need = engine.need(h.hand)
        if need.kind != "reveal":
            return False
        d, number = self.d, h.start.number
        for p in need.players:
            if not d.away(p, self.awol_away()):
                continue
            known = h.holes.get(p) or (hole_cards(h.decks[p].cards, h.draws[p])
                                        if p in h.decks and p in h.draws else None)
            may_win = d.settings.vacation_can_win or d.vacation_hand.get(p) == number
            if known and may_win:
                res = engine.apply(h.hand, Reveal(player=p, cards=tuple(known), hand=number))
                what = "shows " + " ".join(known)
                if not isinstance(res, engine.Rejection):
                    self.f.add_row("reveal", hand=number, player=p, comment_id="", cards=list(known))
                    h.record["reveals"].append({"player": p, "comment_id": "", "cards": list(known)})
            else:
                res = engine.apply(h.hand, Muck(player=p))
                what = "mucks"
            if isinstance(res, engine.Rejection):  # pragma: no cover - engine contract
                continue
            h.hand = res
            told = self._told(p)
            self._say(number, lambda k, p=p, what=what, t=told: words.away_acts(p, what, k, announced=t),
                      h.start.thread)
            self.f.advance_hand(h, f"dealer: {p} is away and {what}", h.start.thread, said=True)
            return True
        return False

    def fold_out_away(self, h: "HandState") -> None:
        """Hole Card Draws a player on vacation has not made: folded out at once (while
        someone not on vacation is still in the hand)."""
        d, number = self.d, h.start.number
        for p in waiting_for_draws(h):
            left = [s.name for s in h.hand.seats if not s.folded]
            awol = self.awol_away()
            if not d.away(p, awol) or all(d.away(x, awol) for x in left if x != p) or len(left) < 2:
                continue
            res = engine.apply(h.hand, FoldOut(p))
            if isinstance(res, engine.Rejection):  # pragma: no cover - waiting players are in
                continue
            h.hand = res
            told = self._told(p)
            self._say(number, lambda k, p=p, t=told: words.away_acts(p, "folds (no Hole Card Draw)", k, announced=t),
                      h.start.thread)
        if h.hand.result is not None or (not waiting_for_draws(h) and h.draws):
            h.phase = "betting"
            self.f.advance_hand(h, "dealer: players away folded out", h.start.thread, said=True)
        else:
            self.f.log_steps(h, "dealer: players away folded out")
            self.f.log_changes(number, "dealer: players away folded out")

    # -- hand boundaries -------------------------------------------------------------------

    def begin_hand(self) -> None:
        """A hand starts: ``START`` hours asked for during the last one apply from now."""
        d = self.d
        d.start_hour.update(d.pending_start)
        d.pending_start.clear()
        d.reminded.clear()

    def hand_ended(self, h: "HandState") -> None:
        """Announce the vacations the table has not heard of (WRGPT: at the end of a hand)."""
        d = self.d
        d.reminded.clear()
        new = {p: u for p, u in d.vacation.items() if p not in d.announced and p not in d.resigned}
        resigned = sorted(p for p in d.resigned if p not in d.announced)
        if not new and not resigned:
            return
        d.announced.update(new, resigned)
        self._say(h.start.number, lambda k: words.vacations_announced(new, resigned, k), h.start.thread)

    # -- reminders -------------------------------------------------------------------------

    def reminder(self, ev: DealerEvent) -> None:
        h = self._current()
        if h is None or h.start.number != ev.hand:
            return
        since = dict(waits(h)).get(ev.player)
        if since is None:
            return
        n = int(ev.data.get("n", 1)) if ev.data else 1
        sent_since, sent = self.d.reminded.get(ev.player, ("", 0))
        if sent_since == since and n <= sent:
            return
        self.d.reminded[ev.player] = (since, n)
        due = self.d.due_text(ev.player, since) or "none"
        what = ("state your Hole Card Draw" if h.phase == "draw" else
                "reveal your cards" if h.phase == "reveal" else "act")
        mention = self.f.c.mention.replace("{name}", ev.player)
        of = self.d.settings.reminders
        if not self.f.c.answers_privately():  # e-mail: the reminder goes to the player alone
            self._say(ev.hand, lambda k: words.reminder(mention, ev.hand, what, due, n, of, k), h.start.thread)
        if self.f.c.private:
            self.f.send_private(ev.hand, ev.player, f"Your turn in hand {ev.hand} ({self.f.c.name})",
                            words.reminder_private(ev.player, self.f.c.name, ev.hand, what, due))
