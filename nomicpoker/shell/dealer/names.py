"""Names as the forum shows them: who has commented, and which seats match nobody.

Why: forums sign comments with the name they *show*, which need not be the login. WordPress
shows a member's display name (BlogNomic's theme: ``data-author-name``), Reddit its own
spelling of an account. A seat that matches nobody who has commented on the game's threads is
usually a login typed where the display name belongs; the player's every action would then be
rejected as not seated. ``table create --thread`` and ``forum check`` say so before a hand is
dealt. Comparison is case-insensitive, as the fold's (:func:`nomicpoker.core.table.fold_types.same_account`).
"""

from __future__ import annotations

from typing import Sequence

from nomicpoker.core.table.fold_types import same_account
from nomicpoker.ports import RemoteComment


def recent_commenters(comments: Sequence[RemoteComment], dealer: str | None = None,
                      limit: int = 10) -> list[str]:
    """Distinct names on the newest comments, newest first, the Dealer's own left out."""
    out: list[str] = []
    for c in sorted(comments, key=lambda c: c.created, reverse=True):
        if c.deleted or (dealer and same_account(c.author, dealer)):
            continue
        if not any(same_account(c.author, seen) for seen in out):
            out.append(c.author)
        if len(out) >= limit:
            break
    return out


def unseen_seats(comments: Sequence[RemoteComment], players: Sequence[str]) -> list[str]:
    """The players no comment in ``comments`` is signed by (case-insensitive)."""
    authors = {c.author.casefold() for c in comments if not c.deleted}
    return [p for p in players if p.casefold() not in authors]


def seat_warnings(comments: Sequence[RemoteComment], players: Sequence[str], thread: str,
                  dealer: str | None = None) -> list[str]:
    """One line per seat that matches nobody seen on ``thread``, naming who was seen."""
    missing = unseen_seats(comments, players)
    if not missing:
        return []
    seen = recent_commenters(comments, dealer, limit=12)
    shown = ", ".join(repr(s) for s in seen) if seen else "nobody yet"
    return [f"seat {p!r} matches nobody who has commented on {thread} (names shown there: "
            f"{shown}); if the forum shows this player under another name, seat that name"
            for p in missing]
