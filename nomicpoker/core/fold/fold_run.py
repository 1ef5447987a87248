"""Running the table fold: the order of its inputs, the per-comment safety net, its result.

The fold itself (what each input does to the table) is :class:`nomicpoker.core.fold.adjudicator._Folder`;
this module walks the inputs through it and packs what it derived (pure, no I/O).
"""

from __future__ import annotations

from typing import Any

from nomicpoker.core.poker import engine
from nomicpoker.core.fold.adjudicator import _Folder
from nomicpoker.core.fold.draws import draw_clock, waiting_for_draws
from nomicpoker.core.table.fold_state import TableState
from nomicpoker.core.table.fold_types import (INTERNAL_ERROR_EVENT, CommentFailed, CurrentHand, DealerEvent, FoldResult,
                                        HandStart, Revision, TableConfig, recorded_failure)
from nomicpoker.core.fold.over_days import alarms


#: the order of the fold's inputs: (archive position, 1 for a comment revision / 2 for a hand
#: start or a dealer event, hand number, 0 for a hand start / 1 for an event, event ordinal)
StreamKey = tuple[int, int, int, int, int]


def input_stream(hands: list[HandStart], revisions: list[Revision], events: list[DealerEvent],
                 event_base: int = 0) -> list[tuple[StreamKey, str, Any]]:
    """The inputs in the order the fold reads them. Hand starts and dealer events come after
    the revision at their ``after`` position; at one position they go in hand order, a hand's
    start before its own events and after the events of the hand before it. ``event_base`` is
    the ordinal of ``events[0]`` among all the table's events (a resumed fold gets only the
    new ones).

    WHY not simply "events after hand starts": a hand that ends on a timeout (a silent
    revealer mucks) and the next ``hand start`` with no comment in between share a position;
    the timeout ended the earlier hand, so it must come first."""
    stream: list[tuple[StreamKey, str, Any]] = []
    stream += [((r.archive_id, 1, 0, 0, 0), "rev", r) for r in revisions]
    stream += [((hs.after, 2, hs.number, 0, 0), "hand", hs) for hs in hands]
    stream += [((ev.after, 2, ev.hand, 1, event_base + i), "event", ev) for i, ev in enumerate(events)]
    stream.sort(key=lambda t: t[0])
    return stream


def fold_table(config: TableConfig, hands: list[HandStart], revisions: list[Revision],
               events: list[DealerEvent], reader=None) -> FoldResult:
    """Replay a whole table from its first input (what ``audit`` runs; the poll resumes from a
    snapshot where it can, :func:`resume_fold`). Input order: :func:`input_stream`."""
    return fold_stream(config, None, input_stream(hands, revisions, events), reader)


def fold_stream(config: TableConfig, state: TableState | None,
                stream: list[tuple[StreamKey, str, Any]], reader=None) -> FoldResult:
    """Fold ``stream`` (ordered by :func:`input_stream`) on from ``state`` (``None``: a new
    table). The result's rows are those this call derived, numbered on from ``state.seq``;
    ``result.state`` is the state after the last input. ``state`` is consumed (changed in
    place): pass a copy to keep it.

    The per-comment safety net: when reading or adjudicating one comment revision raises
    (a fault of ours: the reader promises never to raise), a fold from the first input
    (``state`` is ``None``) starts again with that revision marked failed, so it is answered
    ``internal_error`` and changes nothing else, and every later input is folded as if it
    had never been posted; ``result.failures`` carries each (revision, exception) for the
    shell to log. WHY start again rather than undo: the fold is pure, so folding the same
    inputs again is exact, and it costs nothing until a comment fails; a copy of the state
    before every comment would cost every poll. A resumed fold (``state`` given) cannot start
    again and raises :class:`CommentFailed`; the shell then replays from the first input,
    which answers the same way, so the poll and ``audit`` agree. ``reader``: the comment
    reader (``None``: :meth:`_Folder.read_comment`); the documented seam through which tests
    inject a reader that fails, as no known input makes the real one fail.

    A revision the shell has recorded as answered ``internal_error`` (an
    :data:`~nomicpoker.core.table.fold_types.INTERNAL_ERROR_EVENT` dealer event in ``stream``) is
    answered so without being read, as when it failed: its answer is history, so a release
    that fixes the fault replays the table as it was played. Such an event comes after its
    revision in ``stream`` (it is recorded once the revision was read), hence collected first."""
    recorded = frozenset(recorded_failure(item) for _, kind, item in stream
                         if kind == "event" and item.kind == INTERNAL_ERROR_EVENT)
    failures: dict[tuple[str, str, int], BaseException] = {}
    while True:
        try:
            f = _fold_inputs(config, state, stream, recorded | frozenset(failures), reader)
            break
        except CommentFailed as cf:
            if state is not None or cf.key in failures:
                raise
            failures[cf.key] = cf.exc
    return _result(f, tuple(failures.items()))


def _fold_inputs(config: TableConfig, state: TableState | None, stream: list[tuple[StreamKey, str, Any]],
                 failed: frozenset[tuple[str, str, int]], reader) -> _Folder:
    f = _Folder(config, state, failed, reader)
    for _, kind, item in stream:
        if kind == "rev":
            f.comment(item)
        elif kind == "hand":
            f.start(item)
        else:
            f.clock_event(item)
    return f


def _result(f: _Folder, failures: tuple[tuple[tuple[str, str, int], BaseException], ...]) -> FoldResult:
    current = None
    if f.st.current is not None:
        h = f.st.current
        need = engine.need(h.hand)
        to_act = need.players[0] if (h.phase == "betting" and need.kind == "action") else None
        if h.phase == "draw":
            waiting = tuple(waiting_for_draws(h))
        elif h.phase == "reveal":
            waiting = tuple(need.players)
        else:
            waiting = (to_act,) if to_act else ()
        current = CurrentHand(h.start.number, h.start.thread, h.phase, to_act, waiting, h.since,
                              h.start.button, draw_clock(h), alarms(f.st.days, h))
    records = {n: dict(h.record) for n, h in f.st.hands.items()}
    d = f.st.days
    return FoldResult(rows={k: tuple(v) for k, v in f.out.items()}, gndt=dict(f.st.gndt), current=current,
                      records=records, state=f.st, frozen=d.frozen, sitting_out=tuple(sorted(d.sitting_out)),
                      settings=d.settings, private=dict(f.private), failures=failures)
