"""The ``SCORE`` comment in the fold (pure): WRGPT's "total aggregate standings of all players".

WHY a request and a dealer event, not an answer at once: the standings span every table of the
game, and a table's fold knows only its own. So the fold takes ``SCORE`` (or ``SCORE/L``, with
the eliminated players) as a request it remembers (``TableState.score_pending``); the shell
reads the other tables' Money from the ledger and records it as a ``score`` dealer event
(:mod:`nomicpoker.shell.cycle.scores`); the fold, replaying that event, answers with the standings
(:mod:`nomicpoker.core.words.standings`) it carries. The standings are thereby an input like a
deadline's time, and ``audit`` posts the same answer a month later.

A ``SCORE`` comment is the command alone on the first line of a comment (any case), from
anyone but the Dealer; it is answered in the thread, replying to the comment.

The first phase of the fold written without a hub (:mod:`.effects`): :func:`comment` and
:func:`event` are functions of their input and the state they read, and return what happened
as values, which the fold applies; they never call back into it.
"""

from __future__ import annotations

from nomicpoker.core.fold import editions
from nomicpoker.core.fold.effects import Effect, FirstReading, Message, Post, ScoreAnswered, ScoreAsked, Verdict
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.table.fold_state import TableState
from nomicpoker.core.table.fold_types import DealerEvent, Revision, TableConfig
from nomicpoker.core.words.gndt import md_escape
from nomicpoker.core.words.standings import TableMoney, render, standings
from nomicpoker.core.words.tags import reference_tag

#: the dealer event kind that carries the standings for one SCORE request
SCORE = "score"


def comment(rev: Revision, reading: Reading, number: int | None) -> tuple[Effect, ...]:
    """``score``: the SCORE request ``rev`` (its first line is ``SCORE`` or ``SCORE/L``:
    :mod:`nomicpoker.core.reading.comment_reading`), as what it does: it is accepted and waits
    for the standings."""
    full = reading.text.score
    assert full is not None
    return (FirstReading(rev, "action"),
            Verdict(rev, number, "accepted", canonical="SCORE/L" if full else "SCORE"),
            ScoreAsked((rev.thread, rev.forum_id, rev.author, "L" if full else "", str(number or 0))))


def event(ev: DealerEvent, st: TableState, config: TableConfig) -> tuple[Effect, ...]:
    """A recorded ``score`` event: the answer to its request (waiting in the fold's state
    ``st``, which is only read) with the standings it carries; nothing when it was answered
    already (an event recorded twice changes nothing)."""
    fid = str(ev.data.get("forum_id", ""))
    req = next((r for r in st.score_pending if r[1] == fid), None)
    if req is None:
        return ()
    thread, _fid, author, full, hand = req
    rows = [TableMoney(str(t), str(p), int(m), None if o is None else int(o))
            for t, p, m, o in ev.data.get("rows", [])]
    table = render(standings(rows, full == "L"))
    what = "SCORE/L (eliminated players too)" if full else "SCORE"
    body = lambda k: (f"{md_escape(author)} asked for the {what}: "  # noqa: E731
                      f"standings across every table at {md_escape(ev.at)}, Money plus chips in a "
                      f"running pot.\n\n```\n{table}```\n\n{reference_tag(k)}\n")
    if editions.mails_like_wrgpt(config, st, st.hands.get(int(hand))):  # e-mail: to the asker alone
        return (ScoreAnswered(fid), Message(None, author, f"Standings ({config.name})",
                                            body(f"{config.name}-h{int(hand)}-answer")))
    return ScoreAnswered(fid), Post(int(hand) or None, body, thread, reply_to=fid)
