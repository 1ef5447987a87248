"""Pinned rulesets (shell): the ruleset text a table runs under, stored in the ledger.

A table pins its ruleset when it is created (``np_ruleset``: the TOML and the rule text,
verbatim, and their content hash), and every amendment pins another. The fold reads the
rulesets from there, never from the bundled files or the Dealer's copy, so a new nomicpoker
release (a corrected bundled ruleset) or an edit of a file never changes the rules of a live
table: the rules change only when the Dealer applies an amendment (``table amend``), and then
from the next hand on.

Tables created before rulesets were pinned have only the ruleset's name (or path) and hash.
They are pinned on first use from that file if it still has the recorded hash; if it does
not, the table is refused with one line saying how to pin the original (``table pin``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, NamedTuple

from sqlmodel import Session, select

from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.fold_types import AMEND
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.rules.validate import RulesetError, ruleset_from_content
from nomicpoker.shell.storage.rulesets import RulesetFiles, read_ruleset
from nomicpoker.shell.storage.plain_sql import plain
from nomicpoker.shell.storage.store import DealerEventRow, RulesetRow, TableRow


class PinError(CodedError):
    """A table's pinned ruleset cannot be had. ``code``: ``ruleset_changed`` (a table from
    before pinning whose ruleset file has changed or gone), ``inconsistent`` (a stored ruleset
    whose text no longer has its hash, or a hand naming a ruleset that was never pinned)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def pin(session: Session, table: str, files: RulesetFiles, at: str) -> RulesetRow:
    """Store ``files`` as a ruleset of ``table`` (once per content hash; pinning the same
    ruleset again returns the stored row)."""
    h = files.ruleset.content_hash
    row = session.exec(select(RulesetRow).where(RulesetRow.table_name == table,
                                                RulesetRow.content_hash == h)).first()
    if row is None:
        row = RulesetRow(table_name=table, content_hash=h, name=files.ruleset.name, toml=files.toml,
                         text=files.text, origin=files.origin, pinned_at=at)
        session.add(row)
        session.flush()
    return row


def _legacy_pin(session: Session, table: TableRow) -> None:
    """Pin the ruleset of a table created before rulesets were pinned, from its file, if the
    file still has the hash recorded when the table was created."""
    how = (f"pin the original with: nomicpoker table pin --table {table.name} --ruleset DIR "
           "(a copy of the ruleset as it was when the table was created, e.g. from the "
           "nomicpoker release that created it)")
    try:
        files = read_ruleset(table.ruleset)
    except RulesetError as exc:
        raise PinError("ruleset_changed", f"table {table.name} predates pinned rulesets and its "
                       f"ruleset {table.ruleset} cannot be read ({exc.errors[0].message}): "
                       + how) from None
    if files.ruleset.content_hash != table.ruleset_hash:
        raise PinError("ruleset_changed", f"table {table.name} predates pinned rulesets and its "
                       f"ruleset {table.ruleset} has changed since it was created (hash "
                       f"{table.ruleset_hash[:12]} recorded, {files.ruleset.content_hash[:12]} "
                       "now): " + how)
    pin(session, table.name, files, _now())


def _build(row: Any) -> Ruleset:
    try:
        rs = ruleset_from_content(row.toml, row.text, f"ruleset {row.name} pinned to table {row.table_name}")
    except RulesetError as exc:
        raise PinError("inconsistent", f"the ruleset {row.name} ({row.content_hash[:12]}) pinned to "
                       f"table {row.table_name} does not load: {exc.errors[0]}") from None
    if rs.content_hash != row.content_hash:
        raise PinError("inconsistent", f"the ruleset {row.name} pinned to table {row.table_name} no "
                       f"longer has its hash ({row.content_hash[:12]} stored, {rs.content_hash[:12]} "
                       "from its text): run nomicpoker audit")
    return rs


