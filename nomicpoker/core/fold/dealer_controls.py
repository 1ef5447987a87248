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

A phase without a hub (:mod:`.effects`): :func:`event` is a function of the recorded event and
the fold's state, which it only reads, and returns what happened as values (the state changes,
the dealer's comment, the requests to move the hand on or adjudicate the kept comments); the
fold applies them in order. :func:`unfreeze` is also what a protester's ``UNDO`` does.
"""

from __future__ import annotations

from dataclasses import replace

from nomicpoker.core.words import days_notices as words
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import FoldOut, Muck
from nomicpoker.core.fold.draws import waiting_for_draws, waiting_in
from nomicpoker.core.fold.effects import (AdvanceHand, Effect, HandEnded, LogChanges, LogSteps, MoneySet, Post,
                                          Readjudicate, Recorded, Row, days_set, hand_set)
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DealerEvent, FoldError
from nomicpoker.core.table.office_hours import parse_moment
from nomicpoker.core.table.table_settings import EDITIONS

#: dealer event kinds of the Dealer's controls (and the reminder, handled by the days room)
CONTROL_KINDS = ("settings", "pause", "resume", "void", "fold", "seat", "unseat")


def without(items: set[str], item: str) -> set[str]:
    """A copy of ``items`` without ``item`` (a copy keeps the set's order of iteration, which
    a set built anew might not: the status table lists the AWOL players in it)."""
    out = set(items)
    out.discard(item)
    return out


def _running(st: TableState) -> HandState | None:
    h = st.current
    return h if h is not None and h.phase != "complete" else None


def _thread(st: TableState) -> tuple[int | None, str | None]:
    """The latest hand's number and thread, where the Dealer's notices go (none before a hand)."""
    h = st.current
    return (h.start.number, h.start.thread) if h is not None else (None, None)


def event(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    """A recorded control ``ev``, applied to the fold's state ``st`` (only read): what it does."""
    handler = _HANDLERS.get(ev.kind)
    if handler is None:  # pragma: no cover - the fold dispatches only CONTROL_KINDS
        raise FoldError("bad_event", f"dealer event {ev.kind!r} is not a Dealer's control")
    return handler(ev, st)


def _settings(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    old = st.days.settings
    new = old.changed(dict(ev.data))
    number, thread = _thread(st)
    said = new.describe()
    if new.forced_bets() != old.forced_bets():  # from the next hand (hand start reads them)
        said += f"; forced bets from the next hand: {new.forced_bets() or 'as the Dealer starts it'}"
    if new.edition != old.edition:  # players are told what their comments will mean
        said += (f"; from the next hand, edition {new.edition} of the Dealer's reading: "
                 f"{EDITIONS[new.edition]}")
    out: tuple[Effect, ...] = (days_set(settings=new),)
    if thread:
        out += (Post(number, lambda k: words.settings_changed(said, ev.note, k), thread),)
    return out


def _pause(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    if st.days.frozen:
        return ()
    number, thread = _thread(st)
    return (days_set(frozen="pause"),) + ((Post(number, lambda k: words.paused(ev.note, k), thread),) if thread else ())


def _resume(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    if not st.days.frozen:
        return ()
    _, thread = _thread(st)
    return unfreeze(st, ev.at, "The Dealer resumes the table", ev.note, thread)


def unfreeze(st: TableState, at: str, by: str, note: str, thread: str | None) -> tuple[Effect, ...]:
    """End a pause or a protest: the waited-on clocks start again at ``at``, the table
    hears who is to act, then the comments kept meanwhile are adjudicated in order."""
    d = st.days
    held = d.held
    out: list[Effect] = [days_set(frozen="", protester="", held=[])]
    h = _running(st)
    if h is not None:
        waiting = waiting_for_draws(h) if h.phase == "draw" else []
        out.append(hand_set(h.start.number, since=at, redraws={**h.redraws, **{p: at for p in waiting}}))
    number, posted_in = _thread(st)
    to_act = due = None
    if h is not None and h.phase == "betting" and not held:  # else the kept comments' notices say
        need = engine.need(h.hand)
        if need.kind == "action":
            to_act = need.players[0]
            due = d.due_text(to_act, at)
    if thread or posted_in:
        out.append(Post(number, lambda k: words.resumed(by, note, to_act, due, len(held), k),
                        thread or posted_in))  # type: ignore[arg-type]
    resumed = parse_moment(at)
    for rev in held:
        # A kept comment counts from the moment the table runs again: the clock it starts
        # (the next player's deadline) must not have run during the freeze.
        made = parse_moment(rev.created)
        out.append(Readjudicate(replace(rev, created=at) if made and resumed and made < resumed else rev))
    return tuple(out)


def _void(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    h = _running(st)
    if h is None or h.start.number != ev.hand:
        return ()
    number = h.start.number
    secrets = h.start.secrets.published()
    stacks = dict(h.start.seats)
    return (MoneySet(stacks), hand_set(number, phase="complete"),
            Row("hand_end", dict(hand=number, secrets=dict(secrets), payouts={}, destroyed=0)),
            Recorded(number, "secrets", dict(secrets), append=False), Recorded(number, "void", ev.note, append=False),
            LogChanges(number, f"dealer: hand {number} void ({ev.note})"),
            Post(number, lambda k: words.voided(number, ev.note, stacks, secrets, k), h.start.thread),
            HandEnded(number))


def _fold(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    h = _running(st)
    if h is None or h.start.number != ev.hand:
        return ()
    seat = h.hand.seat(ev.player)
    if seat is None or seat.folded:
        return ()
    number = h.start.number
    need = engine.need(h.hand)
    event = Muck(player=ev.player) if need.kind == "reveal" and ev.player in need.players else FoldOut(ev.player)
    res = engine.apply(h.hand, event)
    if isinstance(res, engine.Rejection):
        return (hand_set(number, step=("", ev.at)),)
    out: tuple[Effect, ...] = (
        hand_set(number, step=("", ev.at), hand=res, since=ev.at),
        Post(number, lambda k: words.dealer_folds(ev.player, number, ev.note, k), h.start.thread))
    cause = f"dealer: {ev.player} folded by the Dealer ({ev.note})"
    if h.phase == "draw" and res.result is None and (waiting_in(res, h.draws) or not h.draws):
        return out + (LogSteps(number, cause), LogChanges(number, cause))
    if h.phase == "draw":
        out += (hand_set(number, phase="betting"),)
    return out + (AdvanceHand(number, cause, h.start.thread, said=True),)  # dealer_folds said it


def _seat(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    d, p = st.days, ev.player
    return (days_set(sitting_out={k: v for k, v in d.sitting_out.items() if k != p}, awol=without(d.awol, p),
                     timeouts={k: v for k, v in d.timeouts.items() if k != p}),) + _say_seat(ev, st, True)


def _unseat(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    return (days_set(sitting_out={**st.days.sitting_out, ev.player: "dealer"}),) + _say_seat(ev, st, False)


def _say_seat(ev: DealerEvent, st: TableState, seat: bool) -> tuple[Effect, ...]:
    number, thread = _thread(st)
    return (Post(number, lambda k: words.seated(ev.player, ev.note, seat, k), thread),) if thread else ()


_HANDLERS = {"settings": _settings, "pause": _pause, "resume": _resume, "void": _void, "fold": _fold,
             "seat": _seat, "unseat": _unseat}
