"""Replay (shell): fold a table from the store, under the rulesets pinned to it.

The fold is pure (:mod:`nomicpoker.core.adjudicator`); this room reads its inputs from the
ledger (the table's configuration, its pinned rulesets, the hand starts with their secrets,
the comment archive, the dealer events), runs it, and stores what it derived. The rulesets
come from the ledger, never from their files (:mod:`nomicpoker.shell.pinned`), so a new
nomicpoker release or an edited file cannot change a live table's rules. The poll, the
table commands and ``audit`` all replay through here, so they fold the same inputs the same
way.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlmodel import Session

from nomicpoker.core.adjudicator import fold_table
from nomicpoker.core.errors import CodedError
from nomicpoker.core.fold_types import FoldResult, TableConfig
from nomicpoker.shell import deadlines, ledger
from nomicpoker.shell.store import TableRow, loads


class ReplayError(CodedError):
    """A table cannot be replayed as stored; ``message`` says why. (A ruleset that cannot be
    had is a :class:`nomicpoker.shell.pinned.PinError`, code ``ruleset_changed``.)"""


def table_config_for(session: Session, table: TableRow) -> TableConfig:
    """The fold's configuration of ``table``, with who rolls the dice from the forum's declared
    abilities, and the ruleset it was created under as pinned in the ledger."""
    from nomicpoker.adapters.registry import declared_abilities

    abilities = declared_abilities(table.forum_kind, loads(table.forum_config) or {})
    return ledger.table_config(session, table, forum_roller=abilities.dice != "bot")


def fold_for(session: Session, table: TableRow, state: Path, public: dict | None = None) -> FoldResult:
    """Replay ``table`` from the inputs in ``session`` (``public``: published secrets of ended
    hands, for a rebuild without the secrets folder), each hand under the ruleset pinned for it."""
    cfg = table_config_for(session, table)
    return fold_table(cfg, ledger.hand_starts(session, table.name, state, public),
                      ledger.revisions(session, table.name), ledger.dealer_events(session, table.name))


def adjudicate(session: Session, table: TableRow, state: Path, now: datetime) -> dict[str, list]:
    """Replay ``table``, record the deadlines that have passed at ``now`` (replaying again after
    each, up to :data:`deadlines.MAX_TIMEOUTS_PER_RUN`), and store the new derived rows inside
    the caller's transaction; return them per kind (:func:`ledger.store_fold`)."""
    result = fold_for(session, table, state)
    for _ in range(deadlines.MAX_TIMEOUTS_PER_RUN):
        if not deadlines.record_due(session, table, result, now):
            break
        result = fold_for(session, table, state)
    return ledger.store_fold(session, table.name, result)
