"""What a phase of the fold did, as values (pure): the start of a fold without a hub.

WHY: the fold's phases (the Hole Card Draw, play over days, the Dealer's controls, advance
actions, SCORE) used to call back into the fold (``self.f.give_verdict``, ``self.f.post``,
``self.f.st...``) and reach each other through it (issue 23, "A fold without a hub"). A phase
written the new way is a function of the fold's state and its input that *returns* what
happened, in order: verdicts, dealer comments, private messages, and the changes to the
state it owns; the fold applies them (:func:`apply`), in that order, so the derived rows and
their sequence numbers are those the callbacks made. ``SCORE`` is the first phase written so
(:mod:`.score_fold`); what :func:`apply` needs of the fold is declared in :class:`EffectHost`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Union

from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import Revision


@dataclass(frozen=True)
class Verdict:
    """The verdict on a revision (a row of ``np_verdict``)."""

    rev: Revision
    hand: int | None
    status: str
    code: str = ""
    message: str = ""
    citation: str = ""
    canonical: str = ""


@dataclass(frozen=True)
class Post:
    """A dealer comment in ``thread``; ``body(key)`` renders it ending with its reference tag."""

    hand: int | None
    body: Callable[[str], str]
    thread: str
    reply_to: str | None = None


@dataclass(frozen=True)
class Message:
    """A private message to ``user`` (``hand`` None: nothing of a hand in it)."""

    hand: int | None
    user: str
    subject: str
    body: str


@dataclass(frozen=True)
class FirstReading:
    """What a comment's first revision was read as (``chat`` or ``action``), which an edit's
    note recalls."""

    rev: Revision
    kind: str


@dataclass(frozen=True)
class ScoreAsked:
    """A SCORE request is waiting for the standings (``TableState.score_pending``)."""

    request: tuple[str, ...]


@dataclass(frozen=True)
class ScoreAnswered:
    """The SCORE request of comment ``forum_id`` has its answer: it waits no more."""

    forum_id: str


@dataclass(frozen=True)
class Reject:
    """A rejection (the fold's ``reject``): the verdict with the rule sentence of ``cite_as``
    (or ``cite``, the engine's quotation), past the flood threshold one notice then silence,
    answered in the thread or, where players do not read it, privately."""

    rev: Revision
    hand: int | None
    code: str
    message: str
    cite_as: str | None = None
    hint: str | None = None
    cite: str = ""


@dataclass(frozen=True)
class Row:
    """A derived row of ``kind`` (``dice``, ``deck``, ``draw``, ``reveal``, ``hand_end``)."""

    kind: str
    values: Mapping[str, Any]


@dataclass(frozen=True)
class HandSet:
    """Fields of hand ``number``'s state (:class:`HandState`) take these values, which the
    phase computed from the old ones (a container is a new one, never the old one changed)."""

    number: int
    fields: Mapping[str, Any]


def hand_set(number: int, **fields: Any) -> HandSet:
    """:class:`HandSet` with its fields as keywords."""
    return HandSet(number, fields)


@dataclass(frozen=True)
class Recorded:
    """Hand ``number``'s public record (``HandState.record``, what ``audit`` shows) gains
    ``value`` at the end of the list ``part`` (``append``), or ``part`` is set to it."""

    number: int
    part: str
    value: Any
    append: bool = True


@dataclass(frozen=True)
class DaysSet:
    """Fields of play over days (:class:`~nomicpoker.core.table.days_state.DaysState`) take
    these values (new containers, computed from the old)."""

    fields: Mapping[str, Any]


def days_set(**fields: Any) -> DaysSet:
    """:class:`DaysSet` with its fields as keywords."""
    return DaysSet(fields)


@dataclass(frozen=True)
class MoneySet:
    """Players' Money between hands (``TableState.money``) takes these values."""

    money: Mapping[str, int]


@dataclass(frozen=True)
class AdvanceHand:
    """Move hand ``number`` on after an accepted step (the fold's ``advance_hand``); ``said``:
    the phase's own comment said the step."""

    number: int
    cause: str
    thread: str
    said: bool = False


@dataclass(frozen=True)
class LogSteps:
    """Write the action rows of hand ``number``'s newly accepted steps, with ``cause``."""

    number: int
    cause: str


@dataclass(frozen=True)
class LogChanges:
    """Write the GNDT change-log entries since the last ones, with ``cause``."""

    hand: int | None
    cause: str


@dataclass(frozen=True)
class Readjudicate:
    """Adjudicate ``rev`` now: a comment kept while the table was frozen."""

    rev: Revision


@dataclass(frozen=True)
class HandEnded:
    """Hand ``number`` is over for play over days: vacations announced, reminders spent."""

    number: int


@dataclass(frozen=True)
class TakeAdvance:
    """Take the advance action ``program`` of ``rev`` (a private message) in hand ``number``;
    ``my_turn``: its author is to act."""

    rev: Revision
    number: int
    program: Any = field(compare=False)
    my_turn: bool


@dataclass(frozen=True)
class Acted:
    """``player``'s action was accepted in hand ``hand`` (an advance action that fired): play
    over days forgets his timeouts and floods, as for an accepted comment. Computed when the
    fold reaches it, from play over days as it is then."""

    player: str
    hand: int | None


@dataclass(frozen=True)
class IfKept:
    """``effect``, if ``player`` still has an advance action in hand ``number`` when the fold
    reaches it: an advance action written at its player's turn is confirmed only when it was
    kept for later, which is known once the hand has moved on (it may have fired again)."""

    number: int
    player: str
    effect: "Effect"


Effect = Union[Verdict, Post, Message, FirstReading, ScoreAsked, ScoreAnswered, Reject, Row, HandSet,
               Recorded, DaysSet, MoneySet, AdvanceHand, LogSteps, LogChanges, Readjudicate, HandEnded,
               TakeAdvance, Acted, IfKept]


class EffectHost(Protocol):
    """What applying a phase's effects uses of the fold."""

    st: TableState

    def give_verdict(self, rev: Revision, hand: int | None, status: str, code: str = "",
                     message: str = "", citation: str = "", canonical: str = "") -> None: ...

    def post(self, hand: int | None, body_fn: Callable[[str], str], thread: str,
             reply_to: str | None = None) -> None: ...

    def send_private(self, hand: int | None, user: str, subject: str, body: str) -> None: ...

    def reject(self, rev: Revision, hand: int | None, code: str, message: str,
               cite_as: str | None = None, hint: str | None = None, cite: str = "") -> None: ...

    def add_row(self, _kind: str, **values: Any) -> dict[str, Any]: ...

    def advance_hand(self, h: HandState, cause: str, thread: str, said: bool = False) -> None: ...

    def log_steps(self, h: HandState, cause: str) -> None: ...

    def log_changes(self, hand: int | None, cause: str) -> None: ...

    def comment(self, rev: Revision) -> None: ...

    def hand_ended_for_days(self, h: HandState) -> None: ...

    def take_advance(self, rev: Revision, number: int, program: Any, my_turn: bool) -> None: ...

    def acted(self, player: str, hand: int | None) -> None: ...


def apply(host: EffectHost, effects: Iterable[Effect]) -> None:
    """Make ``effects`` happen, in order: rows through the fold, state changes on its state."""
    for e in effects:
        if isinstance(e, Verdict):
            host.give_verdict(e.rev, e.hand, e.status, e.code, e.message, e.citation, e.canonical)
        elif isinstance(e, Post):
            host.post(e.hand, e.body, e.thread, reply_to=e.reply_to)
        elif isinstance(e, Message):
            host.send_private(e.hand, e.user, e.subject, e.body)
        elif isinstance(e, FirstReading):
            host.st.first_kind[(e.rev.thread, e.rev.forum_id)] = e.kind
        elif isinstance(e, ScoreAsked):
            host.st.score_pending.append(list(e.request))
        elif isinstance(e, ScoreAnswered):
            host.st.score_pending[:] = _without_first(host.st.score_pending, e.forum_id)
        elif isinstance(e, Reject):
            host.reject(e.rev, e.hand, e.code, e.message, e.cite_as, e.hint, e.cite)
        elif isinstance(e, Row):
            host.add_row(e.kind, **e.values)
        elif isinstance(e, HandSet):
            h = host.st.hands[e.number]
            for name, value in e.fields.items():
                setattr(h, name, value)
        elif isinstance(e, Recorded):
            record = host.st.hands[e.number].record
            if e.append:
                record[e.part].append(e.value)
            else:
                record[e.part] = e.value
        elif isinstance(e, DaysSet):
            for name, value in e.fields.items():
                setattr(host.st.days, name, value)
        elif isinstance(e, MoneySet):
            host.st.money.update(e.money)
        elif isinstance(e, AdvanceHand):
            host.advance_hand(host.st.hands[e.number], e.cause, e.thread, said=e.said)
        elif isinstance(e, LogSteps):
            host.log_steps(host.st.hands[e.number], e.cause)
        elif isinstance(e, LogChanges):
            host.log_changes(e.hand, e.cause)
        elif isinstance(e, Readjudicate):
            host.comment(e.rev)
        elif isinstance(e, HandEnded):
            host.hand_ended_for_days(host.st.hands[e.number])
        elif isinstance(e, TakeAdvance):
            host.take_advance(e.rev, e.number, e.program, e.my_turn)
        elif isinstance(e, Acted):
            host.acted(e.player, e.hand)
        elif isinstance(e, IfKept):
            if e.player in host.st.hands[e.number].advance:
                apply(host, (e.effect,))
        else:  # pragma: no cover - every Effect is handled above
            raise TypeError(f"not an effect: {e!r}")


def _without_first(pending: list[list[str]], forum_id: str) -> list[list[str]]:
    """``pending`` without its first request of comment ``forum_id`` (``list.remove``)."""
    out = list(pending)
    for i, r in enumerate(out):
        if r[1] == forum_id:
            del out[i]
            break
    return out
