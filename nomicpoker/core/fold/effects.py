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

from dataclasses import dataclass
from typing import Callable, Iterable, Protocol, Union

from nomicpoker.core.table.fold_state import TableState
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


Effect = Union[Verdict, Post, Message, FirstReading, ScoreAsked, ScoreAnswered]


class EffectHost(Protocol):
    """What applying a phase's effects uses of the fold."""

    st: TableState

    def give_verdict(self, rev: Revision, hand: int | None, status: str, code: str = "",
                     message: str = "", citation: str = "", canonical: str = "") -> None: ...

    def post(self, hand: int | None, body_fn: Callable[[str], str], thread: str,
             reply_to: str | None = None) -> None: ...

    def send_private(self, hand: int | None, user: str, subject: str, body: str) -> None: ...


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
