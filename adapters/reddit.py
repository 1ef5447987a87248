"""Reddit through praw: a table plays in the comments of one submission.

Reading sets ``comment_sort`` and ``comment_limit`` before the first access (praw fetches
lazily, and both are fixed once fetched), expands every "load more comments" stub with
``replace_more(limit=None)`` and returns all comments oldest first, keyed by fullname
(``t1_...``). Edits show as ``edited`` (Reddit's timestamp; edits in Reddit's grace period
carry none, so the poll cycle also compares body hashes); deletions as ``deleted`` (author
gone, body ``[deleted]`` or ``[removed]``).

Why posting is more than ``reply()``: prawcore retries a POST that timed out or got a 5xx,
and Reddit may already have stored the first attempt, so one ``reply()`` can post twice.
Before posting we look for the reference tag; after posting we re-read the thread and delete
any younger duplicate of ours that carries the same tag, keeping the oldest.

Story posts: with a ``subreddit`` configured, ``hand start`` submits the story post there
(``create_thread``). The post ends with its reference tag, and ``find_thread_with`` looks for
that tag among the Dealer account's own recent submissions, so a ``hand start`` that crashed
after Reddit stored the post but before its id was kept finds it instead of posting again.

Credentials are praw's business (a praw.ini site, or ``praw_client_id``,
``praw_client_secret``, ``praw_username``, ``praw_password`` in the environment); this module
never reads, logs or repeats them. A RATELIMIT answer is ``ForumError('rate_limited',
retry=True)``: the outbox row stays unsent and the next run tries again.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Mapping, Sequence, TypeVar

import praw
import prawcore
from praw.exceptions import ClientException, RedditAPIException

from nomicpoker.ports import (
    Abilities, PrivateMessage, ForumError, RemoteComment, carries_tag, find_tag, tag_key,
)

T = TypeVar("T")

DELETED_BODIES = frozenset({"[deleted]", "[removed]"})
COMMENT_LIMIT = 500  # the most comments Reddit returns in one listing
#: how many of the Dealer's newest submissions a story-post search reads (one listing page);
#: the post looked for is the one an interrupted ``hand start`` made minutes before
SUBMISSION_SEARCH_LIMIT = 100
#: how many of the Dealer's newest sent messages a delivery check reads (the one looked for
#: was sent by the run before, minutes ago; a hand sends one per player)
SENT_BOX_LIMIT = 100


def reddit_config_keys() -> set[str]:
    return {
        "site", "user_agent", "dealer", "comment_sort", "subreddit", "oauth_url", "reddit_url",
        "timeout",
    }


def _same_text(a: str, b: str) -> bool:
    """Bodies equal up to line endings and surrounding whitespace (as Reddit stores them)."""
    return a.replace("\r\n", "\n").strip() == b.replace("\r\n", "\n").strip()


#: Reddit's answers that will not change however often the same message is sent: the parent
#: comment was deleted, the thread is locked or archived, the recipient refuses private
#: messages (or is gone). The outbox parks such a message and goes on with the rest.
PERMANENT_REFUSALS = frozenset({
    "DELETED_COMMENT", "THREAD_LOCKED", "TOO_OLD", "NOT_WHITELISTED_BY_USER_MESSAGE",
    "USER_BLOCKED_MESSAGE", "USER_DOESNT_EXIST", "INVALID_USER",
})


def _call(what: str, action: Callable[[], T]) -> T:
    """Run a praw call, translating its exceptions into ForumError codes. Messages name the
    operation and Reddit's words, never a credential. A refusal in
    :data:`PERMANENT_REFUSALS` is ``permanent``: sending it again can never succeed."""
    try:
        return action()
    except RedditAPIException as exc:
        items = list(exc.items)
        said = "; ".join(f"{i.error_type}: {i.message}" for i in items)
        if any(i.error_type == "RATELIMIT" for i in items):
            raise ForumError("rate_limited", f"{what}: Reddit says {said}; try again next run", retry=True) from None
        permanent = bool(items) and all(i.error_type in PERMANENT_REFUSALS for i in items)
        raise ForumError("comment_refused", f"{what}: Reddit refused: {said}", permanent=permanent) from None
    except prawcore.OAuthException as exc:
        raise ForumError("login_failed", f"{what}: Reddit refused the login ({exc.error})") from None
    except prawcore.TooManyRequests:
        raise ForumError("rate_limited", f"{what}: Reddit answered 429; try again next run", retry=True) from None
    except prawcore.NotFound:
        raise ForumError("not_found", f"{what}: not found on Reddit") from None
    except prawcore.Forbidden:
        raise ForumError("comment_refused", f"{what}: Reddit answered 403 Forbidden") from None
    except prawcore.ServerError as exc:
        status = exc.response.status_code
        raise ForumError("http", f"{what}: Reddit answered {status}", retry=True) from None
    except prawcore.ResponseException as exc:
        status = exc.response.status_code
        code = "login_failed" if status == 401 else "http"
        raise ForumError(code, f"{what}: Reddit answered {status}", retry=status >= 500) from None
    except prawcore.RequestException as exc:
        if isinstance(exc.original_exception, _MessageNotResent):
            raise ForumError("network", f"{what}: no answer from Reddit ({exc.original_exception}); not sent "
                             "again now: the next run reads the sent box first", retry=True) from None
        reason = type(exc.original_exception).__name__
        raise ForumError("network", f"{what}: could not reach Reddit ({reason})", retry=True) from None
    except ClientException as exc:
        raise ForumError("config", f"{what}: {exc}") from None


class _MessageNotResent(Exception):
    """A private message whose request failed without an answer (or with a 5xx): not sent
    again by prawcore, because Reddit may have delivered it and a message cannot be taken
    back. The next run reads the sent box first (``sent_private``)."""


class _BoundedRequestor(prawcore.Requestor):
    """A prawcore Requestor whose own ``timeout`` caps the one prawcore passes per request,
    and that never lets prawcore repeat a private message.

    Why the timeout: prawcore's session passes its fixed default timeout with every request,
    so the requestor's setting alone would never apply; a cron job wants a shorter bound.
    Why the message: prawcore retries any request after a connection error, a timeout or a
    5xx, and Reddit may have delivered the first attempt (the network sweep cuts the
    connection after the server stored it: the player got the deck twice). A comment's copy
    can be found by its tag and deleted; a message cannot. So a failed /api/compose is
    reported as one, unrepeated, and the next run's sent-box check decides."""

    def request(self, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        bound = min(timeout, self.timeout) if timeout else self.timeout
        url = str(args[1] if len(args) > 1 else kwargs.get("url", ""))
        if not url.rstrip("/").endswith("/api/compose"):
            return super().request(*args, timeout=bound, **kwargs)
        try:
            response = super().request(*args, timeout=bound, **kwargs)
        except prawcore.RequestException as exc:
            raise prawcore.RequestException(_MessageNotResent(type(exc.original_exception).__name__),
                                            exc.request_args, exc.request_kwargs) from None
        if response.status_code in prawcore.Session.RETRY_STATUSES:
            raise prawcore.RequestException(_MessageNotResent(f"answered {response.status_code}"), args, kwargs)
        return response


def _when(stamp: float) -> datetime:
    return datetime.fromtimestamp(float(stamp), tz=timezone.utc)


def _order(comment: Any) -> tuple[float, int]:
    return (float(comment.created_utc), int(comment.id, 36))


#: Conversations read from the Dealer's inbox per poll, newest first (Reddit lists a
#: conversation by its latest message). WHY a bound: the whole inbox of a long game would be
#: paged through on every poll; messages already archived are skipped anyway, and 200 new
#: conversations between two polls is far beyond a table's traffic.
INBOX_LIMIT = 200


class RedditForum:
    """The Forum protocol on a subreddit post, through a ``praw.Reddit`` instance."""

    name = "reddit"
    #: Reddit renders Markdown, has private messages (the Dealer reads its sent box, so a
    #: message delivered just before a crash or a lost answer is not sent again), shows
    #: edits, has no dice roller (the bot rolls), and lets the Dealer submit and find its
    #: story posts. A comment is at most 10,000 characters. The Dealer reads its inbox (players'
    #: private advance actions, :meth:`received_private`).
    abilities = Abilities(dice="bot", private_send=True, private_read=True, markup="markdown",
                          edits_visible=True, max_comment_length=10_000, create_thread=True,
                          find_thread=True, mention="u/{name}", private_inbox=True)

    def __init__(
        self,
        reddit: praw.Reddit,
        *,
        dealer: str | None = None,
        comment_sort: str = "old",
        subreddit: str | None = None,
        reddit_url: str = "https://www.reddit.com",
    ):
        self.reddit = reddit
        self._dealer = dealer
        self.comment_sort = comment_sort
        self.subreddit = subreddit
        self.reddit_url = reddit_url.rstrip("/")
        #: the raw praw comments of the latest listing per submission id
        self._seen: dict[str, list[Any]] = {}

    @classmethod
    def from_config(cls, config: Mapping[str, object]) -> "RedditForum":
        def text(key: str, default: str | None = None) -> str | None:
            value = config.get(key, default)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ForumError("config", f"reddit forum config key {key!r} must be a string")
            return value

        kwargs: dict[str, Any] = {"check_for_updates": False, "check_for_async": False}
        for key in ("oauth_url", "reddit_url"):
            if text(key):
                kwargs[key] = text(key)
        kwargs["user_agent"] = text(
            "user_agent", "python:nomicpoker:0.1 (nomic poker dealer bot)"
        )
        timeout = config.get("timeout")
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
                raise ForumError("config", "reddit forum config key 'timeout' must be a number > 0")
            kwargs["requestor_kwargs"] = {"timeout": float(timeout)}
        kwargs["requestor_class"] = _BoundedRequestor
        sort = text("comment_sort", "old")
        if sort not in ("old", "new", "top", "best", "confidence", "controversial", "q&a"):
            raise ForumError("config", f"reddit forum config key 'comment_sort': unknown sort {sort!r}")
        try:
            reddit = praw.Reddit(text("site"), **kwargs)
        except praw.exceptions.MissingRequiredAttributeException as exc:
            raise ForumError(
                "config",
                f"reddit credentials incomplete: {str(exc).splitlines()[0]} (set praw_client_id, "
                "praw_client_secret, praw_username, praw_password, or a praw.ini site)",
            ) from None
        except Exception as exc:  # configparser errors for an unknown site name, etc.
            raise ForumError("config", f"cannot configure praw: {type(exc).__name__}: {exc}") from None
        return cls(
            reddit,
            dealer=text("dealer"),
            comment_sort=sort or "old",
            subreddit=text("subreddit"),
            reddit_url=str(kwargs.get("reddit_url", "https://www.reddit.com")),
        )

    # -- helpers ----------------------------------------------------------------------------

    def _submission_id(self, thread: str) -> str:
        ref = str(thread).strip()
        if ref.startswith("t3_"):
            ref = ref[3:]
        if "/" in ref:
            return _call(f"thread {thread}", lambda: praw.models.Submission.id_from_url(ref))
        if not ref.isalnum():
            raise ForumError("config", f"thread {thread!r} is neither a submission id nor its URL")
        return ref

    @property
    def dealer(self) -> str:
        if self._dealer is None:
            me = _call("who am I", lambda: self.reddit.user.me())
            if me is None:
                raise ForumError("login_failed", "praw is read-only: no username/password configured")
            self._dealer = str(me.name)
        return self._dealer

    def _is_dealer(self, comment: Any) -> bool:
        return comment.author is not None and comment.author.name.casefold() == self.dealer.casefold()

    def _fetch(self, sid: str) -> list[Any]:
        def load() -> list[Any]:
            submission = self.reddit.submission(id=sid)
            submission.comment_sort = self.comment_sort  # before anything touches .comments
            submission.comment_limit = COMMENT_LIMIT
            submission.comments.replace_more(limit=None)
            return list(_walk(submission.comments))

        comments = sorted(_call(f"read thread {sid}", load), key=_order)
        self._seen[sid] = comments
        return self._drop_duplicates(sid, comments)

    def _drop_duplicates(self, sid: str, comments: list[Any]) -> list[Any]:
        """Delete younger copies of our own comments that carry the same reference tag.

        Why here as well as right after posting: prawcore retries a POST that timed out, and
        the first attempt may appear in listings only after the post-posting check has read
        the thread; the next run's listing is the first to show both. The oldest copy is kept
        (its id is the one a player may have answered)."""
        first: dict[str, Any] = {}
        extra: list[Any] = []
        for c in comments:
            if not self._is_dealer(c) or c.body in DELETED_BODIES:
                continue
            key = find_tag(c.body)
            if key is None:
                continue
            if key in first:
                extra.append(c)
            else:
                first[key] = c
        if not extra:
            return comments
        for duplicate in extra:
            _call(f"delete duplicate {duplicate.name}", duplicate.delete)
        gone = {d.name for d in extra}
        kept = [c for c in comments if c.name not in gone]
        self._seen[sid] = kept
        return kept

    def _value(self, c: Any) -> RemoteComment:
        deleted = c.author is None or c.body in DELETED_BODIES
        parent = str(c.parent_id)
        return RemoteComment(
            id=str(c.name),
            author=c.author.name if c.author is not None else "[deleted]",
            created=_when(c.created_utc),
            body=c.body,
            body_format="markdown",
            edited=_when(c.edited) if c.edited else None,
            deleted=deleted,
            parent_id=parent if parent.startswith("t1_") else None,
            permalink=f"{self.reddit_url}{c.permalink}" if getattr(c, "permalink", "") else "",
        )

    # -- the Forum protocol -----------------------------------------------------------------

    def list_comments(self, thread: str) -> list[RemoteComment]:
        return [self._value(c) for c in self._fetch(self._submission_id(thread))]

    def _mine(self, comments: list[Any], match: Callable[[str], bool]) -> list[Any]:
        return [
            c for c in comments
            if self._is_dealer(c) and c.body not in DELETED_BODIES and match(c.body)
        ]

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        """Our oldest live comment carrying ``tag`` (from this run's listing if there is one)."""
        sid = self._submission_id(thread)
        comments = self._seen.get(sid)
        if comments is None:
            comments = self._fetch(sid)
        mine = self._mine(comments, lambda text: carries_tag(text, tag))
        return str(mine[0].name) if mine else None

    def post_comment(
        self, thread: str, body: str, reply_to: str | None = None, *, tag: str | None = None
    ) -> str:
        """Reply to ``reply_to`` (a ``t1_`` fullname) or to the submission; return the kept
        comment's fullname.

        Our comments that match, meaning they end with the reference tag ``tag`` (compared by
        :func:`.base.carries_tag`, so whitespace Reddit changed does not matter) when one is
        given and otherwise have exactly this body, count as the same comment: one already in the thread is returned
        without posting (a run crashed after posting), and younger copies left by prawcore's
        retries are deleted after posting. Without a tag only identical bodies match, so two
        different comments that share a line are never taken for one."""
        if not body.strip():
            raise ForumError("comment_refused", "an empty comment is not posted")
        sid = self._submission_id(thread)
        match: Callable[[str], bool] = (
            (lambda text: carries_tag(text, tag)) if tag else (lambda text: _same_text(text, body))
        )
        comments = self._seen.get(sid)
        existing = self._mine(comments if comments is not None else self._fetch(sid), match)
        if existing:
            return str(existing[0].name)
        if reply_to:
            cid = reply_to[3:] if reply_to.startswith("t1_") else reply_to
            target: Any = self.reddit.comment(id=cid)
        else:
            target = self.reddit.submission(id=sid)
        posted = _call(f"reply in {sid}", lambda: target.reply(body))
        return self._dedupe(sid, match, str(posted.name) if posted is not None else None)

    def _dedupe(self, sid: str, match: Callable[[str], bool], posted: str | None) -> str:
        """Re-read the thread; keep our oldest matching comment, delete the others."""
        mine = self._mine(self._fetch(sid), match)
        if not mine:
            if posted is None:
                raise ForumError("comment_refused", "Reddit accepted the reply but it is not in the thread")
            return posted
        keep, extra = mine[0], mine[1:]
        for duplicate in extra:
            _call(f"delete duplicate {duplicate.name}", duplicate.delete)
        if extra:
            gone = {d.name for d in extra}
            self._seen[sid] = [c for c in self._seen[sid] if c.name not in gone]
        return str(keep.name)

    def create_thread(self, title: str, body: str) -> str:
        if not self.subreddit:
            raise ForumError(
                "not_supported",
                "no subreddit configured: set the forum config key 'subreddit', or register an "
                "existing post with --thread",
            )
        sub = _call(
            f"submit to r/{self.subreddit}",
            lambda: self.reddit.subreddit(self.subreddit).submit(title, selftext=body),
        )
        key = find_tag(body)
        if key is None:
            return str(sub.id)
        # prawcore retries a POST that timed out or got a 5xx: Reddit may have stored the
        # first attempt too. Keep our oldest post with this tag, delete the younger copies.
        mine = self._own_submissions_with(key)
        for duplicate in mine[1:]:
            _call(f"delete duplicate post {duplicate.id}", duplicate.delete)
        return str(mine[0].id) if mine else str(sub.id)

    def find_thread_with(self, tag: str) -> str | None:
        """The id of the Dealer account's oldest live submission whose text ends with the
        reference tag ``tag`` (``KEY`` or ``[np:KEY]``), among its newest
        :data:`SUBMISSION_SEARCH_LIMIT`, in the configured subreddit when one is set; ``None``
        when there is none.

        Why the account's own submissions and not a subreddit search: only the Dealer's posts
        may be adopted (a player cannot plant a post for the dealer to take over), Reddit's
        search index lags by minutes, and the account's listing is one request. The tag is
        compared exactly (:func:`.base.carries_tag`), so ``T-h1-story`` never matches a quoted
        or longer key."""
        found = self._own_submissions_with(tag_key(tag))
        return str(found[0].id) if found else None

    def _own_submissions_with(self, key: str) -> list[Any]:
        """Our live submissions ending with the tag ``key``, oldest first (see
        :meth:`find_thread_with`)."""
        def load() -> list[Any]:
            me = self.reddit.user.me()
            if me is None:
                raise ForumError("login_failed", "praw is read-only: no username/password configured")
            return list(me.submissions.new(limit=SUBMISSION_SEARCH_LIMIT))

        wanted = (self.subreddit or "").removeprefix("r/").casefold()
        found = [
            s for s in _call("list the Dealer's submissions", load)
            if s.author is not None and s.selftext not in DELETED_BODIES
            and carries_tag(s.selftext or "", key)
            and (not wanted or str(s.subreddit.display_name).casefold() == wanted)
        ]
        return sorted(found, key=_order)

    def send_private(self, user: str, subject: str, body: str) -> str:
        """Send a private message; Reddit does not return its id, so the reference returned
        is the recipient and a digest of the message."""
        user = user.strip().removeprefix("u/").removeprefix("/u/")
        if not user:
            raise ForumError("comment_refused", "a private message needs a recipient")
        _call(
            f"message u/{user}",
            lambda: self.reddit.redditor(user).message(subject=subject, message=body),
        )
        return _message_ref(user, subject, body)

    def sent_private(self, user: str) -> list[PrivateMessage]:
        """The messages to ``user`` among the newest :data:`SENT_BOX_LIMIT` of the Dealer's
        sent box (``/message/sent``), oldest first, bodies as sent (Reddit returns ``&``,
        ``<``, ``>`` as entities). Ids are the ones :meth:`send_private` returns, so a
        message found here is recorded exactly as one sent now would be."""
        user = user.strip().removeprefix("u/").removeprefix("/u/")
        found = []
        for m in _call("read the sent box", lambda: list(self.reddit.inbox.sent(limit=SENT_BOX_LIMIT))):
            dest = getattr(m, "dest", None)
            name = str(getattr(dest, "name", dest) or "")
            if name.casefold() != user.casefold():
                continue
            body = str(m.body).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            found.append(PrivateMessage(id=_message_ref(user, m.subject, body), sender=self.dealer,
                                        recipient=name, subject=str(m.subject), body=body,
                                        created=_when(m.created_utc)))
        return found[::-1]

    def received_private(self) -> list[PrivateMessage]:
        """The Dealer's inbox of private messages (``/message/messages``), oldest first: each
        conversation and its replies, keeping the messages others sent the Dealer (a reply to
        one of the Dealer's own messages comes nested in that conversation)."""
        me = self.dealer.casefold()

        def load() -> list[PrivateMessage]:
            out: list[PrivateMessage] = []
            for root in self.reddit.inbox.messages(limit=INBOX_LIMIT):
                for m in (root, *getattr(root, "replies", ())):
                    author = getattr(m, "author", None)
                    dest = getattr(m, "dest", None)
                    if author is None or str(author).casefold() == me or str(dest).casefold() != me:
                        continue
                    out.append(PrivateMessage(
                        id=str(m.name), sender=str(author), recipient=str(dest), subject=str(m.subject),
                        body=str(m.body),  # as comments: entities and all (the reader decodes them)
                        created=datetime.fromtimestamp(float(m.created_utc), tz=timezone.utc)))
            return out

        got = _call("read the Dealer's inbox", load)
        unique = {m.id: m for m in got}
        return sorted(unique.values(), key=lambda m: (m.created or datetime.min.replace(tzinfo=timezone.utc),
                                                      int(m.id.removeprefix("t4_"), 36)))

    def mark_read(self, ids: Sequence[str]) -> int:
        """Nothing to mark: the listing is the whole thread each time (``abilities.mark_read``)."""
        return 0

    def enrol(self, table: str, players: Sequence[str]) -> list[str]:
        """Players are known by their account names here (``abilities.player_ids``)."""
        return []

    def check(self) -> list[tuple[str, bool, str]]:
        config = self.reddit.config
        rows: list[tuple[str, bool, str]] = []
        has_app = bool(config.client_id)
        rows.append(("app credentials", has_app, "client id configured" if has_app else "no client id"))
        try:
            name = self.dealer
            rows.append(("login", True, f"authenticated as u/{name} (nothing posted)"))
        except ForumError as exc:
            rows.append(("login", False, str(exc)))
        return rows


def _message_ref(user: str, subject: str, body: str) -> str:
    """Reddit does not return a sent message's id: the recipient and a digest stand for it."""
    digest = hashlib.sha256(f"{subject}\n{body.strip()}".encode()).hexdigest()[:12]
    return f"pm:{user}:{digest}"


def _walk(forest: Any) -> Iterator[Any]:
    """Depth-first over a comment forest (after replace_more every item is a Comment)."""
    for comment in forest:
        if isinstance(comment, praw.models.MoreComments):
            continue
        yield comment
        yield from _walk(comment.replies)
