"""Replay (shell): fold a table from the store, under the rulesets pinned to it.

The fold is pure (:mod:`nomicpoker.core.fold.adjudicator`); this room reads its inputs from the
ledger (the table's configuration, its pinned rulesets, the hand starts with their secrets,
the comment archive, the dealer events), runs it, and stores what it derived. The rulesets
come from the ledger, never from their files (:mod:`nomicpoker.shell.storage.pinned`), so a new
nomicpoker release or an edited file cannot change a live table's rules. The poll, the
table commands and ``audit`` all replay through here, so they fold the same inputs the same
way. The poll resumes the fold from the table's snapshot when it can be trusted
(:mod:`nomicpoker.shell.storage.snapshots`); ``audit`` and ``table show`` replay from the first input.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlmodel import Session

from nomicpoker.core.table import snapshot
from nomicpoker.core.fold.fold_run import fold_stream, fold_table, input_stream
from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.fold_state import TableState
from nomicpoker.core.table.fold_types import FoldResult, Revision, TableConfig
from nomicpoker.core.table.snapshot import SnapshotError
from nomicpoker.shell.cycle import deadlines, fault_answers, scores
from nomicpoker.shell import faults, logs
from nomicpoker.shell.storage import ledger, pinned, snapshots
from nomicpoker.shell.storage.plain_sql import plain
from nomicpoker.shell.cycle.collector import paused_collector
from nomicpoker.shell.storage.store import StoreError, TableRow


_log = logs.get("replay")


class ReplayError(CodedError):
    """A table cannot be replayed as stored; ``message`` says why. (A ruleset that cannot be
    had is a :class:`nomicpoker.shell.storage.pinned.PinError`, code ``ruleset_changed``.)"""


def table_config_for(session: Session, table: TableRow) -> TableConfig:
    """The fold's configuration of ``table``, all from the ledger: the ruleset it was created
    under as pinned, and what its forum can do as stored with it (who rolls the dice, private
    messages, ...: :func:`nomicpoker.shell.storage.ledger.table_abilities`). Replay never
    imports an adapter (tests/unit/house/test_rooms.py checks it)."""
    return ledger.table_config(session, table)


def fold_for(session: Session, table: TableRow, state: Path, public: dict | None = None,
             archive: list[Revision] | None = None) -> FoldResult:
    """Replay ``table`` from the inputs in ``session`` (``public``: published secrets of ended
    hands, for a rebuild without the secrets folder), each hand under the ruleset pinned for it.
    ``archive``: the table's comment archive, already read (audit reads it from the live ledger)."""
    cfg = table_config_for(session, table)
    return fold_table(cfg, ledger.hand_starts(session, table.name, state, public),
                      ledger.revisions(session, table.name, state=state) if archive is None else archive,
                      ledger.dealer_events(session, table.name), faults.comment_reader())


@dataclass(frozen=True)
class Adjudication:
    """What :func:`adjudicate` stored (new rows per kind), and how it folded: resumed from the
    table's snapshot, or replayed from the first input (``why``: the reason)."""

    added: dict[str, list[Any]]
    resumed: bool
    why: str = ""
    #: comment revisions newly answered ``internal_error`` (the reader raised on them, and the
    #: answer is now recorded: :mod:`~nomicpoker.shell.cycle.fault_answers`), each (thread, forum id,
    #: revision) with its exception, for the poll to log with the traceback
    failures: tuple[tuple[tuple[str, str, int], BaseException], ...] = ()


