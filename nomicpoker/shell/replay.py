"""Replay (shell): fold a table from the store, under the ruleset it was created with.

The fold is pure (:mod:`nomicpoker.core.adjudicator`); this room reads its inputs from the
ledger (the table's configuration, the hand starts with their secrets, the comment archive,
the dealer events), checks the ruleset, runs it, and stores what it derived. The poll, the
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
    """A table cannot be replayed as stored (``ruleset_changed``: its ruleset file is not the
    one it was created with); ``message`` says why."""


def table_config_for(table: TableRow) -> TableConfig:
    """The fold's configuration of ``table``, with who rolls the dice from the forum's declared
    abilities, and its ruleset checked against the hash stored when the table was created."""
    from nomicpoker.adapters.registry import declared_abilities

    abilities = declared_abilities(table.forum_kind, loads(table.forum_config) or {})
    cfg = ledger.table_config(table, forum_roller=abilities.dice != "bot")
    if cfg.ruleset.content_hash and table.ruleset_hash and cfg.ruleset.content_hash != table.ruleset_hash:
        raise ReplayError("ruleset_changed", f"ruleset {table.ruleset} changed since table {table.name} "
                          f"was created (hash {cfg.ruleset.content_hash[:12]} != {table.ruleset_hash[:12]})")
    return cfg


def fold_for(session: Session, table: TableRow, state: Path, public: dict | None = None) -> FoldResult:
    """Replay ``table`` from the inputs in ``session`` (``public``: published secrets of ended
    hands, for a rebuild without the secrets folder)."""
    cfg = table_config_for(table)
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
