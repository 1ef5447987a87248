"""The forum port: what the shell needs from any forum, and what each forum declares it can do.

The shell talks to a forum (local, BlogNomic, Reddit, and any later channel) only through
:class:`Forum`. A forum's abilities are *declared* in :class:`Abilities`, never guessed from its
name or probed with ``getattr``: who rolls the dice, whether it has private messages (and
whether the Dealer can read its own inbox), which markup it renders, whether edits show,
whether a first comment may be held for moderation, how fast it lets an account post, how long
a comment may be, and whether it shows display names rather than logins. The shell branches on
these fields only (tests/unit/house/test_structure.py checks that no forum name is compared outside the
adapters).

Adapters raise :class:`ForumError` (with a code) for anything that went wrong, so the poll run
can report it in one line and retry next run without losing anything.

Reference tags are made and read in :mod:`nomicpoker.core.words.tags`; they are re-exported here so
adapters import everything they share with the shell from the port side.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Literal, Protocol, Sequence, runtime_checkable

from nomicpoker.core.errors import CodedError
from nomicpoker.core.words.tags import find_tag, find_tags, reference_tag

__all__ = [
    "Abilities", "Forum", "ReportsUnread", "ForumError", "RemoteComment", "RemoteThread", "PrivateMessage",
    "DiceSource", "Markup", "GameListing", "Bridge", "carries_tag", "tag_key", "find_tag", "find_tags", "reference_tag",
]

#: Who rolls a player's DICE52: the forum's own in-comment roller (results arrive with the
#: comment), the bot from its committed dice secret, or an external roller whose results the
#: adapter reads and attaches like the forum's own.
DiceSource = Literal["forum", "bot", "external"]
#: The markup a forum renders in comments: the dealer's words are written in it.
Markup = Literal["markdown", "wordpress-html", "text", "irc"]


@dataclass(frozen=True)
class Abilities:
    """What a forum can do, declared by its adapter.

    ``dice``: who rolls DICE52 (see :data:`DiceSource`). ``private_send``: the Dealer can send
    private messages (decks, hole cards). ``private_read``: the Dealer can read its own inbox
    and outbox (so a private message delivered before a crash is recognised and not sent
    again). ``markup``: what comment bodies render as. ``edits_visible``: an edited comment
    shows its new text (the fold keeps the first reading and notes the edit). ``moderation``:
    a comment may be held for approval. ``min_post_interval``: seconds the forum wants between
    two comments of one account (a flood check refuses faster posting).
    ``max_comment_length``: the longest comment body it accepts, ``None`` if unbounded.
    ``display_names``: comments show a display name that may differ from the login.
    ``create_thread``: the Dealer can open the story post itself (else the Dealer writes it
    and registers it with ``--thread``). ``find_thread``: a crashed ``hand start`` can find the
    story post it made by its tag. ``login``: the Dealer posts under an authenticated
    account the forum names (``False`` for the local forum, where the dealer's name is a
    setting of the table). ``mention``: how a comment names a user so the forum tells them
    (``{name}`` is replaced by the account: ``u/{name}`` on Reddit); reminders use it.
    ``live``: see the field. ``private_inbox``: the Dealer can list the private messages players send it
    (:meth:`Forum.received_private`), so a player may send an advance action privately, as
    WRGPT's players mail theirs to the dealer.
    ``mark_read``: the forum lists only what the Dealer has not marked read (a mailbox's
    unarchived messages): the poll calls :meth:`Forum.mark_read` with a listing's ids once the
    ledger has committed them, never before, so a run that dies in between reads them again.
    ``fingerprint``: see the field.
    ``player_ids``: players are named by a secret ID the Dealer assigns (WRGPT's
    ``ID=xxxxxx``): ``table create`` has the adapter send each player theirs
    (:meth:`Forum.enrol`). ``players_see_thread``: players read the thread themselves (every
    forum); ``False`` where they see only what the Dealer sends them (e-mail), so the fold
    answers one player (a confirmation, a refusal, a reminder) privately rather than in the
    thread, which goes to everyone.
    """

    dice: DiceSource = "bot"
    private_send: bool = False
    private_read: bool = False
    markup: Markup = "markdown"
    edits_visible: bool = True
    moderation: bool = False
    min_post_interval: float = 0.0
    max_comment_length: int | None = None
    display_names: bool = False
    create_thread: bool = False
    find_thread: bool = False
    login: bool = True
    mention: str = "{name}"
    private_inbox: bool = False
    #: A live chat (IRC): lines exist only as they pass, so a long-running ``nomicpoker serve``
    #: must be connected to hear them (it archives each at once and polls the table); the
    #: adapter's :func:`open_bridges` in the registry starts that connection.
    live: bool = False
    mark_read: bool = False
    player_ids: bool = False
    players_see_thread: bool = True
    #: The adapter can digest, with a cheap local read, everything a poll reads from it (the
    #: listed threads and the Dealer's inbox): :meth:`Fingerprinted.fingerprint`. The idle
    #: check (:mod:`nomicpoker.shell.cycle.idle`) answers a poll with nothing new only for tables on
    #: such forums; every other forum takes the full poll.
    fingerprint: bool = False
    #: Dealer comments due together go as one post (each part keeping its tag): WRGPT mails
    #: one broadcast per action, the action with the next turn and the status table under it
    #: ("every action mailed to you, including an updated status report"). Forums that pace
    #: posting (``min_post_interval``) combine anyway.
    combine: bool = False
    #: The forum can leave messages unread that the Dealer must look at (a mail with no
    #: player's ID): :meth:`ReportsUnread.unread_note`, which the poll adds to its report.
    unread_report: bool = False
    #: Players' comments can be posted from the command line (``nomicpoker forum post``): the
    #: embedded local forum. ``hand start`` then hints the first comment the hand waits for.
    cli_players: bool = False

    def mentioning(self, name: str) -> str:
        """``name`` written the way this forum notifies the user."""
        return self.mention.replace("{name}", name)

    def as_json(self) -> str:
        """The abilities as a table stores them (``np_table.abilities``, set by ``table create``):
        every field, keys sorted. WHY stored: replay and ``audit`` read what the table was
        created with from the ledger, so they never import an adapter, and a later release of
        an adapter cannot change how a table's history folds."""
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_mapping(cls, stored: dict) -> "Abilities":
        """The abilities a table stored (:meth:`as_json`, parsed). A field the mapping lacks has
        its default here, so ``{}`` is :class:`Abilities` () (the bot rolls, no private
        messages, Markdown, players read the thread: what ``db upgrade`` stores for a table on a
        forum this release does not know); a key this release does not know is left out."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in stored.items() if k in known})


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
    #: Results of the forum's own (or an external) dice roller for this comment, in order;
    #: empty where the bot rolls.
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class RemoteThread:
    """A story post as the forum lists it: its reference, author, title and body."""

    ref: str
    author: str
    title: str
    body: str


@dataclass(frozen=True)
class PrivateMessage:
    """A private message as the Dealer's inbox or outbox shows it."""

    id: str
    sender: str
    recipient: str
    subject: str
    body: str
    created: datetime | None = None


