"""The Dealer's controls (shell): ``table set``, ``table pause`` / ``table resume``,
``hand void``, ``hand fold``, ``table seat`` / ``table unseat``.

Each is recorded as a dealer event with its reason (``note``) and time, after whatever the
thread already holds (the comments are archived first, so the event comes after them in the
replay), then the table is replayed and the dealer's comment about it is posted at once:
the fold (:mod:`nomicpoker.core.fold.dealer_controls`) says what happened in the thread and
``audit`` replays the same event.

WHY the checks here: a control that makes no sense now (a void with no hand running, a seat
while a hand runs, a resume of a table that is not frozen) is refused with one line before
anything is written; the fold then never has to guess what the Dealer meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.ports import ForumError
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.archive import archive_table
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.outbox import send_outbox
from nomicpoker.shell.storage.locks import Busy, run_lock
from nomicpoker.shell.cycle import forums
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory
from nomicpoker.shell.cycle.report import TableReport
from nomicpoker.shell.cycle.replay import adjudicate, fold_for
from nomicpoker.shell.dealer.service import HAND_START_LOCK_WAIT, ServiceError
from nomicpoker.shell.storage.store import DealerEventRow, dumps, loads, transaction

KINDS = ("settings", "pause", "resume", "void", "fold", "seat", "unseat")


@dataclass(frozen=True)
class Controlled:
    table: str
    kind: str
    hand: int
    report: TableReport
    settings: TableSettings | None = None
    #: ``table set`` with the settings already in force: nothing was recorded or posted
    unchanged: bool = False


def control(engine: Engine, state: Path, table_name: str, kind: str, note: str, player: str = "",
            data: dict[str, Any] | None = None, now: Callable[[], datetime] = utcnow,
            forum_factory: ForumFactory = default_forum_factory) -> Controlled:
    """Record one of the Dealer's controls under the poll lock and post what it did."""
    if kind not in KINDS:  # pragma: no cover - the CLI names the kind
        raise ServiceError("bad_control", f"unknown control {kind!r}")
    note = " ".join((note or "").split())
    if not note and kind != "settings":
        raise ServiceError("no_note", f"say why with --note \"...\": every {kind} is posted with its reason")
    state.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(engine, state, HAND_START_LOCK_WAIT):  # the state's and the ledger's
            return _control(engine, state, table_name, kind, note, player, dict(data or {}), now, forum_factory)
    except Busy as exc:
        raise ServiceError("busy", f"a poll has held the lock of {exc.where} for {HAND_START_LOCK_WAIT} "
                           "seconds: try again") from exc


def _check(kind: str, player: str, players: list[str], result, running: bool, number: int) -> None:
    if kind in ("fold", "seat", "unseat"):
        if player not in players:
            raise ServiceError("bad_player", f"{player!r} is not a player at this table "
                               f"({', '.join(players)})")
    if kind == "pause" and result.frozen:
        raise ServiceError("frozen", f"the table is already frozen ({result.frozen})")
    if kind == "resume" and not result.frozen:
        raise ServiceError("not_frozen", "the table is not paused and has no protest to resolve")
    if kind in ("void", "fold") and not running:
        raise ServiceError("no_hand", f"no hand is running: nothing to {kind}")
    if kind == "fold":
        cur = result.state.current
        seat = cur.hand.find_seat(player)  # None: a player of the table not dealt in (sitting out)
        if seat is None or seat.folded:
            raise ServiceError("bad_player", f"{player} is not in hand {number} (seated and not folded)")
    if kind in ("seat", "unseat") and running:
        raise ServiceError("hand_running", f"hand {number} is running: seat and unseat work between "
                           "hands (run it again once the hand has ended)")
    if kind == "seat" and player not in result.sitting_out:
        raise ServiceError("seated", f"{player} is not sitting out")
    if kind == "unseat" and player in result.sitting_out:
        raise ServiceError("unseated", f"{player} already sits out")


def _control(engine: Engine, state: Path, table_name: str, kind: str, note: str, player: str,
             data: dict[str, Any], now: Callable[[], datetime], forum_factory: ForumFactory) -> Controlled:
    with Session(engine) as s:
        table = ledger.get_table(s, table_name)
        forum = forums.forum_for(table, state, forum_factory)
    report = TableReport(table_name)
    t = now()
    changed = None
    with transaction(engine) as s:
        table = ledger.get_table(s, table_name)
        archived, _ = archive_table(s, table, forum, iso(t), state)
        report.archived += archived
        result = fold_for(s, table, state)
        hands = ledger.hand_rows(s, table_name)
        number = hands[-1].number if hands else 0
        running = result.current is not None and result.current.phase != "complete"
        _check(kind, player, ledger.roster(s, table), result, running, number)
        if kind == "settings":
            from nomicpoker.core.table.table_settings import BY_TOURNAMENT_START

            fixed = sorted(set(BY_TOURNAMENT_START) & set(data))
            if fixed:  # a tournament's table is one by tournament start, never by table set
                raise ServiceError("bad_setting", f"{fixed[0]} is set by nomicpoker tournament start when it "
                                   "creates the table, not by table set")
            new = data.get("edition")
            if isinstance(new, int) and not isinstance(new, bool) and new < result.settings.edition:
                raise ServiceError("bad_setting", f"edition = {data['edition']}: table {table_name} "
                                   f"already plays edition {result.settings.edition}, and an edition "
                                   "never goes back (its hands would be read two ways)")
            changed = result.settings.changed(data)  # SettingsError / CalendarError name a bad value
            if "blinds" in data:  # the forced bets are the ruleset's kind (a ruleset without blinds)
                from nomicpoker.shell.storage import pinned
                from nomicpoker.shell.dealer.service import check_forced_bets

                check_forced_bets(pinned.current_ruleset(s, table), changed.ante, changed.blinds, "table set")
            changed.check_sense()  # and one that makes no sense with the others (cap, reminders)
            if changed == result.settings:  # nothing to announce: no event, no comment
                return Controlled(table_name, kind, number, report, changed, unchanged=True)
        s.add(DealerEventRow(table_name=table_name, hand=number, after=ledger.max_archive_id(s, table_name),
                             kind=kind, player=player, at=iso(t), note=note, data=dumps(data)))
        s.flush()
        added = adjudicate(s, table, state, t).added
        report.verdicts += len(added.get("verdict", []))
        report.queued += len(added.get("outbox", []))
    try:
        send_outbox(engine, table_name, forum, now, report, state=state)
    except ForumError as exc:  # recorded; the next poll posts it
        report.error = f"forum {exc.code}: {exc.message} (recorded; the next poll posts it)"
    return Controlled(table_name, kind, number, report, changed)
