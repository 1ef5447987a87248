"""The forum port: what the poll cycle needs from any forum (local, BlogNomic, Reddit).

Adapters translate one forum's API or markup into :class:`RemoteComment` values and post the
dealer's comments. They raise :class:`ForumError` (with a code) for anything that went wrong,
so the poll cycle can report it in one line and retry next run without losing anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, Sequence, runtime_checkable

# Adapters are shell: they may use the core's pure tag reader (the core never imports them).
from nomicpoker.errors import CodedError
from nomicpoker.render import find_tag


@dataclass(frozen=True)
class RemoteComment:
    """A comment as the forum shows it now.

    ``id`` is stable for the life of the comment (Reddit fullname, WordPress/EE comment id,
    local row id). ``body`` is what the author wrote, in ``body_format`` (``html`` for blog
    comments, ``markdown`` for Reddit and the local forum): the grammar strips quotes itself.
    ``created`` and ``edited`` are timezone-aware UTC. ``deleted`` comments may still be listed
    (Reddit keeps a placeholder); their action stands in the ledger.
    """

    id: str
    author: str
    created: datetime
    body: str
    body_format: Literal["markdown", "html", "text"] = "markdown"
    edited: datetime | None = None
    deleted: bool = False
    parent_id: str | None = None
    permalink: str = ""
    #: Results of the forum's own dice roller for this comment, in order (BlogNomic's roller
    #: appends them to the comment); empty where the forum has none and the bot rolls.
    dice: tuple[int, ...] = ()


class ForumError(CodedError):
    """A forum operation failed. ``code`` is one of: ``network`` (connection, timeout),
    ``http`` (unexpected status), ``login_failed``, ``comment_refused``, ``rate_limited``,
    ``not_found``, ``not_supported``, ``config``, ``parse``. ``retry`` says whether the next
    run may simply try again. ``str()`` leads with the code, because a forum failure is read
    by the Dealer fixing a setup, who needs to know which kind it was."""

    def __init__(self, code: str, message: str, retry: bool = False):
        super().__init__(code, message)
        self.retry = retry

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@runtime_checkable
class Forum(Protocol):
    """The adapter protocol. ``thread`` is the forum's own thread reference (a URL, a Reddit
    submission id, a local thread id), stored on the table."""

    name: str

    def list_comments(self, thread: str) -> Sequence[RemoteComment]:
        """Every comment of the thread, in forum order (oldest first), replies included."""
        ...

    def post_comment(
        self, thread: str, body: str, reply_to: str | None = None, *, tag: str | None = None
    ) -> str:
        """Post ``body`` as the dealer account; return the new comment's id. ``tag`` is the
        comment's reference key (the outbox key; ``[np:KEY]`` is accepted too), so an adapter
        that must detect its own duplicates (Reddit's retried POSTs) compares tags, not bodies
        the forum may have reformatted."""
        ...

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        """The id of a live comment by the dealer account in ``thread`` whose reference tag
        (:func:`carries_tag`) is ``tag`` (``[np:KEY]`` or ``KEY``), or ``None``. This is how a
        run that crashed after posting knows not to post again."""
        ...

    def create_thread(self, title: str, body: str) -> str:
        """Create a story post; return its thread reference. ``ForumError('not_supported')``
        where the forum does not allow it (the Dealer registers an existing post instead)."""
        ...

    def send_private(self, user: str, subject: str, body: str) -> str:
        """Send a private message (decks from the Trading Post); return its id."""
        ...

    def check(self) -> list[tuple[str, bool, str]]:
        """Try the connection and the login without posting: ``(what, ok, detail)`` rows."""
        ...


def tag_key(tag: str) -> str:
    """The key of a reference tag given as ``KEY``, ``[np:KEY]`` or in inline code."""
    found = find_tag(tag)
    return found if found is not None else tag.strip()


def carries_tag(body: str, tag: str) -> bool:
    """Whether ``body`` (Markdown or a forum's HTML) ends with the reference tag ``tag``.

    Why not a substring test: WordPress's texturizer turns the key's hyphens into en dashes
    and forums entity-encode brackets, so the posted text does not come back byte for byte;
    and ``T-h1-1`` is a substring of ``T-h1-10``. :func:`nomicpoker.render.find_tag` reads the
    tag back the way any forum shows it, and the keys must be equal."""
    key = tag_key(tag)
    return bool(key) and find_tag(body) == key