def adjudicate(session: Session, table: TableRow, state: Path, now: datetime,
               incremental: bool = True) -> Adjudication:
    """Fold ``table``, record the deadlines that have passed at ``now`` (folding again after
    each, up to :data:`deadlines.MAX_TIMEOUTS_PER_RUN`), and store the new derived rows and a
    new snapshot inside the caller's transaction.

    WHY two ways with one result: the fold resumed from a verified snapshot
    (:mod:`nomicpoker.shell.storage.snapshots`) reads only what is new, so a poll costs the same on
    the first day and the hundredth; the replay from the first input is the reference (it is
    what ``audit`` runs) and the fallback whenever the snapshot cannot be trusted or the fold
    cannot go on from it, so a bad snapshot costs time, never a wrong verdict."""
    cfg = table_config_for(session, table)
    why = "incremental fold off"
    if incremental:
        # this fold owns the table (the poll holds its lock) and writes its next snapshot
        loaded, why = snapshots.load(session, table.name, cfg, state, prune=True)
        if loaded is not None:
            try:
                with session.begin_nested():  # a resume that fails leaves nothing behind
                    added = _resume(session, table, cfg, state, now, loaded)
                unseal(session, table.name, state, now, added)
                return Adjudication(added, True)
            except Exception as exc:  # noqa: BLE001 - any failure: the full replay decides
                why = f"resume failed: {exc!r}"
    fault_answers.backfill(session, table.name, now)  # a ledger from before they were recorded
    found: dict[tuple[str, str, int], BaseException] = {}
    result, last_key = _fold_recording(session, table, cfg, state, now, found)
    for _ in range(deadlines.MAX_TIMEOUTS_PER_RUN):
        if not (deadlines.record_due(session, table, result.current, now)
                or scores.record(session, table, result.state, now)):
            break
        result, last_key = _fold_recording(session, table, cfg, state, now, found)
    try:
        added = ledger.store_fold(session, table.name, result)
    except StoreError as exc:
        if not found:
            raise
        # This release failed on a comment the table's history read otherwise (a fault it
        # brought): nothing is stored or recorded (the caller's transaction is rolled back), and
        # the Dealer learns why the replay differs, with the traceback to report.
        for (thread, forum_id, revision), e in found.items():
            _log.error("%s: comment %s#%s (revision %d) could not be read by this nomicpoker, which the "
                       "release that played it read: please report this traceback",
                       table.name, thread, forum_id, revision, exc_info=(type(e), e, e.__traceback__))
        names = ", ".join(f"{t}#{f} revision {r}" for t, f, r in found)
        raise StoreError(exc.code, f"{exc.message} (this nomicpoker failed reading comment {names}, which "
                         "the release that played it read: a fault of this release; run the release "
                         "that played the table and report the traceback)") from exc
    keep_private_bodies(state, table.name, result)
    snapshots.save(session, table.name, cfg, state, result.state, result.current, last_key)
    unseal(session, table.name, state, now, added)
    failures = tuple(found.items())  # each found once: from now on it is recorded, never read
    for (thread, forum_id, revision), exc in failures:
        # the safety net answered it internal_error and the table went on: the Dealer gets the
        # traceback (on stderr, so cron mails it even under --quiet) to report the bug
        _log.error("%s: comment %s#%s (revision %d) could not be read, a fault in nomicpoker: "
                   "answered internal_error, the table goes on; please report this traceback",
                   table.name, thread, forum_id, revision, exc_info=(type(exc), exc, exc.__traceback__))
    return Adjudication(added, False, why, failures)


def _fold_recording(session: Session, table: TableRow, cfg: TableConfig, state: Path, now: datetime,
                    found: dict[tuple[str, str, int], BaseException]):
    """:func:`_fold_all`, recording each revision the safety net newly answered
    ``internal_error`` (:mod:`nomicpoker.shell.cycle.fault_answers`, in the caller's transaction:
    stored with its answer or not at all), then folding again with the answers recorded, so
    the rows stored and the snapshot are those of the recorded inputs. ``found`` collects them
    with their exceptions, for the log."""
    result, last_key = _fold_all(session, table, cfg, state)
    while result.failures:
        found.update(result.failures)
        if not fault_answers.record(session, table.name, result.failures, now):
            break  # pragma: no cover - a failed revision is archived and was not recorded
        result, last_key = _fold_all(session, table, cfg, state)
    return result, last_key


def _fold_all(session: Session, table: TableRow, cfg: TableConfig, state: Path):
    with paused_collector():  # a replay from the first input is bulk work (shell.collector)
        stream = input_stream(ledger.hand_starts(session, table.name, state),
                              ledger.revisions(session, table.name, state=state),
                              ledger.dealer_events(session, table.name))
        last_key = stream[-1][0] if stream else (0, 0, 0, 0, 0)
        return fold_stream(cfg, None, stream, faults.comment_reader()), last_key


