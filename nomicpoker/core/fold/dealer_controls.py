"""The Dealer's controls, in the fold (pure): pause and resume (which also ends a protest),
void a hand, fold a player, seat and unseat between hands, change the table's settings.

Each is a dealer event the shell records with its reason (``note``) and time, exactly as a
timeout is (``nomicpoker table pause`` and friends, :mod:`nomicpoker.shell.dealer.controls`); the
fold posts it in the thread and ``audit`` replays it. The shell checks that a control makes
sense before recording it (a void needs a running hand, a seat needs none); the fold applies
what it is given and ignores, without a word, one that no longer applies.

- **pause / resume**: a paused (or protested) table runs no deadline and applies no action;
  the comments posted meanwhile are kept and adjudicated in order when it resumes, as if
  posted at the resume. The clock of whoever is waited on starts again at the resume.
- **void**: every chip goes back where it was at the hand's start; the hand's secrets are
  published as at any hand end, so the cards dealt can still be checked.
- **fold**: the player is folded out at once (at a showdown: mucks); their chips stay in.
- **seat / unseat**: whether the player is dealt into the next hands (``hand start`` reads
  it from the fold); seating also clears AWOL and the timeout count.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from nomicpoker.core.words import days_notices as words
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import FoldOut, Muck
from nomicpoker.core.fold.draws import waiting_for_draws
from nomicpoker.core.table.fold_types import DealerEvent, FoldError
from nomicpoker.core.table.office_hours import parse_moment
from nomicpoker.core.table.table_settings import EDITIONS

if TYPE_CHECKING:  # pragma: no cover
    from nomicpoker.core.table.fold_state import HandState

#: dealer event kinds of the Dealer's controls (and the reminder, handled by the days room)
CONTROL_KINDS = ("settings", "pause", "resume", "void", "fold", "seat", "unseat")


class Controls:
    """The fold's room for the Dealer's controls; ``host`` is the adjudicator's ``_Folder``."""

    def __init__(self, host: Any):
        self.f = host

    def _running(self) -> "HandState | None":
        h = self.f.st.current
        return h if h is not None and h.phase != "complete" else None

    def _thread(self) -> tuple[int | None, str | None]:
        h = self.f.st.current
        return (h.start.number, h.start.thread) if h is not None else (None, None)

    def event(self, ev: DealerEvent) -> None:
        handler = getattr(self, "_" + ev.kind, None)
        if ev.kind not in CONTROL_KINDS or handler is None:  # pragma: no cover - dispatch checks
            raise FoldError("bad_event", f"dealer event {ev.kind!r} is not a Dealer's control")
        handler(ev)

    def _settings(self, ev: DealerEvent) -> None:
        d = self.f.st.days
        before, forced = d.settings.edition, d.settings.forced_bets()
        d.settings = d.settings.changed(dict(ev.data))
        number, thread = self._thread()
        said = d.settings.describe()
        if d.settings.forced_bets() != forced:  # from the next hand (hand start reads them)
            said += f"; forced bets from the next hand: {d.settings.forced_bets() or 'as the Dealer starts it'}"
        if d.settings.edition != before:  # players are told what their comments will mean
            said += (f"; from the next hand, edition {d.settings.edition} of the Dealer's reading: "
                     f"{EDITIONS[d.settings.edition]}")
        if thread:
            self.f.post(number, lambda k: words.settings_changed(said, ev.note, k), thread)

    def _pause(self, ev: DealerEvent) -> None:
        d = self.f.st.days
        if d.frozen:
            return
        d.frozen = "pause"
        number, thread = self._thread()
        if thread:
            self.f.post(number, lambda k: words.paused(ev.note, k), thread)

    def _resume(self, ev: DealerEvent) -> None:
        if not self.f.st.days.frozen:
            return
        _, thread = self._thread()
        self.unfreeze(ev.at, "The Dealer resumes the table", ev.note, thread)

    def unfreeze(self, at: str, by: str, note: str, thread: str | None) -> None:
        """End a pause or a protest: the waited-on clocks start again at ``at``, the table
        hears who is to act, then the comments kept meanwhile are adjudicated in order."""
        d = self.f.st.days
        d.frozen, d.protester = "", ""
        held, d.held = d.held, []
        h = self._running()
        if h is not None:
            h.since = at
            for p in waiting_for_draws(h) if h.phase == "draw" else ():
                h.redraws[p] = at
        number, posted_in = self._thread()
        to_act = due = None
        if h is not None and h.phase == "betting" and not held:  # else the kept comments' notices say
            need = engine.need(h.hand)
            if need.kind == "action":
                to_act = need.players[0]
                due = d.due_text(to_act, at)
        if thread or posted_in:
            self.f.post(number, lambda k: words.resumed(by, note, to_act, due, len(held), k),
                         thread or posted_in)
        resumed = parse_moment(at)
        for rev in held:
            # A kept comment counts from the moment the table runs again: the clock it starts
            # (the next player's deadline) must not have run during the freeze.
            made = parse_moment(rev.created)
            self.f.comment(replace(rev, created=at) if made and resumed and made < resumed else rev)

    def _void(self, ev: DealerEvent) -> None:
        h = self._running()
        if h is None or h.start.number != ev.hand:
            return
        number = h.start.number
        for name, money in h.start.seats:
            self.f.st.money[name] = money
        h.phase = "complete"
        secrets = h.start.secrets.published()
        self.f.add_row("hand_end", hand=number, secrets=dict(secrets), payouts={}, destroyed=0)
        h.record["secrets"] = dict(secrets)
        h.record["void"] = ev.note
        self.f.log_changes(number, f"dealer: hand {number} void ({ev.note})")
        stacks = dict(h.start.seats)
        self.f.post(number, lambda k: words.voided(number, ev.note, stacks, secrets, k), h.start.thread)
        self.f.days.hand_ended(h)

    def _fold(self, ev: DealerEvent) -> None:
        h = self._running()
        if h is None or h.start.number != ev.hand:
            return
        seat = h.hand.seat(ev.player)
        if seat is None or seat.folded:
            return
        need = engine.need(h.hand)
        event = Muck(player=ev.player) if need.kind == "reveal" and ev.player in need.players else FoldOut(ev.player)
        h.step = ("", ev.at)
        res = engine.apply(h.hand, event)
        if isinstance(res, engine.Rejection):
            return
        h.hand = res
        h.since = ev.at
        number = h.start.number
        self.f.post(number, lambda k: words.dealer_folds(ev.player, number, ev.note, k), h.start.thread)
        cause = f"dealer: {ev.player} folded by the Dealer ({ev.note})"
        if h.phase == "draw" and h.hand.result is None and (waiting_for_draws(h) or not h.draws):
            self.f.log_steps(h, cause)
            self.f.log_changes(number, cause)
            return
        if h.phase == "draw":
            h.phase = "betting"
        self.f.advance_hand(h, cause, h.start.thread, said=True)  # dealer_folds said it

    def _seat(self, ev: DealerEvent) -> None:
        d = self.f.st.days
        d.sitting_out.pop(ev.player, None)
        d.awol.discard(ev.player)
        d.timeouts.pop(ev.player, None)
        self._say_seat(ev, True)

    def _unseat(self, ev: DealerEvent) -> None:
        self.f.st.days.sitting_out[ev.player] = "dealer"
        self._say_seat(ev, False)

    def _say_seat(self, ev: DealerEvent, seat: bool) -> None:
        number, thread = self._thread()
        if thread:
            self.f.post(number, lambda k: words.seated(ev.player, ev.note, seat, k), thread)
