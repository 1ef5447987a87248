"""Which edition of the Dealer's reading a comment is read and answered under
(``TableSettings.edition``), for the parts of the fold that changed between editions.

A table keeps the meaning its hands were played under: edition 1 is the release before issues
22 and 28, edition 2 the tables created from then, edition 3 every table created since the
players' commands before one's turn and the tournament commands (or opted in with ``table set
edition=N``, from its next hand). Edition 3's changes are read in
:mod:`nomicpoker.core.reading.comment_reading` (``advance_hold`` after the commands, a PROTEST
holding the comment) and :mod:`nomicpoker.core.reading.player_commands` (``SINCE``).
Besides what :mod:`.advance_fold` and :mod:`.over_days` gate themselves (the reading of an
action whatever the turn, the timeout rule, Robert's rule 7, the own-turn announcement),
edition 2 changed, for tables whose players do not read the thread (e-mail):

- plain text and blog HTML read emphasis by CommonMark's rules (``CALL *`` is an advance
  action, ``~~fold~~ call`` a call), where edition 1 stripped every marker at a word's edge
  (``CALL``; ``fold call``, refused): :func:`body_format`;
- WRGPT's announcements by mail: a vacation is not named when the dealer acts for the player,
  ``BACK`` from a vacation the table never heard of is confirmed privately, ``WHAT`` and
  ``SCORE`` are answered to the asker alone (edition 1 told the whole table):
  :func:`mails_like_wrgpt`;
- the table talk a mail carries is shown with its action when the hand ends (edition 1 showed
  it nowhere): :func:`shows_talk`.
- the time of a private message in the Dealer's words (the hand-end list of private advance
  actions, the "which table?" answer) reads "2026-11-23 14:05 UTC" where edition 1 gave ISO
  (:mod:`.advance_private`, on every forum with a private inbox).

WHY per comment: the fold replays a table from its first input, so an e-mail table of the
previous release must be read and answered exactly as it was, or ``audit`` finds differences
and the poll refuses the ledger or posts again (tests/fixtures/edition-1-email-ledger).

Pure: no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nomicpoker.core.reading.markup import read_as

if TYPE_CHECKING:  # pragma: no cover - types only
    from nomicpoker.core.table.fold_state import HandState, TableState
    from nomicpoker.core.table.fold_types import Revision, TableConfig


def edition_of(st: "TableState", h: "HandState | None" = None) -> int:
    """The edition a comment of hand ``h`` is read under: the running hand's (stamped at its
    start), else the running hand's if another one runs, else the table's setting (between
    hands, an opt-in applies at once)."""
    if h is None or h.phase == "complete":
        cur = st.current
        h = cur if cur is not None and cur.phase != "complete" else None
    return h.edition if h is not None else st.days.settings.edition


def body_format(rev: "Revision", st: "TableState", h: "HandState | None") -> str:
    """The format to read ``rev`` in (:func:`nomicpoker.core.reading.markup.read_as`)."""
    return read_as(rev.body_format, edition_of(st, h))


def mails_like_wrgpt(c: "TableConfig", st: "TableState", h: "HandState | None" = None) -> bool:
    """Whether the table announces as WRGPT's mail does (edition 2 where players do not read
    the thread): vacations at the end of the hand only, BACK, WHAT and SCORE to the player."""
    return c.answers_privately() and edition_of(st, h) >= 2


def shows_talk(h: "HandState | None") -> bool:
    """Whether hand ``h`` keeps its table talk for the payout (edition 2)."""
    return h is not None and h.edition >= 2
