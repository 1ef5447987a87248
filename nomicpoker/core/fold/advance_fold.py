"""Advance actions in the table fold (pure): take one from a comment, keep it in the hand's
fold state, and fire it when its player's turn arrives.

WHY beside the adjudicator and not in it: the adjudicator reads each comment and applies each
step; this module only adds WRGPT's "post bets in advance" to it, through three calls
(:meth:`Advance.comment`, :meth:`Advance.fire`, :meth:`Advance.acted`). What it remembers is
``HandState.advance`` (player -> the action's canonical text), which the snapshot stores, so a
poll resumed from a snapshot and ``audit`` fire the same actions.

Scope: an advance action belongs to the hand whose thread it is posted in, and lapses when
that hand ends (a comment in hand 99's thread is about hand 99; WRGPT's ``/H`` still works).
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from typing import Any

from nomicpoker.core.poker import engine
from nomicpoker.core.reading import grammar
from nomicpoker.core.poker.actions import AllIn, Call, Check, Fold, Raise
from nomicpoker.core.reading.advance import AdvanceError, PlayerIn, Program, Undo, parse
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.reading.advance_eval import Concrete, describe, evaluate, view_of
from nomicpoker.core.fold import effects
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD, refuse, reply, shown_on_request
from nomicpoker.core.table.fold_state import HandState
from nomicpoker.core.words.gndt import md_escape
from nomicpoker.core.table.table_settings import advance_allowed
from nomicpoker.core.words.tags import reference_tag

#: how ``HandState.advance`` keeps an action of the ordinary grammar posted before its turn
#: ("raise 6", "HAND3 ROUND1 call"): its canonical text after this mark, which no advance
#: action starts with. At the turn it is applied exactly as if posted then (:meth:`Advance.hold`)
HELD = "said: "

#: the rule-7 refusal's code (``Ruleset.no_raise_after_out_of_turn_check``)
CHECKED_OUT_OF_TURN = "checked_out_of_turn"


def _event(name: str, a: Concrete, hand: int, rnd: int):
    """The engine event, naming its hand and round (blognomic-2008 requires them)."""
    if a.act == "fold":
        return Fold(name, hand, rnd)
    if a.act == "check":
        return Check(name, hand, rnd)
    if a.act == "call":
        return Call(name, hand, rnd)
    if a.act == "all_in":
        return AllIn(name, hand, rnd)
    return Raise(name, hand, rnd, a.amount)


def _chosen(p: Program, arm: int):
    """The command of arm ``arm`` (``-1``: the ELSE or the plain command)."""
    return p.otherwise if arm < 0 else p.arms[arm].action


def _conditions_seats(p: Program) -> list[int]:
    return [c.seat for arm in p.arms for c in arm.conditions if isinstance(c, PlayerIn)]


def no_raise_refusal(h: HandState, player: str, event: Any) -> engine.Rejection | None:
    """The refusal of a bet or raise by a player who checked out of turn, at his next
    turn (``None``: the action is not barred). WHY here and not in the engine: the bar
    comes from a comment read out of turn, which the engine never sees."""
    if player not in h.no_raise:
        return None
    seat = h.hand.seat(player)
    owe = max(h.hand.high_bet - seat.round_bet, 0)
    if isinstance(event, Concrete):
        raising = event.act == "raise" or (event.act == "all_in" and event.raising)
    else:
        raising = isinstance(event, Raise) or (isinstance(event, AllIn) and seat.money > owe)
    if not raising:
        return None
    may = f"call {min(owe, seat.money)} or fold" if owe else "check or fold"
    return engine.Rejection(CHECKED_OUT_OF_TURN,
                            f"{player} checked out of turn, so may not bet or raise on this "
                            f"turn: {may}",
                            h.hand.ruleset.cite("no_raise_after_out_of_turn_check"))


class Advance:
    """The fold's advance-action part; ``f`` is the table fold (adjudicator)."""

    def __init__(self, fold: Any):
        self.f = fold
        #: an advance action written at its player's own turn is being tried (see :meth:`take`)
        self._own_turn = False

    def on(self) -> bool:
        return advance_allowed(self.f.st.days.settings, self.f.rules.advance_actions)

    # -- the handlers of the advance readings (nomicpoker.core.reading.comment_reading) ----

    def keep(self, rev, reading: Reading, h: HandState, number: int) -> None:
        """``advance``: keep the program on the first line (tried at once at the player's turn:
        "It is not necessary to use these features out of turn, ie. you can also use them
        when it is your turn to bet"; at his turn it is never re-read by the ordinary grammar)."""
        program = reading.text.program
        assert isinstance(program, (Program, Undo))
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        self.take(rev, h, number, program, reading.facts.my_turn)

    def hold_said(self, rev, reading: Reading, h: HandState, number: int) -> None:
        """``advance_hold``: an ordinary action posted before its player's turn (:meth:`hold`)."""
        self.hold(rev, h, number, reading.text.action)

    def refuse(self, rev, reading: Reading, h: HandState, number: int) -> None:
        """``advance_error``: a line of WRGPT's language that does not parse."""
        error = reading.text.program
        assert isinstance(error, AdvanceError)
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        self.reject(rev, number, error.code, error.message)

    def off(self, rev, reading: Reading, h: HandState, number: int) -> None:
        """``advance_off``: advance actions are off here, and the first line can only be one
        (a conditional, a switch, an amount, ``CALL *``): it is answered, never silently taken
        as chat."""
        line = reading.text.line
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        self.f.reject(rev, number, "advance_off",
                       f"{line!r} is an advance action (WRGPT's language), and advance actions are "
                       f"not taken at this table: act at your turn in the form the rule asks "
                       f"(e.g. \"HAND{number} ROUNDy call\"). The Dealer may allow them (table "
                       f"setting advance_actions, or an amendment of the ruleset's parameter)",
                       cite_as="advance_actions" if self.f.rules.cite("advance_actions") else "not_your_turn")

    def take(self, rev, h: HandState, number: int, p: Program | Undo, my_turn: bool) -> bool:
        """Keep (or withdraw) the advance action ``p`` of ``rev``'s author, confirm it, and try
        it at once when it is his turn."""
        ref = rev.permalink or rev.forum_id
        secret = rev.thread == PRIVATE_THREAD
        # WHY: where players write to the Dealer alone (e-mail), the message is as private as a
        # private-inbox one, so from edition 2 its verdict does not name the action it holds
        # (the live ledger keeps no running hand's secret, docs/fair-dealing.md); a hand of
        # edition 1 stored it, and replays as it was played
        unnamed = secret or (self.f.c.answers_privately() and h.edition >= 2)
        if isinstance(p, Undo):
            had = h.advance.pop(rev.author, None)
            asked = rev.author in h.reveal_asked
            h.reveal_asked.discard(rev.author)
            self.f.give_verdict(rev, number, "accepted", canonical="" if unnamed else "UNDO")
            if secret:
                h.private_advance.append([rev.author, rev.created, "UNDO"])
            what = f"your advance action {md_escape(shown(had))} is withdrawn" if had else "you had no advance action"
            what += " and your cards will not be shown unasked" if asked else ""
            self.reply(rev, number, f"{md_escape(rev.author)}: {what}.")
            return True
        if p.hand is not None and p.hand != number:
            if p.hand > number:
                self.reject(rev, number, "advance_future_hand",
                               f"/H={p.hand} names a future hand; this is hand {number} (the "
                               f"manual: \"you cannot use the /H comand to specify an action "
                               f"for a future hand\")")
            else:
                self.f.give_verdict(rev, number, "ignored", "advance_past_hand",
                                f"/H={p.hand}: hand {number} is in play, so it is ignored")
            return True
        seats = [s.name for s in h.hand.seats]
        bad = [n for n in _conditions_seats(p) if n > len(seats)]
        if bad:
            self.reject(rev, number, "advance_bad_player",
                           f"/I:{bad[0]} or /O:{bad[0]}: players are numbered 1 to {len(seats)} "
                           f"at this table")
            return True
        text = p.text()
        h.advance[rev.author] = text
        if p.reveal:
            h.reveal_asked.add(rev.author)
        self.f.give_verdict(rev, number, "accepted", canonical="" if unnamed else text,
                        message="a private advance action: published when the hand ends" if secret else "")
        if secret:
            h.private_advance.append([rev.author, rev.created, text])
        barred = ""
        if (not my_turn and not secret and not p.arms and p.otherwise is not None
                and p.otherwise.kind == "check"):
            barred = self.checked_out_of_turn(h, rev.author)
        now, acted = my_turn and h.edition >= 2, False
        if now:  # it acts now, made by this message (a private one names no message)
            h.step = ("" if secret else rev.forum_id, rev.created)
            # "you can also use them when it is your turn to bet": then it is the player's own
            # action, announced as such, with no confirmation that it was kept unless it was
            # kept for later (a condition not met now, a sticky action). Edition 1 (a table
            # created before editions) confirmed it first and labelled it an advance action.
            self._own_turn = True
            try:
                acted = self.fire(h, "a private advance action" if secret else f"{ref}", h.start.thread)
            finally:
                self._own_turn = False
            if rev.author not in h.advance:
                return True  # it acted (announced as his action), or he was told why it did not
        if not p.quiet or barred:
            rt = h.hand.ruleset.raise_amount == "raise_to"
            amounts = ("MAKE $x and $x make your total for the round x (raise-to)" if rt else
                       "MAKE $x and $x put x chips in at your turn (raise Z adds Z)")
            self.reply(rev, number,
                        f"{md_escape(rev.author)}'s advance action: {md_escape(text)}. "
                        f"{'It is tried ' if not now else 'It acted now and is kept: it is tried again ' if acted else 'It did not act now and it is still your turn; it is kept and tried '}"
                        f"at your next turn in hand {number}"
                        f"{'' if not p.sticky else ' and stays for the hand while it fires'}; "
                        f"{amounts} under {h.hand.ruleset.name}"
                        f"{'; your cards are shown when the hand ends' if p.reveal else ''}"
                        f"; UNDO withdraws it.{barred}")
        if my_turn and not now:  # edition 1: confirmed above, then tried at once
            h.step = ("" if secret else rev.forum_id, rev.created)
            self.fire(h, "a private advance action" if secret else f"{ref}", h.start.thread)
        return True

    def hold(self, rev, h: HandState, number: int, intent) -> bool:
        """Keep an ordinary action posted before its player's turn (``raise 6``, ``check``)
        for that turn, where it is applied exactly as if posted then: one reading of a
        command whatever the turn. A ``check`` posted out of turn also bars a bet or raise at
        the player's next turn where the ruleset says so (Robert's rule 7)."""
        said = grammar.canonical(intent)
        h.advance[rev.author] = HELD + said
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        self.f.give_verdict(rev, number, "accepted", canonical=said)
        barred = self.checked_out_of_turn(h, rev.author) if intent.kind == "check" else ""
        self.reply(rev, number,
                   f"{md_escape(rev.author)}'s advance action: {md_escape(said)}, read as at your "
                   f"turn: it acts at your next turn in hand {number} exactly as if you posted it "
                   f"then (what it states is checked then); UNDO withdraws it.{barred}")
        return True

    def checked_out_of_turn(self, h: HandState, player: str) -> str:
        """``player`` checked out of turn: bar his next bet or raise when the hand's ruleset
        says so, returning the sentence that tells him ('' when the ruleset does not)."""
        rs = h.hand.ruleset
        if not rs.no_raise_after_out_of_turn_check or h.edition < 2:  # edition 1: no bar
            return ""
        h.no_raise.add(player)
        rule = rs.cite("no_raise_after_out_of_turn_check")
        return (f" You checked out of turn, so at your next turn you may not bet or raise"
                + (f" (\u201c{rule}\u201d)." if rule else "."))

    def no_raise_refusal(self, h: HandState, player: str, event) -> engine.Rejection | None:
        return no_raise_refusal(h, player, event)

    def offered(self, h: HandState, legal):
        """The legal actions offered to the player to act, without a bet or raise when he
        checked out of turn (what is refused is never offered)."""
        if legal is None or legal.player not in h.no_raise:
            return legal
        keep_all_in = legal.call is not None and legal.all_in <= legal.call
        return dc_replace(legal, raise_min=None, raise_max=None, all_in=legal.all_in if keep_all_in else 0)

    def steps_logged(self, h: HandState, first: int) -> None:
        """The engine accepted ``h.hand.log[first:]``: a player who acted has had his next
        turn, so a bar from checking out of turn is spent."""
        for ev in h.hand.log[first:]:
            if isinstance(ev, (Fold, Check, Call, Raise, AllIn)):
                h.no_raise.discard(ev.player)

    def reply(self, rev, number: int, text: str) -> None:
        """Answer ``rev`` where it came from (:func:`~.advance_private.reply`)."""
        effects.apply(self.f, (reply(rev, number, text, self.f.c),))

    def reject(self, rev, number: int, code: str, message: str) -> None:
        """A refused advance action (:func:`~.advance_private.refuse`)."""
        effects.apply(self.f, refuse(rev, number, code, message, self.f.c))

    def hand_ended(self, h: HandState, thread: str) -> None:
        """The hand is over: show the cards asked for with ``/R`` and publish the advance
        actions that came privately (one dealer comment, none if there is nothing to say)."""
        body = shown_on_request(h)
        if body:
            self.f.post(h.start.number, lambda k: f"{body}\n\n{reference_tag(k)}\n", thread)

    def acted(self, h: HandState, player: str) -> None:
        """The player acted himself: "your next "real" action will wipe it out"."""
        h.advance.pop(player, None)

    def fire(self, h: HandState, cause: str, thread: str, opening: str = "") -> bool:
        """Try the advance action of the player to act (True: it acted and the fold moved on).
        ``opening``: the action before it that no dealer comment announced yet (no turn notice
        comes between them), said first."""
        i = h.hand.to_act
        if i is None or h.phase != "betting":
            return False
        name = h.hand.seats[i].name
        text = h.advance.get(name)
        if text is None:
            return False
        if text.startswith(HELD):
            return self._fire_held(h, name, text[len(HELD):], cause, thread, opening)
        p = parse(text)
        assert isinstance(p, Program)
        number = h.start.number
        out = evaluate(p, view_of(h.hand, i))
        if not out.keep:
            del h.advance[name]
        if out.action is None:
            why = out.failure or "it did not apply"
            away = self.f.st.days.away(name, h.edition >= 2)
            if away and out.arm is not None and _chosen(p, out.arm).sticky | p.sticky:
                # "sticky actions take precedence over vacations. Unless of course your sticky
                # action translates into an insufficient bet (possible with MAKE or RAISE), in
                # which case you will be folded."
                h.advance.pop(name, None)
                return self._act(h, name, Concrete("fold"), cause, thread,
                                 f" (on vacation; {text} did not act: {why})", opening=opening)
            self._tell(number, name,
                            f"Your advance action {md_escape(text)} did not act: {md_escape(why)}. "
                            + ("You are on vacation: the dealer checks or folds for you."
                               if away else f"It is your turn in hand {number}."))
            return False
        return self._act(h, name, out.action, cause, thread, "", text, opening)

    def _tell(self, number: int, name: str, body: str) -> None:
        """Tell the player alone why his advance action did not act. Where the forum has no
        private messages (a blog) nothing is sent: the turn notice that follows says it is his
        turn, and a private message the forum cannot deliver would hold up the outbox."""
        if self.f.c.private:
            self.f.send_private(number, name, f"Hand {number}: your advance action", body)

    def _act(self, h: HandState, name: str, action: Concrete, cause: str, thread: str,
             note: str, text: str = "", opening: str = "") -> bool:
        """Apply the advance action's concrete ``action`` for ``name`` and say so."""
        number = h.start.number
        res = (self.no_raise_refusal(h, name, action)
               or engine.apply(h.hand, _event(name, action, number, h.hand.round)))
        if isinstance(res, engine.Rejection):  # refused after all: the player acts himself
            h.advance.pop(name, None)
            self._tell(number, name,
                            f"Your advance action {md_escape(text)} did not act: {res.message}{_quoted(res, h)}. "
                            f"It is your turn in hand {number}.")
            return False
        h.hand, h.since = res, h.step[1] or h.since  # the next player's clock starts with this step
        words = describe(action, h.hand.ruleset.raise_amount == "raise_to") + md_escape(note)
        return self._acted(h, name, words, cause, thread, opening)

    def _fire_held(self, h: HandState, name: str, said: str, cause: str, thread: str,
                   opening: str) -> bool:
        """Apply an ordinary action kept by :meth:`hold`, as if its player posted it now."""
        del h.advance[name]
        number = h.start.number
        intent = grammar.parse_comment(said, "markdown", bare=True)
        assert isinstance(intent, grammar.Intent)
        event = grammar.to_action(intent, name)
        before = h.hand.seat(name)
        high = h.hand.high_bet
        res = self.no_raise_refusal(h, name, event) or engine.apply(h.hand, event)
        if isinstance(res, engine.Rejection):
            self._tell(number, name, f"Your advance action {md_escape(said)} did not act: "
                       f"{res.message}{_quoted(res, h)}. It is your turn in hand {number}.")
            return False
        h.hand, h.since = res, h.step[1] or h.since
        after = h.hand.seat(name)
        added = before.money - after.money
        act = type(event).__name__.lower().replace("allin", "all_in")
        if after.all_in and act in ("call", "raise"):
            act = "all_in"
        done = Concrete(act, added, after.round_bet, added, after.round_bet > high)  # type: ignore[arg-type]
        words = describe(done, h.hand.ruleset.raise_amount == "raise_to")
        return self._acted(h, name, words, cause, thread, opening)

    def _acted(self, h: HandState, name: str, words: str, cause: str, thread: str,
               opening: str) -> bool:
        """Say an advance action that acted (the dealer's one line for it) and move the hand on:
        the same announcement whether it was written in WRGPT's language or kept from the
        ordinary grammar."""
        number = h.start.number
        self.f.acted(name, number)
        first = f"{opening} " if opening else ""
        # written at the player's own turn: his action (only the first to act in this call:
        # the advance actions of the players after him that fire in turn are advance actions)
        own, self._own_turn = self._own_turn, False
        label = "" if own else " (advance action)"
        self.f.post(number, lambda k: f"{first}{md_escape(name)}{label}: {words}\n\n"
                    f"{reference_tag(k)}\n", thread)
        self.f.advance_hand(h, cause if own else f"{cause} ({name}'s advance action)", thread, said=True)
        return True


def _quoted(res: engine.Rejection, h: HandState) -> str:
    """The rule sentence a refusal rests on, quoted after its message ('' without one, and in
    a hand of edition 1, which did not quote it)."""
    return f" (\u201c{res.citation}\u201d)" if res.citation and h.edition >= 2 else ""


def shown(text: str) -> str:
    """An entry of ``HandState.advance`` as the player wrote it (without :data:`HELD`)."""
    return text[len(HELD):] if text.startswith(HELD) else text
