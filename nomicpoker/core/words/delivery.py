"""How the outbox's due messages become posts: batches, combined comments, and refusal notes.

Pure decisions for :mod:`nomicpoker.shell.cycle.outbox` (which does the sending):

- :func:`batches`: on a forum that paces posting (``Abilities.min_post_interval`` > 0:
  BlogNomic's WordPress refuses a second comment within 15 s), consecutive due comments on one
  thread are combined into one post, as long as it fits the forum's longest comment. Why: a
  burst of ten dice results would otherwise take ten posts and two and a half minutes of
  waiting in one cron run. Each part keeps its own reference tag on its own line, so a run
  that crashed after posting recognises every part (:func:`nomicpoker.core.words.tags.find_tags`).
  Forums without pacing (Reddit, the local forum) get one comment per message, as replies.
- :func:`combined_body`: the parts, in order, with a separator line between them.
- :func:`refused_reply_note` and :func:`refused_private_note`: the visible dealer note that
  takes the place of a message the forum refused for good (a reply whose parent was deleted,
  a private message the player's settings refuse), so the table sees what happened and the
  rest of the outbox goes on. A note about a private message never repeats its content.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from nomicpoker.core.words.gndt import md_escape, one_line

#: Between the parts of a combined comment (a Markdown rule; WordPress shows dots).
SEPARATOR = "* * *"


@dataclass(frozen=True)
class Due:
    """A pending outbox message as the planner sees it."""

    id: int
    kind: str  # comment | private
    thread: str
    reply_to: str | None
    key: str
    body: str


def combined_body(bodies: Sequence[str]) -> str:
    """Several dealer comments as one, each ending with its own tag line."""
    return f"\n\n{SEPARATOR}\n\n".join(b.rstrip("\n") for b in bodies) + "\n"


def batches(rows: Sequence[Due], *, combine: bool, max_length: int | None,
            measure: Callable[[str], int] = len) -> list[list[Due]]:
    """Group due messages, in order, into posts. Without ``combine`` every message is its own
    post. With it, consecutive comments on the same thread share a post while the combined
    body (as ``measure`` counts it: the length in the forum's dialect) fits ``max_length``."""
    out: list[list[Due]] = []
    for row in rows:
        last = out[-1] if out else None
        if (combine and last is not None and row.kind == "comment" and last[-1].kind == "comment"
                and last[-1].thread == row.thread):
            body = combined_body([r.body for r in last] + [row.body])
            if max_length is None or measure(body) <= max_length:
                last.append(row)
                continue
        out.append([row])
    return out


def common_parent(rows: Sequence[Due]) -> str | None:
    """The comment a combined post replies to: the parts' parent when they share one, else
    none (a top-level comment that names whom each part answers)."""
    parents = {r.reply_to for r in rows}
    return parents.pop() if len(parents) == 1 else None


def refused_reply_note(reason: str, body: str) -> str:
    """A reply the forum refused for good, posted at the top level instead with a first line
    saying why (the body keeps its own tag, so it is not posted twice)."""
    return (f"*(The forum refused this as a reply: {md_escape(reason)}. It is posted here "
            f"instead.)*\n\n{body}")


def refused_private_note(recipient: str, subject: str, reason: str) -> str:
    """What the table is told when a private message cannot be delivered. The message itself
    (a deck, hole cards) is never repeated here."""
    who = md_escape(one_line(recipient))
    return (f"**{who}**: the forum refused the Dealer's private message "
            f"\"{md_escape(one_line(subject))}\" ({md_escape(reason)}). It was not delivered and "
            f"will not be sent again by itself: {who}, allow private messages from the Dealer's "
            "account and ask the Dealer to send it again.")
