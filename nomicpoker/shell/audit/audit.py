"""``nomicpoker audit``: rebuild the ledger from its inputs into a scratch database and compare.

WHY a scratch database and not just an in-memory fold: the rebuild goes through the very
code path the live poll uses to store rows (:func:`ledger.store_fold`), so a difference in
storing (JSON text, column types) would show up too. The inputs copied are the table's
configuration, its pinned rulesets (the text each hand is played under: a changed bundled
file changes nothing), the hand-start records and the dealer events (timeouts and rule
amendments); the comment archive is read once from the live ledger (with
:func:`ledger.revisions`, as a replay reads it) and folded as read, not copied (15,900
revisions cost ~0.1 s to write and read back); the hand secrets come from the secrets folder
(running hands) or the published values (ended hands).

Also checked, in the pass that reads the archive: every archived revision's ``sha256``
matches its body (an edited archive row is a finding even when it would not change a verdict).

And for fair dealing, :func:`verify_hands` runs :func:`nomicpoker.core.fairness.verify.verify_record` on
public hand records: the exported ones, or those built from the ledger.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from sqlalchemy import select as sa_select
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.shell.cycle import fault_answers
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.cycle.collector import paused_collector
from nomicpoker.shell.storage.paths import sqlite_url
from nomicpoker.shell.cycle.replay import fold_for
from nomicpoker.shell.storage.store import CommentRow, DealerEventRow, HandRow, RulesetRow, TableRow, loads, open_engine, transaction
from nomicpoker.shell.cycle import fault_answers
from nomicpoker.shell.storage import ledger, sealed_inputs
from nomicpoker.core.errors import CodedError
from nomicpoker.core.fairness.money import verify_money
from nomicpoker.core.fairness.verify import Check, verify_record


@dataclass(frozen=True)
class Difference:
    table: str
    item: str  # e.g. "entry seq 12"
    detail: str

    def line(self) -> str:
        return f"{self.table}: {self.item}: {self.detail}"


def _copy(live: Session, scratch: Session, model: Any, name: str) -> None:
    """Copy the table's rows of ``model`` as they are, column by column (plain tuples: a
    SQLModel object per row cost ~0.25 ms, SQLAlchemy's per-row parameters ~10 µs; the scratch
    database is SQLite, written with one ``executemany``)."""
    t = model.__table__
    key = t.c.name if model is TableRow else t.c.table_name
    rows = live.execute(sa_select(t).where(key == name).order_by(t.c.id)).all()
    ledger.bulk_insert(scratch, t, [c.name for c in t.columns], [tuple(r) for r in rows])


def _diff_values(live: dict, replay: dict) -> str:
    keys = [k for k in replay if live.get(k) != replay.get(k)]
    return "; ".join(f"{k} live={live.get(k)!r} replay={replay.get(k)!r}" for k in keys)


def _not_public_yet(live: Session, name: str, state: Path, public: Mapping[int, Any],
                    unopened: set[int] = frozenset()) -> HandRow | None:  # type: ignore[assignment]
    """The running hand, when this copy cannot replay it: its secrets are not in ``state``
    (an auditor's machine), a private message archived since it started is sealed and its
    text not here (``unopened``: archive ids, :mod:`nomicpoker.shell.storage.sealed_inputs`), or its
    private messages are withheld (a public copy made before schema 0009 kept their text until
    the hand ends, :func:`nomicpoker.shell.cycle.private_inbox.withheld`). All become public when it
    ends; until then ``audit`` checks everything before it."""
    from nomicpoker.shell.storage import secrets_store
    from nomicpoker.shell.cycle.private_inbox import WITHHELD

    hands = ledger.hand_rows(live, name)
    running = hands[-1] if hands and hands[-1].number not in public else None
    if running is None:
        return None
    try:
        secrets_store.load(state, name, running.number)
    except CodedError:
        return running
    if any(i > running.after for i in unopened):
        return running
    c = CommentRow.__table__.c  # type: ignore[attr-defined]
    held = live.execute(sa_select(c.id).where(c.table_name == name, c.id > running.after, c.body == WITHHELD,
                                              c.sha256 != hashlib.sha256(WITHHELD.encode("utf-8")).hexdigest()))
    return running if held.first() is not None else None


def _copy_before(live: Session, scratch: Session, running: HandRow) -> None:
    """The table's inputs up to the start of ``running``: the hands before it, the dealer
    events of earlier hands (the archive up to the position it started after is folded as
    read, :func:`compare_table`)."""
    name = running.table_name
    for model, keep in ((TableRow, None), (RulesetRow, None),
                        (HandRow, HandRow.__table__.c.number < running.number),  # type: ignore[attr-defined]
                        (DealerEventRow, DealerEventRow.__table__.c.hand < running.number)):  # type: ignore[attr-defined]
        t = model.__table__  # type: ignore[attr-defined]
        key = t.c.name if model is TableRow else t.c.table_name
        query = sa_select(t).where(key == name)
        rows = live.execute(query if keep is None else query.where(keep)).all()
        ledger.bulk_insert(scratch, t, [c.name for c in t.columns], [tuple(r) for r in rows])


def compare_table(live: Session, scratch_engine: Engine, name: str, state: Path,
                  notes: list[str] | None = None) -> list[Difference]:
    """Replay table ``name`` from its archive alone into ``scratch_engine`` and list every
    derived row that differs from the live ledger (and every archived body whose hash does
    not match): "replay is the audit", so an empty list is the audit passing.

    A running hand this copy cannot replay (:func:`_not_public_yet`: a public copy, or an
    auditor without the Dealer's secrets) is left out, said in ``notes``: everything before
    it is replayed and compared, and the ledger's rows from its start on are not judged (a
    withheld message is not "an edited archive row")."""
    diffs: list[Difference] = []
    table = ledger.get_table(live, name)
    public = {r.hand: loads(r.secrets) for r in ledger.stored_rows(live, name, "hand_end")}
    hashes: list[str] = []
    sealed: list[tuple[int, str]] = []  # the private inputs, as stored: their commitments
    archive = ledger.revisions(live, name, hashes=hashes, state=state, strict=False, sealed=sealed)  # read once
    stored = dict(sealed)
    unopened = {r.archive_id for r in archive if stored.get(r.archive_id) == r.body}
    running = _not_public_yet(live, name, state, public, unopened)
    if running is not None:  # the running hand's inputs are not judged (see above)
        keep = sum(1 for r in archive if r.archive_id <= running.after)
        archive, hashes = archive[:keep], hashes[:keep]
    for rev, sha in zip(archive, hashes):
        if hashlib.sha256(stored.get(rev.archive_id, rev.body).encode("utf-8")).hexdigest() != sha:
            diffs.append(Difference(name, f"archive comment {rev.forum_id} revision {rev.revision}",
                                    "body does not match its sha256"))
        elif rev.archive_id in unopened:
            diffs.append(Difference(name, f"archive comment {rev.forum_id} revision {rev.revision}",
                                    "a private message whose hand has ended, but whose text is neither "
                                    "published (np_unsealed) nor in the secrets folder: it cannot be replayed"))
    kept_ids = {r.archive_id for r in archive}
    opened = [(i, b) for i, b in sealed if i in kept_ids and i not in unopened]
    for i in sealed_inputs.check(opened, sealed_inputs.opened(live, name, opened, state, strict=False)):
        rev = next(r for r in archive if r.archive_id == i)
        diffs.append(Difference(name, f"archive comment {rev.forum_id} revision {rev.revision}",
                                "its published text does not open the commitment the archive holds"))
    with transaction(scratch_engine) as s:
        if running is None:
            for model in (TableRow, RulesetRow, HandRow, DealerEventRow):
                _copy(live, s, model, name)
        else:
            _copy_before(live, s, running)
            if notes is not None:
                notes.append(f"{name}: hand {running.number} is running and its secrets or private "
                             f"messages are not public yet: audited up to its start (audit again "
                             f"when it has ended)")
        ledger.store_fold(s, name, fold_for(s, ledger.get_table(s, name), state, public, archive))
    with Session(scratch_engine) as s:
        for kind in ledger.MODELS:
            names, have_rows = ledger.stored_tuples(live, name, kind)
            _, want_rows = ledger.stored_tuples(s, name, kind)
            if have_rows == want_rows:
                continue  # the common case, compared at C speed
            have = [dict(zip(names, r)) for r in have_rows]
            want = [dict(zip(names, r)) for r in want_rows]
            wording = ledger.WORDING_COLUMNS.get(kind, frozenset())
            for a, b in zip(have, want):
                if a != b:
                    detail = _diff_values(a, b)
                    if all(a.get(k) == b.get(k) for k in b if k not in wording):
                        detail = ("wording only, the adjudication is the same (was the row written by "
                                  "another nomicpoker version?): " + detail)
                    diffs.append(Difference(name, f"{kind} seq {b['seq']}", detail))
            for extra in have[len(want):] if running is None else ():  # the running hand's: not judged
                diffs.append(Difference(name, f"{kind} seq {extra['seq']}", "in the ledger but not in the replay"))
            for missing in want[len(have):]:
                diffs.append(Difference(name, f"{kind} seq {missing['seq']}", "in the replay but not in the ledger"))
    return diffs


def _disposable(scratch: Engine) -> None:
    """The scratch database is thrown away after the comparison: no file-system syncs and its
    journal in memory (a commit's syncs of ~35,000 rows cost audit ~0.1 s on a disk; a crash
    mid-audit loses nothing, the scratch is rebuilt from zero). Set on every connection the
    engine makes from now on (the pooled ones are dropped)."""
    def _on_connect(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA synchronous=OFF")
        cur.execute("PRAGMA journal_mode=MEMORY")
        cur.close()

    event.listen(scratch, "connect", _on_connect)
    scratch.dispose()


def audit(engine: Engine, state: Path, table: str | None = None, notes: list[str] | None = None,
          recorded: list[str] | None = None) -> tuple[list[str], list[Difference]]:
    """Rebuild every (or one) table; return (tables audited, differences). ``notes`` gets a
    line for each running hand left out (see :func:`compare_table`); ``recorded`` a line for
    each comment the ledger records as answered ``internal_error`` (a fault of the release that
    read it: the replay answers it as recorded, without reading it,
    :mod:`nomicpoker.shell.cycle.fault_answers`), so an auditor sees which answers rest on a fault."""
    with Session(engine) as live:
        names = [ledger.get_table(live, table).name] if table else [
            t.name for t in live.exec(select(TableRow).order_by(TableRow.id)).all()]
        diffs: list[Difference] = []
        with tempfile.TemporaryDirectory(prefix="nomicpoker-audit-") as tmp:
            for name in names:
                scratch = open_engine(sqlite_url(Path(tmp) / (name + '.db')))
                _disposable(scratch)
                try:
                    with paused_collector():  # bulk work: see nomicpoker.shell.cycle.collector
                        diffs += compare_table(live, scratch, name, state, notes)
                    if recorded is not None:
                        recorded += [r.line(name) for r in fault_answers.recorded(live, name).values()]
                finally:
                    scratch.dispose()
    return names, diffs


def records(engine: Engine, table: str, hand: int | None = None) -> list[dict]:
    """Public hand records from the ledger (every hand, or one)."""
    with Session(engine) as s:
        t = ledger.get_table(s, table)
        numbers = [h.number for h in ledger.hand_rows(s, table)]
        if hand is not None:
            if hand not in numbers:
                raise ledger.StoreError("no_table", f"table {table} has no hand {hand}")
            numbers = [hand]
        return [ledger.hand_record(s, t, n) for n in numbers]


def pinned_rulesets(engine: Engine, tables: list[str]) -> dict[str, Any]:
    """The rulesets pinned to these tables, by content hash: what their hands were played
    under, whatever the bundled files hold now (:mod:`nomicpoker.shell.storage.pinned`)."""
    from nomicpoker.shell.storage import pinned

    out: dict[str, Any] = {}
    with Session(engine) as s:
        for name in tables:
            out.update(pinned.pinned_rulesets(s, ledger.get_table(s, name)))
    return out


def record_ruleset(record: Any, pinned: Mapping[str, Any] | None = None) -> tuple[Any, Check | None]:
    """The ruleset a record was played under: from ``pinned`` (content hash -> ruleset, when
    verifying from the ledger), else from the record itself (``ruleset_files``: the TOML and
    rule text it carries, which must have the record's ``ruleset_hash``), else (a record
    written before records carried their ruleset) the bundled ruleset the record names, when
    this nomicpoker has it with the record's hash. The money is replayed under exactly the
    rules the hand was adjudicated by; without them, None and the check that says why."""
    from nomicpoker.shell.storage.rulesets import load_ruleset
    from nomicpoker.core.rules.validate import ruleset_from_content

    if not isinstance(record, dict):
        return None, Check("money", False, "not a hand record: the money cannot be replayed")
    want = record.get("ruleset_hash")
    if pinned and want in pinned:
        return pinned[want], None
    name = record.get("ruleset")
    carried = record.get("ruleset_files")
    if carried is not None:
        if not (isinstance(carried, dict) and isinstance(carried.get("toml"), str)
                and isinstance(carried.get("text"), str)):
            return None, Check("ruleset", False, "ruleset_files must hold the ruleset's toml and text: "
                               "the money cannot be replayed")
        try:
            rs = ruleset_from_content(carried["toml"], carried["text"], f"the ruleset of the record ({name})")
        except CodedError as exc:
            return None, Check("ruleset", False, f"the ruleset the record carries does not load "
                               f"({str(exc).splitlines()[0]}): the money cannot be replayed")
        if rs.content_hash != want:
            return None, Check("ruleset", False, f"the ruleset the record carries has hash "
                               f"{rs.content_hash[:12]}, the record says {str(want)[:12]}: the money "
                               "cannot be replayed")
        return rs, None
    if not isinstance(name, str) or not name:
        return None, Check("money", False, "no ruleset named: the money cannot be replayed")
    try:
        rs = load_ruleset(name)
    except CodedError as exc:
        return None, Check("money", False, f"ruleset {name!r} is not available here ({exc.message}) "
                           "and the record does not carry it: the money cannot be replayed")
    if rs.content_hash and want not in (None, "", rs.content_hash):
        return None, Check("money", False, f"ruleset {name!r} here has hash {rs.content_hash[:12]}, "
                           f"the record {str(want)[:12]}, and the record does not carry its ruleset "
                           "(export it again with this nomicpoker): the money cannot be replayed")
    return rs, None


def verify_hands(recs: list[dict], pinned: Mapping[str, Any] | None = None) -> list[tuple[dict, list[Check]]]:
    """Each public hand record with its checks: the cards and dice
    (:func:`nomicpoker.core.fairness.verify.verify_record`), then the money
    (:func:`nomicpoker.core.fairness.money.verify_money`) under the record's ruleset (see
    :func:`record_ruleset`)."""
    out = []
    for r in recs:
        checks = verify_record(r)
        if isinstance(r, dict):
            rs, problem = record_ruleset(r, pinned)
            if problem is None and "ruleset_files" in r:
                checks.append(Check("ruleset", True, f"{rs.name} ({rs.content_hash[:12]}): the rules the "
                                    "record carries have its hash, and its money is replayed under them"))
            checks += [problem] if problem is not None else verify_money(r, rs)
        out.append((r, checks))
    return out
