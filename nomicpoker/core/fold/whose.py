"""Whose action a comment is: the author's own, or one posted *for* another seated player.

WHY its own module: the rule has each player post their own comment, so the fold refuses an
action posted for someone else (``not_player_action``); but a name is also what players write
when they talk to each other. Only the forms the docs list (docs/comment-grammar.md, "Whose
action it is") name whose action it is; every other mention is chat.

Pure: no I/O.
"""

from __future__ import annotations

import re

from nomicpoker.core.reading import comment_reading
from nomicpoker.core.table.fold_types import Revision, looks_alike, same_account

#: The kinds of action a ruleset without hand and round tags reads bare ("call", "raise 4").
BETTING = comment_reading.BETTING

#: The forms that name whose action it is, before the action on its line: the name alone
#: (``bob: HAND1 ROUND1 folds``, the rule's own ``Spikebrennan cards 14, 26, …``), or "for bob"
#: / "on behalf of bob" at the end of what precedes it.
_FOR_NAME = re.compile(r"^@?(?P<alone>[^\s]+?)(?:'s)?$|(?:^|\s)(?:for|on\s+behalf\s+of)\s+@?(?P<for>[^\s]+?)$",
                       re.IGNORECASE)


def other_player_named(rev: Revision, intent, seated: list[str]) -> str | None:
    """The other seated player an action is posted *for*, in the forms the docs list (see
    :data:`_FOR_NAME`); ``None`` for the author's own action. A name anywhere else (chat
    before the action, "Your move, bob!" after it, another paragraph) is a mention and never
    turns one's own action into an attempt to act for someone else."""
    prefix = (getattr(intent, "subject", "") or "").strip().rstrip(":,;-–—>|").strip()
    m = _FOR_NAME.search(prefix) if prefix else None
    if m is None:
        return None
    name = (m.group("alone") or m.group("for") or "").strip("*_\"'“”‘’()[]")
    for p in seated:
        if looks_alike(p, name):
            return None if same_account(p, rev.author) else p
    return None
