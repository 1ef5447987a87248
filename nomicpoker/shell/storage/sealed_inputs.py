"""A running hand's private inputs, sealed in the archive (shell): kept with the secrets, published when the hand ends.

WHY: the archive (``np_comment``) is the fold's input and the ledger is what a backup copies,
what an auditor opens and what ``export public-db`` is made from. A player's private message
to the Dealer (a private advance action in the Dealer's inbox or by IRC ``/msg``, and at a
table whose players do not read the thread, e-mail, every message a player writes) must not
sit in it in the clear while its hand runs: a copy of the file would tell the table what the
player plans. Not even its SHA-256: ``CALL $37`` is found by trying the few thousand advance
actions there are.

So such a revision is archived *sealed*: its row's body is one line holding a commitment,
``SHA-256(nonce || UTF-8 text)`` with a secret 32-byte nonce (:func:`seal_line`,
:func:`nonce_for`), and the
text and the nonce are kept in the owner-only secrets folder, in
``secrets/<table>/inbox/<commitment>.json`` (0600), with the hand secrets and the fold's state.
The fold reads the text from there (:func:`opened`, through
:func:`nomicpoker.shell.storage.ledger.revisions`). When the hand the message belongs to has ended (the
rule of :func:`nomicpoker.shell.cycle.private_inbox.withheld`: the hand its verdict names; at once
for one about no hand), the poll that stored the end writes the text and the nonce to
``np_unsealed`` (:func:`unseal_due`): from then on any copy of the ledger replays the hand
without the secrets folder, and anyone checks the text against the commitment that was in the
archive while the hand ran (``audit`` does, :func:`check`). The archive row itself is never
rewritten: the archive stays append-only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Callable, Iterable, Mapping

from sqlalchemy import select as core_select
from sqlmodel import Session, select

from nomicpoker.core.fold.advance_private import PRIVATE_THREAD
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.shell import logs
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.storage.store import CommentRow, StoreError, TableRow, UnsealedRow

_log = logs.get("sealed")

#: how every sealed body starts (a cheap test before the full match)
PREFIX = "[sealed private message: SHA-256 "
_LINE = re.compile(r"\[sealed private message: SHA-256 ([0-9a-f]{64}) of a 32-byte nonce and its text; "
                   r"shown when its hand ends\]")


def commitment(nonce: bytes, text: str) -> str:
    """Lowercase hex ``SHA-256(nonce || UTF-8(text))``: hiding (the nonce is secret until the
    text is published) and binding (the Dealer cannot publish another text for it)."""
    return hashlib.sha256(nonce + text.encode("utf-8")).hexdigest()


def seal_line(value: str) -> str:
    """The archive's body for a sealed revision with commitment ``value``."""
    return f"{PREFIX}{value} of a 32-byte nonce and its text; shown when its hand ends]"


def commitment_in(body: str) -> str | None:
    """The commitment of a sealed body, None for any other text."""
    if not body.startswith(PREFIX):
        return None
    m = _LINE.fullmatch(body)
    return m.group(1) if m else None


def must_seal(table: TableRow, thread: str, author: str, see_thread: bool) -> bool:
    """Whether a revision by ``author`` in ``thread`` is a private input: a message to the
    Dealer's inbox, or any player's message at a table whose players do not read the thread
    (``see_thread`` False: e-mail)."""
    if thread == PRIVATE_THREAD:
        return True
    return not see_thread and not same_account(author, table.dealer)


def inbox_path(state: Path, table: str, value: str) -> Path:
    """Where the text of the sealed revision with commitment ``value`` is kept."""
    return secrets_store.secret_path(state, table, 0).parent / "inbox" / f"{value}.json"


def nonce_for(state: Path, table: str, identity: str, text: str) -> bytes:
    """The nonce of a sealed revision: ``HMAC-SHA256(key, ...)`` over the table, the revision's
    identity and its text, keyed by the installation's key (secret, like the hand secrets).

    WHY derived and not drawn: a poll that dies after keeping the text and before the ledger
    commits archives the same revision again, and must seal it to the same line (the archive is
    then what a run without the crash wrote); the nonce stays unguessable to anyone without the
    key, and publishing it tells nothing of the key or of another nonce."""
    msg = json.dumps(["nomicpoker sealed input", table, identity, text], ensure_ascii=False)
    return hmac.new(secrets_store.installation_key(state), msg.encode("utf-8"), hashlib.sha256).digest()


def seal(state: Path, table: str, text: str, identity: str) -> str:
    """Keep ``text`` in the secrets folder under its nonce (flushed to the disk before the
    ledger commits the row naming it); return the sealed body the archive stores.
    ``identity``: the revision's thread, forum id and revision (:func:`nonce_for`)."""
    nonce = nonce_for(state, table, identity, text)
    value = commitment(nonce, text)
    secrets_store.write_private(state, inbox_path(state, table, value),
                                json.dumps({"nonce": nonce.hex(), "text": text}, ensure_ascii=False))
    return seal_line(value)


