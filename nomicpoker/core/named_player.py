"""Whose action a comment states (pure): a player acts only in their own comment.

Split out of :mod:`nomicpoker.core.adjudicator` (which was past 600 lines); the fold calls it
before applying any action.
"""

from __future__ import annotations

import re

from nomicpoker.core import markup
from nomicpoker.core.fold_types import Revision


def other_player_named(rev: Revision, intent, seated: list[str]) -> str | None:
    """Another seated player's name on the action's own line (``bob: HAND1 ROUND1 folds``
    posted by alice). The grammar reads the action and ignores names; acting for someone else
    must not pass as the author's own action. The author's own name is fine (the rule's
    example statement starts with it)."""
    text = markup.visible_text(rev.body, rev.body_format)
    core = (intent.text or "").strip()
    for line in text.splitlines():
        if core and core.split()[0] in line:
            rest = line.replace(core, " ")
            words = {w.casefold() for w in re.findall(r"[^\s:;,.!?()*_\[\]<>\"']+", rest)}
            for p in seated:
                if p != rev.author and p.casefold() in words:
                    return p
    return None
