"""``np_unsealed``: the published texts of the sealed private inputs (shell).

WHY a table of its own and not the archive row rewritten: the archive (``np_comment``) is
append-only (a changed row is an edit from outside, and drops the table's snapshot). While a
hand runs, the archive row of a player's private message holds only a commitment to its text,
the text itself is kept in the owner-only secrets folder; when the hand ends the poll writes the
text and the commitment's nonce here, so a copy of the ledger replays the hand without the
secrets folder and anyone checks the text against the commitment the archive held
(:mod:`nomicpoker.shell.storage.sealed_inputs`). A module of its own beside :mod:`.store`
(which lists it among the ledger's models) only because that file is at its size limit.
"""

from __future__ import annotations

from typing import Optional

from sqlmodel import Field, SQLModel


class UnsealedRow(SQLModel, table=True):
    """The text of one sealed archive row, published once its hand ended."""

    __tablename__ = "np_unsealed"
    id: Optional[int] = Field(default=None, primary_key=True)
    table_name: str = Field(index=True)
    comment_id: int = Field(index=True, unique=True)  # the archive row (np_comment.id) it opens
    nonce: str  # hex: the commitment is SHA-256(nonce || UTF-8 text)
    body: str  # the text, exactly as archived
    published_at: str  # shell clock: the poll that saw its hand ended
