"""What a table's fold says now, for the commands that start hands (shell): the settings in force
(forced bets, deadlines), who sits out, the freeze and the play-over-days state.

WHY not :func:`nomicpoker.shell.cycle.replay.fold_for` every time: that replays the table from
its first input, and ``hand start`` and ``tournament advance`` asked it at every table between
every two hands, so a tournament's cost grew with the square of its hands (the 1,000-player
benchmark: ~0.3 s a table after 30 hands, twice per ``hand start``, once per table per
``advance``). The poll leaves a verified snapshot of each table's fold
(:mod:`nomicpoker.shell.storage.snapshots`); when nothing was added to the ledger since (no
comment, hand or dealer event), its state *is* the fold of every input, and only its
play-over-days part is read. Otherwise (no snapshot, a signature or count that does not match,
anything new) the table is replayed from the start as before, so a stale or damaged snapshot
costs time, never a wrong answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session

from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.storage import ledger, snapshots
from nomicpoker.shell.storage.store import TableRow


@dataclass(frozen=True)
class FoldNow:
    """The parts of the table's fold the hand-start commands read (as
    :class:`~nomicpoker.core.table.fold_types.FoldResult` names them), and whether they came
    from the snapshot (``resumed``) or a replay from the start."""

    settings: TableSettings
    sitting_out: tuple[str, ...]
    frozen: str
    days: DaysState
    resumed: bool


def fold_now(session: Session, table: TableRow, state: Path) -> FoldNow:
    """The table's fold now (module docstring): from its snapshot when nothing is new, else replayed."""
    loaded, _why = snapshots.load(session, table.name, ledger.table_config(session, table), state)
    if loaded is not None and not loaded.anything_new:
        try:
            days = DaysState.from_data(loaded.state_data()["days"])
        except (KeyError, TypeError, ValueError):
            pass  # the replay decides
        else:
            return FoldNow(days.settings, tuple(sorted(days.sitting_out)), days.frozen, days, True)
    result = fold_for(session, table, state)
    return FoldNow(result.settings, result.sitting_out, result.frozen, result.state.days, False)


__all__ = ["FoldNow", "fold_now"]