class ForumError(CodedError):
    """A forum operation failed. ``code`` is one of: ``network`` (connection, timeout),
    ``http`` (unexpected status), ``login_failed``, ``comment_refused``, ``rate_limited``,
    ``not_found``, ``not_supported``, ``config``, ``storage`` (the local forum's file is damaged
    or unwritable), ``parse``, ``held`` (a comment was accepted
    but held for moderation; ``remote_id`` is the held comment's id when the forum said it).
    ``retry`` says whether the next run may simply try again. ``permanent`` says the forum
    will never accept this message as it is (Reddit's ``DELETED_COMMENT``, a locked or
    archived thread, a recipient who refuses messages): the outbox parks that one message,
    leaves a visible note, and goes on with the rest.
    ``str()`` leads with the code, because a forum failure is read by the Dealer fixing a
    setup, who needs to know which kind it was."""

    def __init__(self, code: str, message: str, retry: bool = False, permanent: bool = False,
                 remote_id: str | None = None):
        super().__init__(code, message)
        self.retry = retry
        self.permanent = permanent
        self.remote_id = remote_id

    def __reduce__(self):  # copy and pickle keep every attribute
        return (type(self), (self.code, self.message, self.retry, self.permanent, self.remote_id))

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@runtime_checkable
class Forum(Protocol):
    """The adapter protocol. ``thread`` is the forum's own thread reference (a URL, a Reddit
    submission id, a local thread id), stored on the table."""

    name: str
    abilities: Abilities

    @property
    def dealer(self) -> str:
        """The account the Dealer posts as, as the forum names it (the authenticated user;
        the configured name on the local forum)."""
        ...

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
        where ``abilities.create_thread`` is false (the Dealer registers a post instead)."""
        ...

    def find_thread_with(self, tag: str) -> str | None:
        """The reference of a story post by the dealer account whose tag is ``tag``, or
        ``None`` (always ``None`` where ``abilities.find_thread`` is false)."""
        ...

    def send_private(self, user: str, subject: str, body: str) -> str:
        """Send a private message (decks, hole cards); return its id.
        ``ForumError('not_supported')`` where ``abilities.private_send`` is false."""
        ...

    def sent_private(self, user: str) -> Sequence[PrivateMessage]:
        """Private messages the dealer account has sent to ``user`` (empty where
        ``abilities.private_read`` is false)."""
        ...

    def received_private(self) -> Sequence[PrivateMessage]:
        """Private messages sent to the dealer account, oldest first (empty where
        ``abilities.private_inbox`` is false). Ids are stable."""
        ...

    def mark_read(self, ids: Sequence[str]) -> int:
        """The ledger now holds these listed comments: mark them read (where
        ``abilities.mark_read``; elsewhere nothing to do, 0). Returns how many were marked."""
        ...

    def enrol(self, table: str, players: Sequence[str]) -> list[str]:
        """Give each player of a new table what the forum needs to know them by (where
        ``abilities.player_ids``: their secret ID, privately; elsewhere nothing, ``[]``).
        Returns the players written to."""
        ...

    def check(self) -> list[tuple[str, bool, str]]:
        """Try the connection and the login without posting: ``(what, ok, detail)`` rows."""
        ...


@runtime_checkable
class ChecksEnrol(Protocol):
    """What a forum whose ``enrol`` sends something (e-mail: each player's ID) also does."""

    def check_enrol(self, table: str, players: Sequence[str]) -> None:
        """``ForumError`` where :meth:`Forum.enrol` would refuse ``players`` at ``table``;
        nothing is sent."""
        ...


@runtime_checkable
class ReportsUnread(Protocol):
    """What a forum declaring ``abilities.unread_report`` also does (e-mail)."""

    def unread_note(self) -> str | None:
        """One line about what the last listing left unread for the Dealer, or ``None``."""
        ...


@runtime_checkable
class Fingerprinted(Protocol):
    """What a forum declaring ``abilities.fingerprint`` also does (the local forum)."""

    def fingerprint(self, threads: Sequence[str]) -> str:
        """A digest of everything a poll reads from this forum for a table polling
        ``threads``: each thread and every comment in it (edits and deletions included), and
        the Dealer's private inbox; equal digests mean equal listings. A cheap local read,
        never the network. ``ForumError`` where a thread is not found."""
        ...

    def marks(self, threads: Sequence[str]) -> tuple[dict[str, str], str, tuple[tuple[str, str], ...]]:
        """Cheaper than :meth:`fingerprint`, for a poll of many tables
        (:mod:`nomicpoker.shell.cycle.moved`): a token per thread that changes whenever the
        thread or a comment in it is added, edited or deleted ("missing" for a thread not
        found); a token of the Dealer's inbox that changes when a message in it is changed
        or removed; and the inbox's messages as (message id, sender), oldest first."""
        ...


def tag_key(tag: str) -> str:
    """The key of a reference tag given as ``KEY``, ``[np:KEY]`` or in inline code."""
    found = find_tag(tag)
    return found if found is not None else tag.strip()


def carries_tag(body: str, tag: str) -> bool:
    """Whether ``body`` (Markdown or a forum's HTML) carries the reference tag ``tag``: as its
    last tag, or on a line of its own outside quotes (a combined comment, see
    :func:`find_tags`).

    Why not a substring test: WordPress's texturizer turns the key's hyphens into en dashes
    and forums entity-encode brackets, so the posted text does not come back byte for byte;
    and ``T-h1-1`` is a substring of ``T-h1-10``. :func:`find_tag` reads the tag back the way
    any forum shows it, and the keys must be equal."""
    key = tag_key(tag)
    return bool(key) and (find_tag(body) == key or key in find_tags(body))


# -- live chats (IRC): the bridge that ``nomicpoker serve`` runs ------------------------------


@dataclass(frozen=True)
class GameListing:
    """What a live chat announces about a table (pokprot's ``newgame`` listing): the shell
    computes it from the ledger, the adapter writes it in its network's format. ``open``:
    at least two players have Money (else the game is announced as ended). ``started``: when
    the table was created, timezone-aware UTC."""

    table: str
    ruleset: str
    seats: int
    small_blind: int
    big_blind: int
    ante: int
    money: int
    started: datetime
    open: bool = True


@runtime_checkable
class Bridge(Protocol):
    """A live connection to a chat network for the tables in ``tables``: ``start`` connects
    (``ForumError`` with the usual codes), ``step`` runs the connection for up to ``timeout``
    seconds (sending what the poll spooled, logging what is said) and returns the tables whose
    channel got a new line, ``announce`` lists the games, ``close`` leaves."""

    tables: tuple[str, ...]

    def start(self) -> None: ...

    def step(self, timeout: float) -> set[str]: ...

    def announce(self, listings: Sequence[GameListing]) -> None: ...

    def close(self) -> None: ...
