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
"""

from __future__ import annotations

from typing import Any

from nomicpoker.core.fold import editions
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.table.fold_types import DealerEvent
from nomicpoker.core.words.gndt import md_escape
from nomicpoker.core.words.standings import TableMoney, render, standings
from nomicpoker.core.words.tags import reference_tag

#: the dealer event kind that carries the standings for one SCORE request
SCORE = "score"


class Score:
    """The fold's SCORE part; ``f`` is the table fold (adjudicator)."""

    def __init__(self, fold: Any):
        self.f = fold

    def comment(self, rev, reading: Reading, h: Any, number: int | None) -> bool:
        """``score``: take ``rev`` as a SCORE request (its first line is ``SCORE`` or
        ``SCORE/L``: :mod:`nomicpoker.core.reading.comment_reading`). True: handled."""
        full = reading.text.score
        assert full is not None
        self.f.st.first_kind[(rev.thread, rev.forum_id)] = "action"
        self.f.give_verdict(rev, number, "accepted", canonical="SCORE/L" if full else "SCORE")
        self.f.st.score_pending.append([rev.thread, rev.forum_id, rev.author, "L" if full else "",
                                        str(number or 0)])
        return True

    def event(self, ev: DealerEvent) -> None:
        """A recorded ``score`` event: answer its request with the standings it carries."""
        fid = str(ev.data.get("forum_id", ""))
        req = next((r for r in self.f.st.score_pending if r[1] == fid), None)
        if req is None:
            return  # answered already (an event recorded twice changes nothing)
        self.f.st.score_pending.remove(req)
        thread, _fid, author, full, hand = req
        rows = [TableMoney(str(t), str(p), int(m), None if o is None else int(o))
                for t, p, m, o in ev.data.get("rows", [])]
        table = render(standings(rows, full == "L"))
        what = "SCORE/L (eliminated players too)" if full else "SCORE"
        body = lambda k: (f"{md_escape(author)} asked for the {what}: "  # noqa: E731
                          f"standings across every table at {md_escape(ev.at)}, Money plus chips in a "
                          f"running pot.\n\n```\n{table}```\n\n{reference_tag(k)}\n")
        if editions.mails_like_wrgpt(self.f.c, self.f.st, self.f.st.hands.get(int(hand))):  # e-mail: to the asker alone
            self.f.send_private(None, author, f"Standings ({self.f.c.name})",
                                body(f"{self.f.c.name}-h{int(hand)}-answer"))
            return
        self.f.post(int(hand) or None, body, thread, reply_to=fid)