def pinned_rulesets(session: Session, table: TableRow) -> dict[str, Ruleset]:
    """Every ruleset pinned to ``table``, by content hash (pinning a pre-pinning table's
    ruleset first, see :func:`_legacy_pin`)."""
    rows = _pinned_rows(session, table.name)
    if table.ruleset_hash not in {r.content_hash for r in rows}:
        _legacy_pin(session, table)
        rows = _pinned_rows(session, table.name)
    return {r.content_hash: _build(r) for r in rows}


_PINNED = "SELECT table_name, content_hash, name, toml, text FROM np_ruleset WHERE table_name = :t ORDER BY id"


class _Pinned(NamedTuple):
    table_name: str
    content_hash: str
    name: str
    toml: str
    text: str


def _pinned_rows(session: Session, table: str) -> list[Any]:
    """The table's pinned rulesets as plain columns, in pinning order. WHY not ORM objects: a
    poll reads them three times at every table it works on (its configuration, its hand
    starts, its snapshot), ~0.4 ms each as objects (issue 24)."""
    session.flush()  # a ruleset pinned in this transaction (pin() adds it through the ORM)
    return [_Pinned(*r) for r in plain(session, _PINNED, {"t": table})]


def ruleset(session: Session, table: TableRow, content_hash: str) -> Ruleset:
    """The ruleset pinned to ``table`` with this hash."""
    found = pinned_rulesets(session, table).get(content_hash)
    if found is None:
        raise PinError("inconsistent", f"table {table.name} has no pinned ruleset with hash "
                       f"{content_hash[:12]}: run nomicpoker audit")
    return found


def files(session: Session, table: TableRow, content_hash: str) -> dict[str, str]:
    """The pinned ruleset's two files as stored (``{"toml": ..., "text": ...}``): what a public
    hand record carries so that it is checked under exactly these rules anywhere."""
    ruleset(session, table, content_hash)  # pinned (a table from before pinning: pinned now), and sound
    row = session.exec(select(RulesetRow).where(RulesetRow.table_name == table.name,
                                                RulesetRow.content_hash == content_hash)).one()
    return {"toml": row.toml, "text": row.text}


def pinned_files(session: Session, table: TableRow, content_hash: str) -> RulesetFiles:
    """The ruleset ``table`` pinned with ``content_hash``, as the files a new table pins
    (:func:`pin`): a tournament's tables made by a start run again pin the rules its first
    tables pinned, whatever this release's bundled file says
    (:func:`nomicpoker.shell.tournament.director.start`)."""
    rs = ruleset(session, table, content_hash)
    row = session.exec(select(RulesetRow).where(RulesetRow.table_name == table.name,
                                                RulesetRow.content_hash == content_hash)).one()
    return RulesetFiles(rs, row.toml, row.text, row.origin)


def amendments(session: Session, table: str) -> list[DealerEventRow]:
    return list(session.exec(select(DealerEventRow).where(DealerEventRow.table_name == table,
                                                          DealerEventRow.kind == AMEND)
                             .order_by(DealerEventRow.id)).all())


def current_hash(session: Session, table: TableRow) -> str:
    """The hash of the ruleset the table's next hand is played under: the last amendment's,
    else the one it was created with."""
    done = amendments(session, table.name)
    return done[-1].ruleset_hash if done else table.ruleset_hash


def current_ruleset(session: Session, table: TableRow) -> Ruleset:
    return ruleset(session, table, current_hash(session, table))


def hand_rulesets(session: Session, table: TableRow) -> dict[int, Ruleset]:
    """Hand number -> the ruleset it was played under, from the ledger: what every reader
    (the site, ``verdicts``, ``phh export``) words and replays a hand by, never a file (the
    folder a table was created from may have moved; the bundled one may be a newer release's)."""
    from nomicpoker.shell.storage.store import HandRow

    pins = pinned_rulesets(session, table)
    out = {}
    for number, h in session.exec(select(HandRow.number, HandRow.ruleset_hash)
                                  .where(HandRow.table_name == table.name)).all():
        if h not in pins:
            raise PinError("inconsistent", f"hand {number} of table {table.name} is recorded under "
                           f"ruleset {h[:12]}, which is not pinned to the table: run nomicpoker audit")
        out[int(number)] = pins[h]
    return out