def _resume(session: Session, table: TableRow, cfg: TableConfig, state: Path, now: datetime,
            loaded: snapshots.Loaded) -> dict[str, list[Any]]:
    """Fold the inputs after ``loaded`` on from its state; raise (SnapshotError, ...) when it
    cannot be done, for the caller to replay from the start."""
    covers, current = loaded.covers, loaded.current
    added: dict[str, list[Any]] = {}
    fold_state: TableState | None = None
    data: dict[str, Any] = {}
    last_key, n_events, event_id = covers.last_key, covers.events, covers.event_id

    def fold_on(hands, revs, events) -> None:
        nonlocal fold_state, current, last_key, n_events, event_id, data
        stream = input_stream(hands, revs, [e for _, e in events], event_base=n_events)
        if stream and stream[0][0] <= last_key:
            raise SnapshotError("snapshot", "an input arrived out of order after the snapshot")
        if fold_state is None:
            data = loaded.state_data()
            if not snapshot.resumable(data, revs):
                raise SnapshotError("snapshot", "a revision arrived in a sealed thread")
            starts = ledger.hand_starts(session, table.name, state, numbers=snapshot.live_hands(data), row=table)
            fold_state = snapshot.decode(data, cfg, {h.number: h for h in starts},
                                         pinned.pinned_rulesets(session, table))
        result = fold_stream(cfg, fold_state, stream, faults.comment_reader())
        for kind, rows in ledger.store_new(session, table.name, result).items():
            added.setdefault(kind, []).extend(rows)
        keep_private_bodies(state, table.name, result)
        fold_state, current = result.state, result.current
        if stream:
            last_key = stream[-1][0]
        n_events += len(events)
        if events:
            event_id = events[-1][0]

    if loaded.anything_new:
        new_hands = [] if not loaded.new_hands else ledger.hand_starts(
            session, table.name, state,
            numbers=[h.number for h in ledger.hand_rows(session, table.name, after=covers.hand_max)], row=table)
        fold_on(new_hands, ledger.revisions(session, table.name, after=covers.archive_id, state=state),
                ledger.dealer_event_rows(session, table.name, after_id=covers.event_id))
    for _ in range(deadlines.MAX_TIMEOUTS_PER_RUN):
        if fold_state is None and loaded.score_pending:
            fold_on([], [], [])  # a request the last run left unanswered
        if not (deadlines.record_due(session, table, current, now)
                or scores.record(session, table, fold_state, now)):
            break
        fold_on([], [], ledger.dealer_event_rows(session, table.name, after_id=event_id))
    if fold_state is not None:
        snapshots.save(session, table.name, cfg, state, fold_state, current, last_key, loaded.sealed)
    return added


def unseal(session: Session, table: str, state: Path, now: datetime, added: dict[str, list[Any]]) -> int:
    """Publish the private inputs whose hand has ended (:func:`nomicpoker.shell.storage.sealed_inputs.unseal_due`),
    in the transaction that stored the end. Only a fold that stored a hand's end, or a verdict
    about no hand or about a hand already over (a message read between hands, a late one), can
    make one public: any other poll (nearly all) skips the look."""
    verdicts = added.get("verdict") or []
    if not added.get("hand_end"):
        hands = {v.hand for v in verdicts}
        if not hands or (None not in hands and not _any_ended(session, table, sorted(hands))):
            return 0
    from nomicpoker.shell.cycle.private_inbox import withheld
    from nomicpoker.shell.storage.sealed_inputs import unseal_due

    return unseal_due(session, table, state, deadlines.iso(now), lambda: withheld(session, table))


def _any_ended(session: Session, table: str, hands: list[int]) -> bool:
    """Whether any of ``hands`` of ``table`` has ended (a plain query: the poll asks it at
    every table where a comment got a verdict; issue 24)."""
    session.flush()  # as an ORM query would
    marks = ", ".join(f":h{i}" for i in range(len(hands)))
    return bool(plain(session, f"SELECT hand FROM np_hand_end WHERE table_name = :t AND hand IN ({marks}) LIMIT 1",
                      {"t": table, **{f"h{i}": int(h) for i, h in enumerate(hands)}}))


def keep_private_bodies(state: Path, table: str, result: FoldResult) -> None:
    """Write the body of every private message the fold queued to the owner-only secrets
    folder (the ledger stores its seal, :mod:`nomicpoker.core.fairness.sealed`): the sender reads it
    from there. A full replay writes every body again (a secrets folder copied without them is
    filled again); a resumed fold, those of the messages it queued."""
    from nomicpoker.shell.storage import secrets_store

    for key, body in result.private.items():
        path = secrets_store.message_path(state, table, key)
        if not path.exists() or path.read_text("utf-8") != body:
            secrets_store.write_message(state, table, key, body)
