"""The table fold: everything the bot knows, as a pure function of its inputs.

``fold_table(config, hands, revisions, events)`` (in :mod:`nomicpoker.core.fold.fold_run`, which
walks the inputs through the accumulator here) replays a table from its configuration, the
hand-start records, the comment archive (every revision, in archive order) and the recorded
dealer events, and returns every derived row: verdicts, GNDT change-log entries, outbox
messages, dice, decks, draws, reveals, boards and hand ends. No clock, no randomness, no I/O:
the randomness comes from the hand secrets (an input), times from the archive.

WHY a whole-table replay on every poll rather than an incremental update: the live ledger and
the audit then run the *same* code over the *same* inputs, so "replay is the audit" holds by
construction. The archive only grows at its end (new comments, new revisions, timeouts after
the last position), so the derived rows of a later run extend those of an earlier one; the
shell stores only the new suffix and treats any other difference as an inconsistency.

Readings of the rule the fold makes (documented in docs/dealer-guide.md):

- Only a comment's first archived revision acts; a later revision (edit) is noted once.
- The Hole Card Draw phase (dice, draw statements, the draw deadline) is in :mod:`.draws`:
  round 1 opens when every seated player still in the hand has stated a valid draw.
- Showdown reveals are checked against the issued deck at the drawn positions.
- Under a ruleset with one shared deck (``roberts-nlhe``) there are no draws: the hole cards
  come from the dealer's committed deck (:func:`nomicpoker.core.fairness.dealing.shared_holes`), are sent
  privately at hand start, and reveals are checked against them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from nomicpoker.core.fairness import sealed
from nomicpoker.core.fairness.dealing import BOARD_STREETS, board_cards, deal_order, hole_cards, issue_deck, shared_holes
from nomicpoker.core.fold import (advance_fold, advance_private, betting_fold, dealer_controls, draws, editions,
                                   effects, ordinary, over_days, score_fold)
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD, UNNAMED_PRIVATE
from nomicpoker.core.fold.dealer_controls import CONTROL_KINDS
from nomicpoker.core.fold.score_fold import SCORE
from nomicpoker.core.fold import roster_moves
from nomicpoker.core.table.roster import ROSTER_KINDS
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import DealBoard, DealHole, DealHoles
from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.comment_reading import Facts, Reading, TextReading, read_revision
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.table.days_state import REMINDER, DaysState
from nomicpoker.core.table.fold_state import ROW_KINDS, HandState, TableState
from nomicpoker.core.table.fold_types import (AMEND, DRAW_TIMEOUT, INTERNAL_ERROR, INTERNAL_ERROR_EVENT, STALLED, TURN_TIMEOUT,
                                              UNREADABLE, CommentFailed, DealerEvent, FoldError, HandStart, Revision, TableConfig)
from nomicpoker.core.words import hand_log, notices as say


#: the longest body :meth:`_Folder.read` memoises (longer ones seldom repeat)
_MEMO_MAX = 280


class _Folder:
    """The accumulator behind :func:`fold_table` (local to one call): the table's state
    (:class:`~nomicpoker.core.table.fold_state.TableState`) and the rows derived so far. The
    phases written without a hub (:mod:`.effects`) are functions the fold calls with the state
    and their input; it applies the effects they return, in order (:func:`effects.apply`)."""

    def __init__(self, config: TableConfig, state: TableState | None = None,
                 failed: frozenset[tuple[str, str, int]] = frozenset(), reader=None):
        self.c = config
        self.failed = failed  # revisions (thread, forum id, revision) the reader failed on
        self.reader = reader  # None: read_comment; tests inject a failing one (fold_stream)
        self.out: dict[str, list[dict[str, Any]]] = {k: [] for k in ROW_KINDS}
        self.private: dict[str, str] = {}  # outbox key -> private message body (not stored)
        self._texts: dict[tuple[str, str, bool], TextReading] = {}
        #: the handler of each kind of reading (:mod:`nomicpoker.core.reading.comment_reading`)
        self.on_reading: dict[str, Callable[[Revision, Reading, HandState | None, int | None], Any]] = {
            "private": self._private, "score": self._score,
            "advance": lambda rev, reading, h, number: effects.apply(
                self, advance_fold.keep(rev, reading, h, number, self.st, self.c)),  # type: ignore[arg-type]
            "advance_hold": self._hold,
            "advance_off": lambda rev, reading, h, number: effects.apply(
                self, advance_fold.off(rev, reading, number, self.rules)),  # type: ignore[arg-type]
            "advance_error": lambda rev, reading, h, number: effects.apply(
                self, advance_fold.refuse_reading(rev, reading, number, self.c)),  # type: ignore[arg-type]
            "command": self.commands_first, "chat": lambda rev, _r, _h, number: effects.apply(self, ordinary.chat(rev, number)),
            "error": self._error, "action": self._act}
        if state is not None:
            self.st = state
            if state.roster is not None:  # players moved in or out (core/fold/roster_moves)
                self.c = replace(config, players=tuple(state.roster))
            return
        self.st = TableState(money={p: config.money for p in config.players},
                             gndt={p: (0, "o", 0) for p in config.players},
                             days=DaysState.at_creation(config.settings, config.players))
        self.log_changes(None, "table created")

    @property
    def rules(self) -> Ruleset:
        """The rules in force: the latest hand's (each hand is played under the ruleset its
        start record names, see :meth:`_rules_for`), else the table's."""
        cur = self.st.current
        return cur.hand.ruleset if cur is not None else self.c.ruleset

    @property
    def hands(self) -> dict[int, HandState]:
        return self.st.hands

    def text_of(self, rev: Revision, edition: int | None = None) -> TextReading:
        """Every reading of ``rev``'s text (:class:`TextReading`, each made once), memoised for
        this fold: they are a pure function of the body, its format, whether the rules read
        bare actions and the edition whose players' commands are read, and chat such as "nice
        hand" comes back often. Only short bodies: they are the ones that repeat."""
        bare = not self.rules.require_hand_and_round
        if len(rev.body) > _MEMO_MAX:
            return TextReading(rev.body, rev.body_format, bare, edition)
        key = (rev.body, rev.body_format, bare, edition)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = TextReading(rev.body, rev.body_format, bare, edition)
        return text

    # -- rows -------------------------------------------------------------------------------

    def add_row(self, _kind: str, **values: Any) -> dict[str, Any]:
        self.st.seq += 1
        row = {"seq": self.st.seq, **values}
        self.out[_kind].append(row)
        return row

    def post(self, hand: int | None, body_fn, thread: str, reply_to: str | None = None) -> None:
        """Queue a dealer comment; ``body_fn(key)`` renders it ending with its reference tag."""
        n = self.st.n_out.get(hand, 0) + 1
        self.st.n_out[hand] = n
        key = f"{self.c.name}-h{hand or 0}-{n:03d}"
        self.add_row("outbox", key=key, hand=hand, kind="comment", thread=thread, reply_to=reply_to,
                  recipient="", subject="", body=body_fn(key))

    def send_private(self, hand: int | None, user: str, subject: str, body: str) -> None:
        """A private message. The ledger keeps a seal (nomicpoker.core.fairness.sealed says why) and the
        shell sends the body; ``hand`` None: a message with nothing of a hand in it, stored as is."""
        n = self.st.n_out.get(hand, 0) + 1
        self.st.n_out[hand] = n
        key = f"{self.c.name}-h{hand or 0}-{n:03d}"
        if hand is not None:
            self.private[key] = body
            body = sealed.seal(self.st.hands[hand].start.secrets, hand, user, body)
        self.add_row("outbox", key=key, hand=hand, kind="private", thread="", reply_to=None,
                     recipient=user, subject=subject, body=body)

    def give_verdict(self, rev: Revision, hand: int | None, status: str, code: str = "",
                     message: str = "", citation: str = "", canonical: str = "") -> None:
        self.add_row("verdict", hand=hand, thread=rev.thread, forum_id=rev.forum_id,
                  revision=rev.revision, author=rev.author, status=status, code=code,
                  message=message, citation=citation, canonical=canonical)
        if rev.revision == 1:  # what an edit's note recalls (see _edit)
            self.st.first_verdict.setdefault((rev.thread, rev.forum_id), (status, canonical, code))
            effects.apply(self, over_days.note_talk(rev, self.st.hands.get(hand) if hand is not None else None))
        if status == "accepted":
            self.acted(rev.author, hand)

    def acted(self, player: str, hand: int | None) -> None:
        """``player``'s action was accepted: play over days forgets his timeouts and floods."""
        effects.apply(self, (over_days.acted(self.st.days, player, hand),))

    def reject(self, rev: Revision, hand: int | None, code: str, message: str,
               cite_as: str | None = None, hint: str | None = None, cite: str = "") -> None:
        """Reject with the rule sentence of ``cite_as`` (a rejection code or parameter name)
        when the code's own sentence is not the one this case rests on (or ``cite``, the
        engine's own quotation), and with ``hint`` when the code's usual advice does not fit."""
        rules = self.st.hands[hand].hand.ruleset if hand in self.st.hands else self.rules
        citation = cite or rules.cite(cite_as or code) or rules.cite(code)
        flooded, counted = over_days.flood_gate(rev, hand, code, message, citation, self.st, self.c)
        effects.apply(self, counted)
        if flooded:
            return  # past the flood threshold: one notice, then silence
        self.give_verdict(rev, hand, "rejected", code, message, citation)
        body = lambda key: say.rejection(rev.author, rev.permalink or rev.forum_id, code, message, citation, key=key, hint=hint)  # noqa: E731
        if self.c.answers_privately() and hand in self.st.hands:  # e-mail: to the sender alone
            return self.send_private(hand, rev.author, f"Not accepted in hand {hand} ({self.c.name})", body(f"{self.c.name}-h{hand}-answer"))
        self.post(hand, body, rev.thread, reply_to=rev.forum_id)

    # -- the GNDT ---------------------------------------------------------------------------

    def _snapshot(self) -> dict[str, tuple[int, str, int]]:
        snap = {p: (self.st.money[p], "o", 0) for p in self.c.players}
        h = self.st.current
        if h is None:
            return snap
        turns = engine.turn_column(h.hand, list(self.c.players))
        for seat in h.hand.seats:
            if h.phase == "complete":
                continue
            turn = turns.get(seat.name, "o")
            if h.phase == "draw" and turn == "x":
                turn = "-"  # nobody bets before every Hole Card Draw is stated
            snap[seat.name] = (seat.money, turn, seat.total_bet)
        return snap

    def log_changes(self, hand: int | None, cause: str) -> None:
        snap = self._snapshot()
        for p in self.c.players:
            old, new = self.st.gndt.get(p), snap[p]
            first = cause == "table created"
            for i, column in enumerate(("Money", "Turn", "Pot")):
                if first or old[i] != new[i]:
                    self.add_row("entry", hand=hand, player=p, column=column,
                              old="" if first else str(old[i]), new=str(new[i]), cause=cause)
        self.st.gndt = snap

    def _action(self, h: HandState, step: dict[str, Any], cause: str) -> None:
        """One public step (action rows count their own ``seq``: older ledgers keep theirs)."""
        self.st.action_seq += 1
        h.steps += 1
        self.out["action"].append(hand_log.action_row(self.st.action_seq, h.start.number, h.steps,
                                                      step, h.step, cause))

    def log_steps(self, h: HandState, cause: str) -> None:
        """Action rows for the engine's newly accepted steps (after each, before the board)."""
        for step in hand_log.steps(h.hand, h.logged, h.bets):
            self._action(h, step, cause)
        effects.apply(self, advance_fold.steps_logged(h, h.logged))
        h.logged = len(h.hand.log)
        h.bets = {s.name: s.total_bet for s in h.hand.seats}

    def _view(self, h: HandState):
        marks, notes = self.st.days.markers()
        return say.view(self.c, self.st.money, h.start.button, marks, notes)

    def _deadline(self, h: HandState) -> str | None:
        """When the player to act is due, in UTC and the table's zone (pure: from the archive)."""
        need = engine.need(h.hand)
        return self.st.days.due_text(need.players[0] if need.players else "", h.since)

    # -- hand start -------------------------------------------------------------------------

    def start(self, hs: HandStart) -> None:
        if self.st.current is not None and self.st.current.phase != "complete":
            raise FoldError("bad_input", f"hand {hs.number} starts while hand "
                            f"{self.st.current.start.number} is still running")
        if hs.secrets is None:
            raise FoldError("missing_secrets", f"the secrets of hand {hs.number} are missing")
        rules, announce = self._rules_for(hs)
        for name, money in hs.seats:
            self.st.money[name] = money
        effects.apply(self, (over_days.begin_hand(self.st.days),))
        hand = engine.start_hand(rules, hs.number, [tuple(s) for s in hs.seats], hs.button,
                                 ante=hs.ante, blinds=hs.blinds, blind_posters=hs.blind_posters or None)
        h = HandState(start=hs, hand=hand, since=hs.started_at, edition=self.st.days.settings.edition)
        h.record = {"board": [], "dice": [], "decks": [], "draws": [], "reveals": []}
        h.step = ("", hs.started_at)
        started = (f"hand {hs.number} start (ante {hs.ante})"
                   + (f", blinds {'/'.join(str(b) for b in hs.blinds)}" if hs.blinds else ""))
        for step in hand_log.forced_bets(hand):
            self._action(h, step, started)
        h.bets = {s.name: s.total_bet for s in hand.seats}
        self.st.hands[hs.number] = h
        self.st.by_thread[hs.thread] = hs.number
        self.st.current = h
        seated = [n for n, _ in hs.seats]
        for p in seated:
            if self.c.issue_decks:
                deck = issue_deck(hs.dealt_from.decks, hs.number, p)
                h.decks[p] = deck
                self.add_row("deck", hand=hs.number, player=p, source="issued", checksum=deck.checksum)
                h.record["decks"].append({"player": p, "source": "issued", "checksum": deck.checksum})
        if self.rules.deck == "shared":
            self._deal_shared(h, seated)
        self.log_changes(hs.number, started)
        days = self.st.days
        draw_due = days.due_text("", hs.started_at) if h.phase == "draw" else None
        self.post(hs.number, lambda key: say.hand_start(self._view(h), hs, h.hand, self.c.issue_decks, key,
                                                         draw_due, days.settings.deadline_hours, announce),
                   hs.thread)
        for p in seated:
            if p in h.decks:
                self.send_private(hs.number, p, f"Your deck for hand {hs.number} ({self.c.name})",
                              say.deck_message(h.decks[p]))
            if p in h.holes:
                self.send_private(hs.number, p, f"Your hole cards for hand {hs.number} ({self.c.name})",
                              say.hole_message(p, hs.number, h.holes[p]))
        if h.phase == "betting":
            self.advance_hand(h, f"hand {hs.number} start", hs.thread)
        else:
            effects.apply(self, over_days.act_for_away(self.st, self.c))  # Hole Card Draws nobody on vacation will make

    def _rules_for(self, hs: HandStart) -> tuple[Ruleset, list[str]]:
        """The ruleset hand ``hs`` is played under, and the announcement of the amendments
        applied since the last hand (empty if none). The recorded hand must be played under the ruleset the amendments (dealer events) say
        applies now, or the previous hand's (the table's) if none: a hand row naming another
        is an inconsistent ledger, refused rather than replayed under rules nobody applied."""
        previous = self.rules
        new = hs.ruleset or previous
        done = self.st.amendments
        expected = done[-1].ruleset_hash if done else previous.content_hash
        if hs.ruleset is not None and expected and new.content_hash != expected:
            raise FoldError("bad_input", f"hand {hs.number} is recorded under ruleset {new.name} "
                            f"({new.content_hash[:12]}) but the table's rules are {expected[:12]}")
        self.st.amendments = []
        return new, ([say.amendment(previous, new, done)] if done else [])

    def _amend(self, ev: DealerEvent) -> None:
        """A rule amendment: it applies from the next hand on, never to a running one (the
        shell refuses it mid-hand; a ledger that has one anyway is inconsistent)."""
        cur = self.st.current
        if cur is not None and cur.phase != "complete":
            raise FoldError("bad_input", f"a rule amendment is recorded while hand "
                            f"{cur.start.number} is running")
        self.st.amendments.append(ev)

    def _deal_shared(self, h: HandState, seated: list[str]) -> None:
        """One shared deck: deal every hole card now, from the committed deck secret."""
        hs = h.start
        holes = shared_holes(hs.dealt_from.deck, hs.number, deal_order(seated, hs.button),
                             self.rules.hole_cards)
        res = engine.apply(h.hand, DealHoles(tuple(DealHole(p, holes[p]) for p in seated)))
        if isinstance(res, engine.Rejection):  # pragma: no cover - engine contract
            raise FoldError("bad_input", f"the engine refused the hole cards: {res.message}")
        h.hand, h.holes, h.phase = res, holes, "betting"
        h.record["deal_order"] = list(deal_order(seated, hs.button))

    # -- comments ---------------------------------------------------------------------------

    def comment(self, rev: Revision) -> None:
        """Adjudicate one comment revision, behind the per-comment safety net: any unexpected
        exception while reading or adjudicating it becomes :class:`CommentFailed` (the fold
        starts again without it, :func:`fold_stream`), and a revision that failed before (in
        this fold, or recorded as answered ``internal_error`` by a dealer event) is answered
        ``internal_error`` without being read. A :class:`FoldError` (the inputs
        themselves cannot be folded: missing secrets, an archive out of order) and a
        ``MemoryError`` are not a comment's fault and stop the fold as before."""
        key = (rev.thread, rev.forum_id, rev.revision)
        if key in self.failed:
            self._unreadable(rev)
            return
        try:
            (self.reader or _Folder.read_comment)(self, rev)
        except (FoldError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - the safety net: any fault of the reader
            raise CommentFailed(key, exc) from exc

    def _unreadable(self, rev: Revision) -> None:
        """Answer a revision the reader failed on: it never acts, the table goes on. The
        state stays what it was before it (the fold is started again without reading it)."""
        if self.c.is_dealer(rev.author):
            return
        if rev.thread == PRIVATE_THREAD:  # answered privately, sealed with the running hand
            h = self.st.current
            live = h is not None and h.phase != "complete" and h.hand.find_seat(rev.author)
            number = h.start.number if h is not None else None
            if not live or rev.revision > 1 or rev.deleted:
                self.give_verdict(rev, number, "ignored", INTERNAL_ERROR, UNREADABLE)
            else:
                effects.apply(self, advance_private.refuse(rev, number, INTERNAL_ERROR, UNREADABLE, self.c))  # type: ignore[arg-type]
            return
        number = self.st.by_thread.get(rev.thread)
        if rev.revision > 1 or rev.deleted:
            self.give_verdict(rev, number, "ignored", INTERNAL_ERROR, UNREADABLE)
            return
        self.reject(rev, number, INTERNAL_ERROR, UNREADABLE)

    def read_comment(self, rev: Revision) -> None:
        """Read and adjudicate one comment revision (no safety net: :meth:`comment`): its one
        reading (:func:`read_revision`, by the precedence documented there) goes to the
        handler of its kind (:attr:`on_reading`)."""
        if self.c.is_dealer(rev.author):
            return
        number = self.st.by_thread.get(rev.thread)
        h = self.st.hands.get(number) if number is not None else None
        # as the seat's spelling (account names are case-insensitive), read as its edition reads
        rev = replace(rev, author=self.c.seat_name(rev.author), body_format=editions.body_format(rev, self.st, h))
        if rev.revision > 1:
            self._edit(rev, h)
            return
        text = self.text_of(rev, editions.edition_of(self.st, h))
        held = over_days.hold(self.st.days, rev, text)
        if held:
            effects.apply(self, held)
            return  # the table is frozen: adjudicated when it runs again
        if rev.deleted:
            self.give_verdict(rev, number, "ignored", "deleted", "first seen already deleted")
            return
        reading = read_revision(text, self._facts(rev, text, h, number))
        self.on_reading[reading.kind](rev, reading, h, number)

    def commands_first(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> bool:
        """Apply the comment's players' commands where they come first (True: nothing else in
        it is read). The fold applies them before an action's handler runs, which then sees the
        state they left (``command``: a comment of commands only, or a PROTEST)."""
        cmds = reading.text.commands
        if not reading.commands_first or not over_days.reads_commands(rev, cmds, self.c):
            return False
        self.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        for cmd in cmds:  # each sees the state the one before it left
            effects.apply(self, over_days.command(rev, cmd, number, self.st, self.c))
        if not over_days.commands_done(isinstance(reading.action, grammar.NoAction), cmds):
            return False
        effects.apply(self, over_days.after_commands(rev, self.st, self.c))
        return True

    def _error(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        if not self.commands_first(rev, reading, h, number):
            effects.apply(self, ordinary.error(rev, reading, h, number))

    def _act(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        if not self.commands_first(rev, reading, h, number):
            effects.apply(self, ordinary.act(rev, reading, h, number, self.st.days, self.c, self.rules))

    def _hold(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        """``advance_hold``: the comment's commands first (a GONE before one's turn), then the
        action is kept for the turn."""
        if not self.commands_first(rev, reading, h, number):
            effects.apply(self, advance_fold.hold_said(rev, reading, h, number, self.c))  # type: ignore[arg-type]

    def _private(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        effects.apply(self, advance_private.comment(rev, reading, self.st, self.c, advance_fold.on(self.st, self.rules)))

    def take_advance(self, rev: Revision, number: int, program: Any, my_turn: bool) -> None:
        """Take an advance action that came privately (:class:`effects.TakeAdvance`)."""
        effects.apply(self, advance_fold.take(rev, self.st.hands[number], number, program, my_turn, self.st, self.c))

    def _score(self, rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> None:
        effects.apply(self, score_fold.comment(rev, reading, number))

    def _facts(self, rev: Revision, text: TextReading, h: HandState | None, number: int | None) -> Facts:
        """What the choice of ``rev``'s reading depends on besides its text. The seats come
        from the hand's start (a hand that is over may be kept only as its ruleset: the
        snapshot's ``ClosedHand``); who is to act only from a hand still running."""
        seats = [name for name, _money in h.start.seats] if h is not None else []
        running = h is not None and number is not None and h.phase not in ("reveal", "complete")
        in_hand = running and rev.author in seats and not h.hand.seat(rev.author).folded  # type: ignore[union-attr]
        to_act = h.hand.to_act if in_hand else None  # type: ignore[union-attr]
        return Facts(private=rev.thread == PRIVATE_THREAD, undoes_protest=over_days.undoes_protest(self.st.days, rev, text),
                     in_hand=in_hand, seated=rev.author in seats, player=rev.author in self.c.players,
                     edition=h.edition if h is not None else 2,
                     my_turn=in_hand and h.phase == "betting" and to_act is not None and seats[to_act] == rev.author,  # type: ignore[union-attr]
                     advance_on=advance_fold.on(self.st, self.rules), number=number,
                     round=h.hand.round if in_hand else 0)  # type: ignore[union-attr]

    def _edit(self, rev: Revision, h: HandState | None) -> None:
        number = h.start.number if h else None
        key = f"{rev.thread}#{rev.forum_id}"
        if rev.deleted:
            self.give_verdict(rev, number, "ignored", "deleted", "deleted after it was read; its action stands")
            return
        if h is None:
            self.give_verdict(rev, None, "ignored", "no_hand", "edited; posted before any hand in this thread")
            return
        first = self.st.first_kind.get((rev.thread, rev.forum_id), "chat")
        if first == "chat" and isinstance(self.text_of(rev, editions.edition_of(self.st, h)).action, grammar.NoAction):
            self.give_verdict(rev, number, "ignored", "edited_chat", "chat edited into chat: nothing to note")
            return
        noted = h.noted
        if key in noted or self.c.is_dealer(rev.author):
            self.give_verdict(rev, number, "ignored", "edited_after_verdict", "edit already noted")
            return
        noted.add(key)
        msg = "the first reading binds: an edit after the dealer read a comment does not change it"
        self.give_verdict(rev, number, "noted", "edited_after_verdict", msg, self.rules.cite("edited_after_verdict"))
        status, canonical, code = self.st.first_verdict.get((rev.thread, rev.forum_id), ("", "", ""))
        self.post(number, lambda k: say.edit_noted(rev.author, rev.permalink or rev.forum_id, k,
                                                    status, canonical, code),
                   rev.thread, reply_to=rev.forum_id)

    def clock_event(self, ev: DealerEvent) -> None:
        """A recorded dealer event, by its kind (deadlines, amendments, reminders, controls);
        a kind the fold does not know is an error, never a guessed fold."""
        handlers = {DRAW_TIMEOUT: lambda ev: effects.apply(self, draws.timeout(ev, self.st, self.rules)), TURN_TIMEOUT: lambda ev: effects.apply(self, betting_fold.turn_timeout(ev, self.st)), AMEND: self._amend,
                    STALLED: lambda ev: effects.apply(self, draws.stalled(ev, self.st, self.c)),
                    REMINDER: lambda ev: effects.apply(self, over_days.reminder(ev, self.st, self.c)),
                    SCORE: lambda ev: effects.apply(self, score_fold.event(ev, self.st, self.c)),
                    UNNAMED_PRIVATE: lambda ev: effects.apply(self, advance_private.unnamed(ev, self.st)),
                    # answered at its revision (fold_run.fold_stream collects these first)
                    INTERNAL_ERROR_EVENT: lambda ev: None, **{k: self._control for k in CONTROL_KINDS},
                    **{k: lambda ev: roster_moves.event(self, ev) for k in ROSTER_KINDS}}
        if ev.kind not in handlers:
            raise FoldError("bad_event", f"dealer event {ev.kind!r} (hand {ev.hand}, {ev.player}) is "
                            f"not one this nomicpoker knows ({DRAW_TIMEOUT}, {TURN_TIMEOUT}, {AMEND})")
        handlers[ev.kind](ev)

    def _control(self, ev: DealerEvent) -> None:
        effects.apply(self, dealer_controls.event(ev, self.st))

    def hand_ended_for_days(self, h: HandState) -> None:
        """What play over days does at a hand's end (:class:`effects.HandEnded`)."""
        effects.apply(self, over_days.hand_ended(self.st.days, h))

    # -- after every accepted step ----------------------------------------------------------

    def advance_hand(self, h: HandState, cause: str, thread: str, said: bool = False) -> None:
        """After an accepted step: deal what is due, fire an advance action or post the turn
        notice, call for reveals or pay out. The step's action opens the next dealer comment
        (every action said once) unless ``said``: the dealer acted for the player (timeout,
        vacation, advance action, Dealer's fold) and its own comment said it (the engine logs
        a timeout as the check or fold it became, so the log cannot tell)."""
        number = h.start.number
        self.log_steps(h, cause)
        need = engine.need(h.hand)
        opening = "" if said else say.last_action(h.hand)
        while need.kind == "board":
            dealt = len(h.hand.board)
            deck = board_cards(h.start.dealt_from.deck, number)  # the board is cards 1-5 always
            cards, chances = tuple(deck[dealt:dealt + need.cards]), say.street_chances(h, self.st.days.settings)
            res = engine.apply(h.hand, DealBoard(cards=cards))
            if isinstance(res, engine.Rejection):  # pragma: no cover - engine contract
                raise FoldError("bad_input", f"the engine refused the {BOARD_STREETS[dealt]}: {res.message}")
            h.hand = res
            street = BOARD_STREETS[dealt]
            self.add_row("board", hand=number, street=street, cards=list(cards))
            h.record["board"].extend(cards)
            need = engine.need(h.hand)
            self.log_changes(number, cause)
            first, opening = opening, ""
            self.post(number, lambda k: say.street(self._view(h), h.hand, street, cards, k, first, chances), thread)
        if need.kind == "action":
            self.log_changes(number, cause)
            h.phase = "betting"
            # the next comment (advance action, vacation, turn notice) opens with ``opening``
            fired, done = advance_fold.fire(h, self.st.days, self.c, cause, thread, opening)
            effects.apply(self, done)
            if fired:
                return
            away = over_days.away_to_act(self.st, self.c, h, opening)
            if away:
                effects.apply(self, away)
                return
            legal = advance_fold.offered(h, engine.legal_actions(h.hand))
            self.post(number, lambda k: say.turn_notice(self._view(h), h.hand, legal, self._deadline(h), k,
                                                        opening), thread)
        elif need.kind == "reveal":
            first = h.phase != "reveal"
            h.phase = "reveal"
            self.log_changes(number, cause)
            if first:
                self.post(number, lambda k: say.call_for_reveals(self._view(h), h.hand, need.players, k,
                                                                  opening), thread)
            effects.apply(self, over_days.away_reveals(self.st, self.c, h))
        elif need.kind == "complete":
            self._complete(h, cause, thread, opening)

    def _complete(self, h: HandState, cause: str, thread: str, opening: str = "") -> None:
        number = h.start.number
        result = h.hand.result
        h.phase = "complete"
        for seat in h.hand.seats:
            self.st.money[seat.name] = seat.money  # the engine credits the payout to the seat
        self.log_changes(number, cause)
        secrets = h.start.secrets.published()
        held = {p: hole_cards(h.decks[p].cards, h.draws[p]) for p in h.false_reveals if p in h.decks and p in h.draws}
        held.update({p: h.holes[p] for p in h.false_reveals if p in h.holes})
        own = sorted(p for p in h.draws if p not in h.decks)
        self.add_row("hand_end", hand=number, secrets=dict(secrets), payouts=dict(result.payouts), destroyed=result.destroyed)
        h.record["secrets"] = dict(secrets)
        chances = say.payout_chances(h, self.st.days.settings)  # an all-in's, now every card is public
        self.post(number, lambda k: say.payout(self._view(h), h.hand, secrets, held, own, k, opening, h.talk, chances), thread)
        effects.apply(self, advance_fold.hand_ended(h, thread))  # /R cards, private advance actions made public
        self.hand_ended_for_days(h)