def kept(state: Path | None, table: str, value: str) -> tuple[str, str] | None:
    """``(text, nonce hex)`` of the sealed revision with commitment ``value`` from the secrets
    folder, or None when it is not there (an auditor's machine) or does not open the
    commitment (a damaged file is never folded)."""
    if state is None:
        return None
    try:
        data = json.loads(inbox_path(state, table, value).read_text("utf-8"))
        text, nonce = str(data["text"]), str(data["nonce"])
        ok = hmac.compare_digest(commitment(bytes.fromhex(nonce), text), value)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (text, nonce) if ok else None


class Sealer:
    """Seals the private revisions of one table as the archive appends them, and reads back a
    sealed body's text (the archive compares a listing with what it holds)."""

    def __init__(self, state: Path, table: TableRow, see_thread: bool):
        self.state, self.table, self.see_thread = state, table, see_thread

    def applies(self, thread: str, author: str) -> bool:
        return must_seal(self.table, thread, author, self.see_thread)

    def seal(self, text: str, thread: str, forum_id: str, revision: int) -> str:
        return seal(self.state, self.table.name, text, f"{thread}\x00{forum_id}\x00{revision}")

    def text(self, body: str) -> str | None:
        value = commitment_in(body)
        if value is None:
            return body
        got = kept(self.state, self.table.name, value)
        return got[0] if got is not None else None


def sealer_for(state: Path | None, table: TableRow, see_thread: bool) -> Sealer | None:
    """The table's :class:`Sealer` (None without a state folder: nothing can be kept);
    ``see_thread``: whether its players read the thread
    (:func:`nomicpoker.shell.cycle.private_inbox.players_see_thread`)."""
    return None if state is None else Sealer(state, table, see_thread)


def opened(session: Session, table: str, rows: Iterable[tuple[int, str]], state: Path | None,
           strict: bool = True) -> dict[int, tuple[str, str]]:
    """``archive id -> (text, nonce hex)`` for the sealed rows among ``rows`` (``(id, body)``):
    published (``np_unsealed``), else kept in ``state``'s secrets folder. ``strict``: a sealed
    row found in neither is ``StoreError('sealed')`` (a poll must not fold a seal as words);
    otherwise it is left out (``audit`` on a copy without the secrets: the running hand is not
    judged)."""
    sealed = {i: v for i, body in rows if (v := commitment_in(body)) is not None}
    if not sealed:
        return {}
    out: dict[int, tuple[str, str]] = {}
    ids = sorted(sealed)
    for k in range(0, len(ids), 500):
        for cid, body, nonce in session.exec(select(UnsealedRow.comment_id, UnsealedRow.body, UnsealedRow.nonce)
                                             .where(UnsealedRow.table_name == table,
                                                    UnsealedRow.comment_id.in_(ids[k:k + 500]))).all():  # type: ignore[attr-defined]
            out[int(cid)] = (body, nonce)
    for i, value in sealed.items():
        if i in out:
            continue
        got = kept(state, table, value)
        if got is not None:
            out[i] = got
        elif strict:
            where = inbox_path(state, table, value) if state is not None else "the secrets folder"
            raise StoreError("sealed", f"table {table}: the text of private message {i} in the archive is not "
                             f"published yet and not kept in {where}: its hand cannot be folded here "
                             "(restore the state folder's secrets/ from a backup, or audit when the hand has "
                             "ended)")
    return out


def check(rows: Iterable[tuple[int, str]], texts: Mapping[int, tuple[str, str]]) -> list[int]:
    """The archive ids among ``rows`` whose opened text does not match their commitment."""
    bad = []
    for i, body in rows:
        value = commitment_in(body)
        if value is None or i not in texts:
            continue
        text, nonce = texts[i]
        try:
            ok = hmac.compare_digest(commitment(bytes.fromhex(nonce), text), value)
        except ValueError:
            ok = False
        if not ok:
            bad.append(i)
    return bad


def unseal_due(session: Session, table: str, state: Path | None, now: str,
               secret: Callable[[], set[str]]) -> int:
    """Publish (``np_unsealed``) the text of every sealed revision of ``table`` whose hand has
    ended, that is, whose forum id is not in ``secret()`` (the table's private messages not
    public yet, :func:`nomicpoker.shell.cycle.private_inbox.withheld`); return how many. A text the
    secrets folder does not hold is logged and left sealed (``audit`` then says which)."""
    c, u = CommentRow.__table__.c, UnsealedRow.__table__.c  # type: ignore[attr-defined]
    rows = session.execute(core_select(c.id, c.forum_id, c.body)
                           .select_from(CommentRow.__table__.outerjoin(  # type: ignore[attr-defined]
                               UnsealedRow.__table__, u.comment_id == c.id))  # type: ignore[attr-defined]
                           .where(c.table_name == table, u.id.is_(None), c.body.startswith(PREFIX))
                           .order_by(c.id)).all()
    if not rows:
        return 0
    held = secret()
    n = 0
    for cid, forum_id, body in rows:
        value = commitment_in(body)
        if value is None or forum_id in held:
            continue
        got = kept(state, table, value)
        if got is None:
            _log.error("%s: the text of private message %s (archive row %d) is not in the secrets folder: "
                       "it stays sealed, and its hand cannot be audited from a copy", table, forum_id, cid)
            continue
        session.add(UnsealedRow(table_name=table, comment_id=int(cid), nonce=got[1], body=got[0],
                                published_at=now))
        n += 1
    if n:
        session.flush()
    return n
