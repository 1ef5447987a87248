"""Applying a rule amendment to a table, and pinning a pre-pinning table's original ruleset
(shell): ``nomicpoker table amend`` and ``nomicpoker table pin``.

WHY an amendment is a dealer event and applies only from the next hand: a nomic amends its
rules by proposal, and the hand being played when the proposal passes was dealt under the old
rules; changing them mid-hand would change what players already did. So ``table amend`` is
refused while a hand runs, and otherwise records an ``amend`` dealer event naming the newly
pinned ruleset. The fold (:mod:`nomicpoker.core.fold.adjudicator`) plays the next hand under it and
announces it in that hand's first comment; ``audit`` replays the event like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.table.fold_types import AMEND
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.shell.storage import ledger, pinned
from nomicpoker.shell.storage.locks import Busy, run_lock
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.storage.rulesets import read_ruleset
from nomicpoker.shell.dealer.service import HAND_START_LOCK_WAIT, ServiceError, check_deck_fits
from nomicpoker.shell.storage.store import DealerEventRow, RulesetRow, loads, transaction


@dataclass(frozen=True)
class Amended:
    table: str
    previous: Ruleset
    ruleset: Ruleset
    from_hand: int  # the first hand played under it


def amend_table(engine: Engine, state: Path, table_name: str, ruleset: str, note: str = "",
                now: Callable[[], datetime] = utcnow) -> Amended:
    """Pin ``ruleset`` (a bundled name or a path, validated as ``rules check`` validates it) to
    the table and record the amendment, to apply from the next hand. Every refusal is a coded
    error raised before anything is written."""
    files = read_ruleset(ruleset)  # RulesetErrors lists every problem, as rules check does
    note = " ".join(note.split())
    state.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(engine, state, HAND_START_LOCK_WAIT):  # the state's and the ledger's
            with transaction(engine) as s:
                return _amend(s, state, table_name, files, note, iso(now()))
    except Busy as exc:
        raise ServiceError("busy", f"a poll has held the lock of {exc.where} for {HAND_START_LOCK_WAIT} "
                           "seconds: try again") from exc


def _amend(s: Session, state: Path, table_name: str, files, note: str, at: str) -> Amended:
    table = ledger.get_table(s, table_name)
    hands = ledger.hand_rows(s, table_name)
    ended = {r.hand for r in ledger.stored_rows(s, table_name, "hand_end")}
    if hands and hands[-1].number not in ended:
        raise ServiceError("hand_running", f"hand {hands[-1].number} of table {table_name} is still "
                           "running and an amendment applies from the next hand: run table amend "
                           f"again once hand {hands[-1].number} has ended (nothing was changed)")
    previous = pinned.current_ruleset(s, table)
    rs = files.ruleset
    if rs.content_hash == previous.content_hash:
        raise ServiceError("unchanged", f"table {table_name} already plays under this ruleset "
                           f"({rs.name}, {rs.content_hash[:12]}): nothing to amend")
    if rs.deck == "shared" and table.issue_decks:
        raise ServiceError("bad_decks", f"ruleset {rs.name} deals every hole card from the dealer's "
                           f"one deck, but table {table_name} issues each player a deck: create a new "
                           "table for it (nothing was changed)")
    check_deck_fits(rs, len(ledger.roster(s, table)), "table amend")
    pinned.pin(s, table_name, files, at)
    s.add(DealerEventRow(table_name=table_name, hand=hands[-1].number if hands else 0,
                         after=ledger.max_archive_id(s, table_name), kind=AMEND, player="", at=at,
                         ruleset_hash=rs.content_hash, note=note))
    s.flush()
    ledger.store_fold(s, table_name, fold_for(s, table, state))  # the fold accepts it, or nothing is written
    return Amended(table_name, previous, rs, (hands[-1].number + 1) if hands else 1)


def pin_original(engine: Engine, table_name: str, ruleset: str,
                 now: Callable[[], datetime] = utcnow) -> tuple[Ruleset, bool]:
    """Pin the ruleset a table created before pinning was created under, from a copy of its
    files (its bundled file may have changed since): only a ruleset with the hash the table
    recorded is accepted. Returns the ruleset and whether it was newly pinned."""
    files = read_ruleset(ruleset)
    with transaction(engine) as s:
        table = ledger.get_table(s, table_name)
        have = s.exec(select(RulesetRow).where(RulesetRow.table_name == table_name,
                                               RulesetRow.content_hash == table.ruleset_hash)).first()
        if files.ruleset.content_hash != table.ruleset_hash:
            raise ServiceError("wrong_ruleset", f"{ruleset} has hash {files.ruleset.content_hash[:12]}, "
                               f"not {table.ruleset_hash[:12]}, the one table {table_name} was created "
                               "under; to change the table's rules, use nomicpoker table amend")
        if have is not None:
            return files.ruleset, False
        pinned.pin(s, table_name, files, iso(now()))
    return files.ruleset, True


def ruleset_of_table(engine: Engine, table_name: str) -> Ruleset:
    """The ruleset the table's next hand is played under (``rules diff --table``)."""
    with Session(engine) as s:
        return pinned.current_ruleset(s, ledger.get_table(s, table_name))
