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

from typing import Any

from nomicpoker.core import engine, grammar
from nomicpoker.core.actions import AllIn, Call, Check, Fold, Raise
from nomicpoker.core.advance import AdvanceError, PlayerIn, Program, Undo, looks_like_advance, parse
from nomicpoker.core.advance_eval import Concrete, describe, evaluate, view_of
from nomicpoker.core.fold_state import HandState
from nomicpoker.core.gndt import md_escape
from nomicpoker.core.markup import read_visible
from nomicpoker.core.table_settings import advance_allowed
from nomicpoker.core.tags import reference_tag


def _line(body: str, body_format: str) -> str:
    """The first non-empty visible line of a comment: where an advance action is written."""
    reading = read_visible(body, body_format)
    if not reading.complete:
        return ""
    for line in reading.text.splitlines():
        if line.strip():
            return line.strip()
    return ""


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


def _conditions_seats(p: Program) -> list[int]:
    return [c.seat for arm in p.arms for c in arm.conditions if isinstance(c, PlayerIn)]


class Advance:
    """The fold's advance-action part; ``f`` is the table fold (adjudicator)."""

    def __init__(self, fold: Any):
        self.f = fold

    def on(self) -> bool:
        return advance_allowed(self.f.st.days.settings, self.f.rules.require_hand_and_round)

    def comment(self, rev, h: HandState | None, number: int | None) -> bool:
        """Take ``rev`` as an advance action if it is one (True: handled)."""
        if h is None or number is None or h.phase in ("reveal", "complete") or not self.on():
            return False
        seats = [s.name for s in h.hand.seats]
        if rev.author not in seats or h.hand.seat(rev.author).folded:
            return False
        line = _line(rev.body, rev.body_format)
        if not line or not looks_like_advance(line):
            return False
        to_act = h.hand.to_act
        my_turn = h.phase == "betting" and to_act is not None and seats[to_act] == rev.author
        try:
            p = parse(line)
        except AdvanceError as e:
            normal = grammar.parse_comment(rev.body, rev.body_format,
                                           bare=not self.f.rules.require_hand_and_round)
            if isinstance(normal, grammar.Intent) or not e.code.startswith("advance_"):
                return False  # an ordinary action ("call", "HAND1 ROUND1 fold"): not ours
            self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
            self.f._reject(rev, number, e.code, e.message)
            return True
        if my_turn and isinstance(grammar.parse_comment(
                rev.body, rev.body_format, bare=not self.f.rules.require_hand_and_round),
                grammar.Intent):
            return False  # in turn, an action the ordinary grammar reads acts as it always did
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        ref = rev.permalink or rev.forum_id
        if isinstance(p, Undo):
            had = h.advance.pop(rev.author, None)
            self.f._verdict(rev, number, "accepted", canonical="UNDO")
            what = f"your advance action {had} is withdrawn" if had else "you had no advance action"
            self._reply(rev, number, f"{md_escape(rev.author)}: {what}.")
            return True
        if p.hand is not None and p.hand != number:
            if p.hand > number:
                self.f._reject(rev, number, "advance_future_hand",
                               f"/H={p.hand} names a future hand; this is hand {number} (the "
                               f"manual: \"you cannot use the /H comand to specify an action "
                               f"for a future hand\")")
            else:
                self.f._verdict(rev, number, "ignored", "advance_past_hand",
                                f"/H={p.hand}: hand {number} is in play, so it is ignored")
            return True
        bad = [n for n in _conditions_seats(p) if n > len(seats)]
        if bad:
            self.f._reject(rev, number, "advance_bad_player",
                           f"/I:{bad[0]} or /O:{bad[0]}: players are numbered 1 to {len(seats)} "
                           f"at this table")
            return True
        text = p.text()
        h.advance[rev.author] = text
        self.f._verdict(rev, number, "accepted", canonical=text)
        if not p.quiet:
            rt = h.hand.ruleset.raise_amount == "raise_to"
            amounts = ("MAKE $x and $x make your total for the round x (raise-to)" if rt else
                       "MAKE $x and $x put x chips in at your turn (raise Z adds Z)")
            self._reply(rev, number,
                        f"{md_escape(rev.author)}'s advance action: {md_escape(text)}. It is tried "
                        f"at your next turn in hand {number}"
                        f"{'' if not p.sticky else ' and stays for the hand while it fires'}; "
                        f"{amounts} under {h.hand.ruleset.name}; UNDO withdraws it.")
        if my_turn:
            self.fire(h, f"{ref}", rev.thread)
        return True

    def _reply(self, rev, number: int, text: str) -> None:
        self.f._post(number, lambda k: f"{text}\n\n{reference_tag(k)}\n", rev.thread,
                     reply_to=rev.forum_id)

    def acted(self, h: HandState, player: str) -> None:
        """The player acted himself: "your next "real" action will wipe it out"."""
        h.advance.pop(player, None)

    def fire(self, h: HandState, cause: str, thread: str) -> bool:
        """Try the advance action of the player to act (True: it acted and the fold moved on)."""
        i = h.hand.to_act
        if i is None or h.phase != "betting":
            return False
        name = h.hand.seats[i].name
        text = h.advance.get(name)
        if text is None:
            return False
        p = parse(text)
        assert isinstance(p, Program)
        number = h.start.number
        out = evaluate(p, view_of(h.hand, i))
        if not out.keep:
            del h.advance[name]
        if out.action is None:
            why = out.failure or "it did not apply"
            self.f._private(number, name, f"Hand {number}: your advance action",
                            f"Your advance action {text} did not act: {why}. "
                            f"It is your turn in hand {number}.")
            return False
        res = engine.apply(h.hand, _event(name, out.action, number, h.hand.round))
        if isinstance(res, engine.Rejection):  # the view said legal: the player acts himself
            h.advance.pop(name, None)
            self.f._private(number, name, f"Hand {number}: your advance action",
                            f"Your advance action {text} did not act: {res.message}. "
                            f"It is your turn in hand {number}.")
            return False
        h.hand = res
        words = describe(out.action, h.hand.ruleset.raise_amount == "raise_to")
        self.f.days.acted(name, number)
        self.f._post(number, lambda k: f"{md_escape(name)} (advance action): {words}\n\n"
                     f"{reference_tag(k)}\n", thread)
        self.f._advance(h, f"{cause} ({name}'s advance action)", thread)
        return True
