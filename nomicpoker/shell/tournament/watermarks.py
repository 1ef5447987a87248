"""Up to where the rail's runs went (shell): the watermark of the ``rail_showdowns`` and
``rail_asks`` events.

Each run of the rail's showdowns (:mod:`.rail`) and of the players' asks (:mod:`.asks`) records
what it covered, per table (the last hand, the last verdict), as a tournament event, before
any message goes; the next run starts after it. WHY a watermark: finding "up to where" by
folding every such event cost what the tournament had played, at every poll (a
``rail_showdowns`` event for each poll in which a hand ended, a ``rail_asks`` event for each
poll with any verdict). So each event also carries the whole watermark, ``covered`` (every
table's last one covered, this run's included), and a run reads only the newest event of its
kind: one row, however long the tournament. ``upto`` (what this run covered) stays as it was.

An event recorded before the watermark (no ``covered``: a ledger from an older release) is
read the old way, every event of the kind folded, until the next run records one that carries
it.
"""

from __future__ import annotations

from sqlmodel import Session, select

from nomicpoker.shell.storage.store import loads
from nomicpoker.shell.storage.tournament_rows import TournamentEventRow
from nomicpoker.shell.tournament.director import events


def covered(s: Session, name: str, kind: str) -> dict[str, int]:
    """Up to where the runs recorded as ``kind`` events went, per table (module docstring)."""
    newest = s.exec(select(TournamentEventRow.data)
                    .where(TournamentEventRow.tournament == name, TournamentEventRow.kind == kind)
                    .order_by(TournamentEventRow.seq.desc()).limit(1)).first()  # type: ignore[attr-defined]
    if newest is None:
        return {}
    mark = loads(newest).get("covered")
    if mark is not None:
        return {t: int(n) for t, n in mark.items()}
    upto: dict[str, int] = {}  # recorded before the watermark: fold them all, as before
    for e in events(s, name, kind):
        for t, n in loads(e.data).get("upto", {}).items():
            upto[t] = max(upto.get(t, 0), int(n))
    return upto


def advanced(mark: dict[str, int], upto: dict[str, int]) -> dict[str, int]:
    """The watermark ``mark`` moved on by a run that covered ``upto``: what its event carries
    as ``covered`` (tables in name order, so the same run records the same bytes)."""
    out = dict(mark)
    for t, n in upto.items():
        out[t] = max(out.get(t, 0), int(n))
    return dict(sorted(out.items()))


__all__ = ["advanced", "covered"]
