"""What of the ledger is public, and when: the one allow-list every published copy is built from.

WHY an allow-list and not "copy the tables, blank what is known to be secret": a column or a
table added later (by anyone) would be published by default. Here every column of every ledger
table is named with how it is published, and a column not named is never copied
(``export public-db`` leaves it at its default, a test fails until it is named), so the
default is to publish nothing.

How a value is published:

- ``PUBLIC``: as it is (the comment archive is the forum's, the derived rows are what the
  thread shows or what ``audit`` recomputes from it);
- a replacement that always applies: the table's forum configuration (it may name a
  credentials file, a contact address or a praw site) is published as ``{}``;
- *per row*, until the hand it belongs to has ended (:func:`not_public_yet`): a player's
  private message to the Dealer (a private advance action, and at a table whose players do not
  read the thread, e-mail, every message a player wrote) is in the ledger only sealed (a
  commitment to its text, :mod:`nomicpoker.shell.storage.sealed_inputs`), published as it is, its text
  in ``np_unsealed`` once its hand has ended; one archived in the clear (a ledger the upgrade to
  schema 0009 could not seal) is published as ``[private message: shown when the hand ends]``
  with no hash (a SHA-256 of ``CALL $37`` is found by trying the few thousand advance actions
  there are); and its verdict with no words, no code and the status ``private``: they were
  answered to the player alone;
- a private message the Dealer sent (a deck, hole cards, an answer) only as its seal
  (:mod:`nomicpoker.core.fairness.sealed`), never a body (a ledger from before schema 0006 may hold one);
- ``np_snapshot`` not at all: it is the poll's cache (and, before schema 0008, held the
  running hand's hole cards and private advance actions).

What is *not* in the ledger at all until its hand ends (the hand secrets, the decks and hole
cards they give, the fold's state of a running hand, the bodies of the Dealer's private
messages) lives in the owner-only secrets folder, so no copy of the ledger holds it;
docs/fair-dealing.md, "What is public, and when".

One thing becomes public mid-hand by rule, not by this list: where the ruleset turns the hands
face up at an all-in (``all_in_face_up``, Robert's tournament rule 27), the Dealer's street
comments show the hole cards of the players still in from the moment the betting closes (they
are thread text, published as the thread is); docs/fair-dealing.md.

The readers that publish (``export public-db``, the site, ``verdicts``, ``ledger --format
json`` and ``audit export``, which are built from the public rows only) use :func:`not_public_yet`
and :data:`WITHHELD`, and ``tests/e2e/record/test_public_record.py`` scans every byte of each for the
running hands' hole cards, private messages and secrets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from sqlmodel import Session, select

from nomicpoker.shell.cycle.private_inbox import WITHHELD, withheld
from nomicpoker.shell.storage.store import ALL_MODELS, TableRow
from nomicpoker.shell.storage.sealed_inputs import commitment_in

#: a column published as it is
PUBLIC = "public"

#: what a withheld private message's hash is published as (no hash: see the module)
NO_HASH = ""

#: the text of a Dealer's private message that is not a seal (a ledger from before schema 0006)
UNSEALED = "[private message withheld]"

_SEAL = re.compile(r"\[sealed private message to .*: HMAC-SHA256 [0-9a-f]{64} keyed by the secrets of "
                   r"hand \d+ \(deck, dice, decks\), published when it ends\]", re.DOTALL)


@dataclass(frozen=True)
class Published:
    """How one ledger table is published: each column ``PUBLIC`` or replaced by a value
    (``columns``), and for a row not public yet (its hand is running) the columns replaced
    (``until_ended``). ``rows`` False: the table is published empty."""

    columns: Mapping[str, Any]
    until_ended: Mapping[str, Any] = field(default_factory=dict)
    rows: bool = True


def _all(model: Any, **replaced: Any) -> dict[str, Any]:
    return {c: replaced.get(c, PUBLIC) for c in model.model_fields}


def _model(name: str) -> Any:
    return next(m for m in ALL_MODELS if m.__tablename__ == name)  # type: ignore[attr-defined]


#: the allow-list, per ledger table and column (a test checks it names every column)
ALLOW: dict[str, Published] = {
    "np_table": Published({**_all(_model("np_table")), "forum_config": "{}"}),
    "np_ruleset": Published(_all(_model("np_ruleset"))),
    "np_hand": Published(_all(_model("np_hand"))),
    "np_comment": Published(_all(_model("np_comment")), {"body": WITHHELD, "sha256": NO_HASH}),
    "np_dealer_event": Published(_all(_model("np_dealer_event"))),
    "np_verdict": Published(_all(_model("np_verdict")),
                            {"status": "private", "code": "", "message": "", "citation": "", "canonical": ""}),
    "np_entry": Published(_all(_model("np_entry"))),
    # a private message's body: only ever its seal (checked row by row, :func:`public_values`)
    "np_outbox": Published(_all(_model("np_outbox"))),
    "np_dice": Published(_all(_model("np_dice"))),
    "np_deck": Published(_all(_model("np_deck"))),
    "np_draw": Published(_all(_model("np_draw"))),
    "np_reveal": Published(_all(_model("np_reveal"))),
    "np_board": Published(_all(_model("np_board"))),
    "np_hand_end": Published(_all(_model("np_hand_end"))),
    "np_action": Published(_all(_model("np_action"))),
    "np_snapshot": Published({}, rows=False),
    # the text of a private input, written only once its hand has ended
    "np_unsealed": Published(_all(_model("np_unsealed"))),
    # the seed is written only when the tournament starts (until then only its hash)
    "np_tournament": Published(_all(_model("np_tournament"))),
    "np_tournament_event": Published(_all(_model("np_tournament_event"))),
}


def is_seal(body: str) -> bool:
    """Whether ``body`` is exactly a seal as :func:`nomicpoker.core.fairness.sealed.seal` writes it
    (not just starts like one)."""
    return _SEAL.fullmatch(body) is not None


def not_public_yet(session: Session) -> set[tuple[str, str]]:
    """``(table, forum id)`` of every player's private message not public yet (its hand has
    not ended: :func:`nomicpoker.shell.cycle.private_inbox.withheld`)."""
    return {(t.name, fid) for t in session.exec(select(TableRow)).all() for fid in withheld(session, t.name)}


def public_values(table: str, values: Mapping[str, Any], secret: set[tuple[str, str]]) -> dict[str, Any] | None:
    """The published form of one ledger row (``values``, column -> value) of ``table``, or
    None when the table publishes no rows. Columns the allow-list does not name are left out."""
    rule = ALLOW.get(table)
    if rule is None or not rule.rows:
        return None
    out = {c: (v if rule.columns[c] == PUBLIC else rule.columns[c])
           for c, v in values.items() if c in rule.columns}
    if rule.until_ended and (values.get("table_name"), values.get("forum_id")) in secret \
            and not (table == "np_comment" and commitment_in(str(values.get("body", ""))) is not None):
        out.update(rule.until_ended)  # (a sealed body holds only its commitment: published as it is)
    if table == "np_outbox" and values.get("kind") == "private" and not is_seal(str(values.get("body", ""))):
        out["body"] = UNSEALED
    return out
