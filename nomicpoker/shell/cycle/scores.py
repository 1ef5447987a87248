"""SCORE comments (shell): gather every table's Money and record it for the fold.

A table's fold takes a ``SCORE`` comment as a request (:mod:`nomicpoker.core.fold.score_fold`); this
room answers it the way deadlines are answered (:mod:`nomicpoker.shell.cycle.deadlines`): it records
a ``score`` dealer event carrying the standings rows read now, and the fold, replayed, posts
them. WHY an event: the other tables' Money is outside this table's inputs; recorded, it is an
input, and ``audit`` reproduces the answer byte for byte.

The rows are those of ``nomicpoker score``: each player's Money plus chips in a running pot,
per table, and the hand in which their Money reached 0 (for ``SCORE/L``'s order). The asking
table's own row comes from its fold's state (the ledger may not hold the latest step yet).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from nomicpoker.core.table.fold_state import TableState
from nomicpoker.core.fold.score_fold import SCORE
from nomicpoker.core.words.standings import TableMoney
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.deadlines import iso
from nomicpoker.shell.storage.store import DealerEventRow, TableRow, dumps, loads


def _out_hands(s: Session, table: str) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for e in ledger.stored_rows(s, table, "entry"):
        if e.column == "Money":
            out[e.player] = e.hand if e.new == "0" else None
    return out


def table_money(s: Session, own: tuple[str, TableState] | None = None) -> list[TableMoney]:
    """Every table's rows (``own``: a table whose fold state is newer than the ledger)."""
    rows: list[TableMoney] = []
    for t in s.exec(select(TableRow).order_by(TableRow.id)).all():
        out = _out_hands(s, t.name)
        if own is not None and own[0] == t.name:
            gndt = own[1].gndt
            rows += [TableMoney(t.name, p, m + pot, out.get(p) if m + pot == 0 else None)
                     for p, (m, _turn, pot) in gndt.items()]
            continue
        rows += [TableMoney(t.name, g.player, g.money + g.pot, out.get(g.player)) for g in ledger.gndt(s, t)]
    return rows


def record(session: Session, table: TableRow, st: TableState | None, now: datetime) -> bool:
    """Record a ``score`` event for the first SCORE request of ``st`` not yet answered;
    True when one was recorded (the caller folds again)."""
    if st is None or not st.score_pending:
        return False
    asked = {str(loads(e.data).get("forum_id", "")) for e in session.exec(select(DealerEventRow).where(
        DealerEventRow.table_name == table.name, DealerEventRow.kind == SCORE)).all()}
    req = next((r for r in st.score_pending if r[1] not in asked), None)
    if req is None:
        return False
    rows = [[r.table, r.player, r.money, r.out_hand] for r in table_money(session, (table.name, st))]
    session.add(DealerEventRow(table_name=table.name, hand=int(req[4]), after=ledger.max_archive_id(session, table.name),
                               kind=SCORE, player=req[2], at=iso(now),
                               data=dumps({"forum_id": req[1], "rows": rows})))
    session.flush()
    return True
