"""The ledger's tournament tables (shell): ``np_tournament`` and ``np_tournament_event``.

WHY two append-mostly tables and no table of seats: a tournament is, like a table, a fold over
its inputs. The tournament row holds what the director decided at creation (the structure file
verbatim with its sha256, the ruleset, the commitment to the seed) and, from the start, the
published seed; every later decision (an entrant, the start and its draw, a pause, a
disqualification) is an event with its time. The seats of every table are recomputed from the
seed and the events (:mod:`nomicpoker.core.tournament`), so an auditor needs nothing else. A
module of its own beside :mod:`.store` (which lists these among the ledger's models) only
because that file is at its size limit.
"""

from __future__ import annotations

from typing import Optional

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class TournamentRow(SQLModel, table=True):
    """One tournament: its structure (``structure``: the TOML verbatim) and seed commitment."""

    __tablename__ = "np_tournament"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    title: str
    structure: str  # the structure file, verbatim (UTF-8)
    structure_hash: str  # sha256 of its bytes
    ruleset: str  # the ruleset every table of the tournament is created under
    seed_hash: str  # sha256 of the seed: published at creation
    seed: str = ""  # the seed itself: "" until the tournament starts
    status: str = "registering"  # registering, running, paused, finished
    forum_kind: str = "local"
    dealer: str = "Dealer"
    created: str
    started: str = ""


class TournamentEventRow(SQLModel, table=True):
    """One decision of the director, in order: ``enter`` (an entrant), ``start`` (``data``: the
    draw's tables and the table names made), ``pause``, ``resume``, ``disqualify``,
    ``rail_join`` (``data``: ``forum``, the table the director named for him, if any),
    ``rail_leave``, ``rail_standings`` (``data``: the day and who it went to, ``via`` the table
    whose forum carried each), ``rail_showdowns`` (``data``: ``upto``, the last hand of each
    table covered, ``sent``, [table, hand, [who]] per showdown, ``via``, and ``covered``, the
    watermark: every table's last hand covered so far), ``rail_asks`` (likewise, by verdict), ``rail_thread``
    (``note``: the rail's thread; ``data``: ``forum``, the table whose forum it is on, if not
    the first's),
    ``moves`` (``data``: the moves of one step, the tables broken, the final table's positions:
    :mod:`nomicpoker.shell.tournament.moves`), ``finish`` (``player``: the winner)."""

    __tablename__ = "np_tournament_event"
    __table_args__ = (UniqueConstraint("tournament", "seq"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    tournament: str = Field(index=True)
    seq: int  # 1, 2, ... within the tournament
    kind: str
    player: str = ""
    at: str
    note: str = ""
    data: str = "{}"  # JSON


TOURNAMENT_MODELS = (TournamentRow, TournamentEventRow)

__all__ = ["TOURNAMENT_MODELS", "TournamentEventRow", "TournamentRow"]
