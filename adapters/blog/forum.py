"""BlogNomic (and any blog whose comment markup a site profile describes): requests + bs4.

Reading needs no login: the thread is the story post's URL, fetched conditionally (ETag /
If-Modified-Since; a 304 serves the cached page) with its comment pages followed, and parsed
with the table's site profile (:mod:`.siteprofile`). Posting logs the Dealer's member account
in once per run, reads the comment form fresh (its hidden inputs carry nonces and tokens),
submits every field the form holds, and reads the site's answer: a redirect to the new
comment, a moderation hold, an error page, or the login page again.

Why so careful with the response: a comment the site silently dropped, held or refused must
not be recorded as sent; the poll cycle only records an id this adapter returns, and it looks
for the reference tag before posting again.

Credentials come from ``NOMICPOKER_BLOGNOMIC_USER`` / ``NOMICPOKER_BLOGNOMIC_PASSWORD`` or an
owner-only TOML file (``user``, ``password``). They are never logged, printed or put in an
error message.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Mapping, Sequence
from urllib.parse import urljoin, urlsplit

from nomicpoker.ports import Abilities, PrivateMessage, ForumError, RemoteComment, carries_tag
from nomicpoker.adapters.blog.http import (
    DEFAULT_BACKOFF, DEFAULT_DELAY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, PageCache, PoliteSession,
    decode, user_agent,
)
from nomicpoker.adapters.blog.siteprofile import SiteProfile, form_fields, load_profile, page_form, page_message, parse_page, soup

ENV_USER = "NOMICPOKER_BLOGNOMIC_USER"
ENV_PASSWORD = "NOMICPOKER_BLOGNOMIC_PASSWORD"
MAX_PAGES = 50


@dataclass(frozen=True)
class Credentials:
    """A member login. ``password`` is kept out of ``repr`` so it cannot leak into a log."""

    user: str
    password: str = field(repr=False)
    source: str = ""


def load_credentials(
    credentials_file: str | None, environ: Mapping[str, str] | None = None
) -> Credentials:
    """From an owner-only TOML file if one is configured, else from the environment."""
    env = os.environ if environ is None else environ
    if credentials_file:
        path = Path(credentials_file).expanduser()
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            raise ForumError("config", f"credentials file {path}: {exc.strerror}") from exc
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ForumError(
                "config",
                f"credentials file {path} is readable by group or others "
                f"(mode {stat.S_IMODE(mode):o}); run: chmod 600 {path}",
            )
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ForumError("config", f"credentials file {path} is not readable TOML") from exc
        user, password = data.get("user"), data.get("password")
        if not isinstance(user, str) or not user or not isinstance(password, str) or not password:
            raise ForumError("config", f"credentials file {path} needs string keys user and password")
        return Credentials(user, password, source=str(path))
    user, password = env.get(ENV_USER, ""), env.get(ENV_PASSWORD, "")
    if not user or not password:
        missing = ENV_USER if not user else ENV_PASSWORD
        raise ForumError(
            "config",
            f"no BlogNomic credentials: set {missing} (and its pair) or the forum config key "
            "credentials_file",
        )
    return Credentials(user, password, source="environment")


def blognomic_config_keys() -> set[str]:
    return {
        "base_url", "profile", "dealer", "credentials_file", "contact", "delay", "timeout",
        "max_retries", "backoff", "cache_dir",
    }


def _scrub(message: str, secret: str) -> str:
    return message.replace(secret, "***") if secret else message


def _id_key(comment: RemoteComment) -> tuple[datetime, int, str]:
    return (comment.created, int(comment.id) if comment.id.isascii() and comment.id.isdigit() else 0, comment.id)


def blog_abilities(profile: SiteProfile) -> Abilities:
    """A blog: HTML comments, no private messages, story posts written by hand, display names;
    the markup, posting interval, moderation and longest comment come from the profile's
    ``[forum]`` section (WordPress: HTML within ``$allowedtags``, 15 s between comments, a
    first comment held, 65525 characters). Who rolls the dice is the profile's to say: a
    profile that names a roller's markup in the comments (``dice_pattern``) reads its
    results, otherwise the bot rolls from its committed secrets (BlogNomic's theme has no
    roller in the comments)."""
    forum = profile.forum
    return Abilities(
        dice="forum" if profile.read.dice_pattern else "bot",
        private_send=False, private_read=False, markup=forum.markup,  # type: ignore[arg-type]
        edits_visible=True, moderation=forum.moderation,
        min_post_interval=float(forum.min_post_interval),
        max_comment_length=int(forum.max_comment_length) or None,
        display_names=True, create_thread=False, find_thread=False,
    )


class BlogNomicForum:
    """The Forum protocol for a blog read and written through its HTML pages."""

    name = "blognomic"

    def __init__(
        self,
        base_url: str,
        profile: SiteProfile,
        *,
        http: PoliteSession | None = None,
        credentials: Callable[[], Credentials] | None = None,
        dealer: str | None = None,
        max_pages: int = MAX_PAGES,
    ):
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.profile = profile
        self.http = http or PoliteSession()
        self._credentials_source = credentials or (lambda: load_credentials(None))
        self._credentials: Credentials | None = None
        self._dealer = dealer
        self.max_pages = max_pages
        self._logged_in = False
        self._shown: str | None = None
        #: the latest listing per thread URL, with what this instance posted since
        self._seen: dict[str, list[RemoteComment]] = {}

    @classmethod
    def from_config(cls, config: Mapping[str, object], state: Path) -> "BlogNomicForum":
        base_url = config.get("base_url")
        if not isinstance(base_url, str) or urlsplit(base_url).scheme not in ("http", "https"):
            raise ForumError("config", "blognomic forum config key 'base_url' must be an http(s) URL")
        profile = config.get("profile", "wordpress")
        if not isinstance(profile, str):
            raise ForumError("config", "blognomic forum config key 'profile' must be a string")

        def number(key: str, default: float) -> float:
            value = config.get(key, default)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ForumError("config", f"blognomic forum config key {key!r} must be a number >= 0")
            return float(value)

        def text(key: str) -> str | None:
            value = config.get(key)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ForumError("config", f"blognomic forum config key {key!r} must be a string")
            return value

        cred_file = text("credentials_file")
        if cred_file:
            load_credentials(cred_file)  # refuse a readable-by-others file now, not mid-poll
        cache_dir = text("cache_dir")
        http = PoliteSession(
            agent=user_agent(text("contact")),
            delay=number("delay", DEFAULT_DELAY),
            timeout=number("timeout", DEFAULT_TIMEOUT) or DEFAULT_TIMEOUT,
            max_retries=int(number("max_retries", DEFAULT_MAX_RETRIES)),
            backoff=number("backoff", DEFAULT_BACKOFF),
            cache=PageCache(Path(cache_dir).expanduser() if cache_dir else state / "blognomic-cache"),
        )
        return cls(
            base_url,
            load_profile(profile),
            http=http,
            credentials=lambda: load_credentials(cred_file),
            dealer=text("dealer"),
        )

    # -- helpers ----------------------------------------------------------------------------

    def _url(self, thread: str) -> str:
        thread = str(thread).strip()
        if not thread:
            raise ForumError("config", "a BlogNomic thread is the story post's URL; got nothing")
        url = urljoin(self.base_url, thread)
        if urlsplit(url).scheme not in ("http", "https"):
            raise ForumError("config", f"thread {thread!r} is not an http(s) URL")
        return url.split("#", 1)[0]

    def credentials(self) -> Credentials:
        if self._credentials is None:
            self._credentials = self._credentials_source()
        return self._credentials

    @property
    def dealer(self) -> str:
        """The name the site shows on the Dealer's comments: the ``dealer`` config key if set,
        else the display name the site shows for the logged-in account (read once, see
        :meth:`shown_name`), else the login."""
        if self._dealer:
            return self._dealer
        shown = self.shown_name()
        return shown or self.credentials().user

    def shown_name(self) -> str | None:
        """The account's display name as the site shows it on comments (WordPress shows the
        display name, not the login: "pokerbot" may sign as "Poker Dealer"). Logs in and reads
        the profile's ``shown_name_url`` page once per run; ``None`` where the profile names
        no such page."""
        forum = self.profile.forum
        if self._shown is not None or not (forum.shown_name_url and forum.shown_name_selector):
            return self._shown or None
        self._login()
        url = urljoin(self.base_url, forum.shown_name_url)
        response = self.http.request("GET", url)
        node = soup(decode(response)).select_one(forum.shown_name_selector) if response.status_code < 400 else None
        text = node.get_text(" ", strip=True) if node is not None else ""
        if text and forum.shown_name_pattern:
            hit = re.search(forum.shown_name_pattern, text)
            text = hit.group(1).strip() if hit and hit.groups() else ""
        self._shown = text
        return text or None

    def _is_dealer(self, comment: RemoteComment) -> bool:
        return comment.author.casefold() == self.dealer.casefold()

    # -- reading ----------------------------------------------------------------------------

    def list_comments(self, thread: str) -> list[RemoteComment]:
        """All comments on the story post and its comment pages, oldest first, as the public
        sees them (never with the login cookie: a logged-in WordPress author also sees their
        own held comments, unmarked, and a held comment must not count as posted).

        Comment pages are followed unless the profile says every page shows every comment
        (BlogNomic's theme does); a page that adds no comment not seen on an earlier page
        ends the walk, so a theme like that costs one extra page, not one per page."""
        first = self._url(thread)
        host = urlsplit(first).netloc
        queue, seen = [first], {first}
        found: dict[str, RemoteComment] = {}
        follow = self.profile.read.all_comments_on_every_page.strip().lower() not in ("true", "yes", "1")
        index = 0
        while index < len(queue):
            if index >= self.max_pages:
                raise ForumError("parse", f"{first} links more than {self.max_pages} comment pages")
            page = self.http.get_page(queue[index], public=True)
            parsed = parse_page(page.text, queue[index], self.profile.read)
            new = 0
            for comment in parsed.comments:
                if comment.id not in found:
                    found[comment.id] = comment
                    new += 1
            if follow and (new or index == 0):
                for link in parsed.page_links:
                    if link not in seen and urlsplit(link).netloc == host:
                        seen.add(link)
                        queue.append(link)
            index += 1
        comments = sorted(found.values(), key=_id_key)
        self._seen[first] = list(comments)
        return comments

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        """A dealer comment whose reference tag is ``tag``, from this run's listing (no extra
        fetch). Compared by :func:`.base.carries_tag`: WordPress serves the tag back with
        typographic dashes and entity-encoded brackets."""
        url = self._url(thread)
        comments = self._seen.get(url)
        if comments is None:
            comments = self.list_comments(thread)
        for comment in comments:
            if not self._is_dealer(comment):
                continue
            if carries_tag(comment.body, tag):
                return comment.id
        return None

    # -- logging in and posting ---------------------------------------------------------------

    def _login(self) -> None:
        if self._logged_in:
            return
        creds = self.credentials()
        login = self.profile.login
        login_url = urljoin(self.base_url, login.url)
        response = self.http.request("GET", login_url)
        if response.status_code >= 400:
            raise ForumError("login_failed", f"login page {login_url} answered {response.status_code}")
        form = form_fields(soup(decode(response)), login.form_selector)
        if form is None:
            raise ForumError(
                "login_failed",
                f"no login form ({login.form_selector}) at {login_url}: check the profile",
            )
        action, values = form
        values.update(login.extra_fields)
        values[login.user_field] = creds.user
        values[login.password_field] = creds.password
        target = urljoin(response.url, action) if action else login_url
        # Not following the redirect: a successful login sends us to the dashboard, a heavy
        # page we do not need; the cookie and the Location already tell us the outcome.
        response = self.http.request(
            "POST", target, data=values, allow_redirects=False, retry_server_errors=False
        )
        if 300 <= response.status_code < 400:
            location = urljoin(target, response.headers.get("Location", ""))
            if urlsplit(location).path == urlsplit(login_url).path:
                raise ForumError(
                    "login_failed", f"the site sent {creds.user} back to the login page"
                )
        else:
            html = decode(response)
            doc = soup(html)
            said = _scrub(page_message(doc, login.error_selector), creds.password)
            if login.error_page_pattern:
                failed = re.search(login.error_page_pattern, html) is not None
            else:
                failed = bool(login.error_selector and doc.select_one(login.error_selector))
            if failed:
                raise ForumError(
                    "login_failed", f"the site refused the login for {creds.user}: {said}"
                )
            if response.status_code >= 400:
                raise ForumError(
                    "login_failed", f"login answered {response.status_code} for {creds.user}: {said}"
                )
            if doc.select_one(login.form_selector) is not None:
                raise ForumError(
                    "login_failed", f"still on the login page after logging in as {creds.user}: {said}"
                )
        if login.success_cookie and not any(
            c.name.startswith(login.success_cookie) for c in self.http.session.cookies
        ):
            raise ForumError(
                "login_failed",
                f"no {login.success_cookie}* session cookie after logging in as {creds.user}",
            )
        self._logged_in = True

    def _refused(self, html: str, status: int, where: str) -> None:
        """Raise if the site's answer to a comment post is an error, a hold or a refusal."""
        post = self.profile.post
        doc = soup(html)
        said = page_message(doc, post.error_selector)
        if post.error_page_pattern and re.search(post.error_page_pattern, html):
            raise ForumError("comment_refused", f"the site refused the comment ({status}): {said}")
        text = doc.get_text(" ", strip=True)
        for pattern in post.refused_patterns:
            if re.search(pattern, text, re.IGNORECASE):
                raise ForumError("comment_refused", f"the site refused the comment ({status}): {said}")
        if status >= 400:
            raise ForumError("comment_refused", f"the site answered {status} at {where}: {said}")
        if doc.select_one(self.profile.login.form_selector) is not None:
            self._logged_in = False
            raise ForumError("login_failed", f"the site sent the login page instead of posting: {said}")

    def post_comment(
        self, thread: str, body: str, reply_to: str | None = None, *, tag: str | None = None
    ) -> str:
        """Post as the Dealer's member account; return the new comment's id. ``tag`` picks
        our comment out of the re-read page when the site does not say the new id (EE)."""
        if not body.strip():
            raise ForumError("comment_refused", "an empty comment is not posted")
        url = self._url(thread)
        self._login()
        post = self.profile.post
        response = self.http.request("GET", url)
        if response.status_code >= 400:
            raise ForumError("http", f"GET {url} answered {response.status_code}", retry=True)
        page_html = decode(response)
        before = {c.id for c in parse_page(page_html, url, self.profile.read).comments}
        before |= {c.id for c in self._seen.get(url, ())}  # the other comment pages, this run
        form = page_form(page_html, post.form_selector)
        if form is None:
            raise ForumError(
                "comment_refused",
                f"{url} shows no comment form ({post.form_selector}) to {self.dealer}: comments "
                "closed, the login lapsed, or the profile's post.form_selector is out of date",
            )
        action, fields = form
        values = dict(fields)
        values[post.comment_field] = body
        if reply_to and post.reply_field:
            values[post.reply_field] = reply_to
        target = urljoin(response.url, action) if action else url
        answer = self.http.request(
            "POST", target, data=values, allow_redirects=False, retry_server_errors=False
        )
        new_id: str | None = None
        if 300 <= answer.status_code < 400:
            location = answer.headers.get("Location", "")
            if post.moderation_pattern and re.search(post.moderation_pattern, location):
                hit = re.search(post.id_pattern, location) if post.id_pattern else None
                held = (hit.group(1) if hit.groups() else hit.group(0)) if hit else None
                raise ForumError(
                    "held",
                    f"the site holds the comment{' ' + held if held else ''} for moderation: "
                    f"the account {self.dealer!r} needs a site admin's approval",
                    remote_id=held,
                )
            login_path = urlsplit(urljoin(self.base_url, self.profile.login.url)).path
            if login_path and urlsplit(urljoin(target, location)).path == login_path:
                self._logged_in = False
                raise ForumError("login_failed", "the site sent the comment to the login page")
            hit = re.search(post.id_pattern, location) if post.id_pattern else None
            new_id = (hit.group(1) if hit and hit.groups() else hit.group(0)) if hit else None
        else:
            self._refused(decode(answer), answer.status_code, target)
        return self._record_post(url, body, reply_to, before, new_id, tag)

    def _record_post(
        self, url: str, body: str, reply_to: str | None, before: set[str], new_id: str | None,
        tag: str | None = None,
    ) -> str:
        """Find the new comment (re-reading the thread when the site did not say its id) and
        remember it, so ``find_comment_with`` sees it without another fetch.

        The re-read follows the comment pages: once a thread paginates, a new comment lands on
        the last page, not on the story post's page that holds the form."""
        if new_id is None:
            fresh = self.list_comments(url)
            mine = [c for c in fresh if c.id not in before and self._is_dealer(c)]
            if tag:  # another run may have posted beside us: prefer the comment with our tag
                mine = [c for c in mine if carries_tag(c.body, tag)] or mine
            if not mine:
                raise ForumError(
                    "held",
                    "the site answered but the comment does not appear on the public page: "
                    "held for moderation",
                )
            return max(mine, key=_id_key).id
        comment = RemoteComment(
            id=new_id,
            author=self.dealer,
            created=datetime.now(timezone.utc),
            body=body,
            body_format="html",
            parent_id=reply_to,
            permalink=self.profile.read.permalink.format(page=url, id=new_id),
        )
        self._seen.setdefault(url, []).append(comment)
        return new_id

    # -- the rest of the protocol ---------------------------------------------------------------

    @property
    def abilities(self) -> Abilities:
        return blog_abilities(self.profile)

    def find_thread_with(self, tag: str) -> str | None:
        """Story posts are written by hand on a blog: there is nothing of ours to find."""
        return None

    def sent_private(self, user: str) -> list[PrivateMessage]:
        return []

    def received_private(self) -> list[PrivateMessage]:
        """A blog has no private messages: advance actions go in the thread."""
        return []

    def mark_read(self, ids: Sequence[str]) -> int:
        """Nothing to mark: the listing is the whole thread each time (``abilities.mark_read``)."""
        return 0

    def enrol(self, table: str, players: Sequence[str]) -> list[str]:
        """Players are known by their account names here (``abilities.player_ids``)."""
        return []

    def create_thread(self, title: str, body: str) -> str:
        raise ForumError(
            "not_supported",
            "BlogNomic story posts are written by hand: post it, then register its URL "
            "with `nomicpoker hand start --thread URL`",
        )

    def send_private(self, user: str, subject: str, body: str) -> str:
        raise ForumError(
            "not_supported", "BlogNomic has no private messages; send decks another way"
        )

    def check(self) -> list[tuple[str, bool, str]]:
        rows: list[tuple[str, bool, str]] = [
            ("site profile", True, f"{self.profile.name} ({self.profile.source})"),
            ("user agent", True, str(self.http.session.headers.get("User-Agent", ""))),
        ]
        try:
            response = self.http.request("GET", self.base_url)
            ok = response.status_code < 400
            rows.append(("connection", ok, f"GET {self.base_url} answered {response.status_code}"))
        except ForumError as exc:
            rows.append(("connection", False, str(exc)))
            return rows
        try:
            creds = self.credentials()
        except ForumError as exc:
            rows.append(("credentials", False, str(exc)))
            return rows
        rows.append(("credentials", True, f"user {creds.user} from {creds.source}"))
        try:
            self._login()
            rows.append(("login", True, f"logged in as {creds.user} (nothing posted)"))
        except ForumError as exc:
            rows.append(("login", False, str(exc)))
            return rows
        try:
            shown = self.shown_name()
        except ForumError as exc:
            rows.append(("shown name", False, str(exc)))
            return rows
        if self._dealer:
            same = shown is None or shown.casefold() == self._dealer.casefold()
            rows.append(("shown name", same,
                         f"the dealer key says {self._dealer!r}; the site shows {creds.user} as "
                         f"{shown or '(not read: the profile names no page for it)'!r}"
                         + ("" if same else ": comments are recognised by the name shown, so "
                            "set the dealer key to it")))
        else:
            rows.append(("shown name", True, f"the site shows {creds.user} as {shown or creds.user!r} "
                         "on comments; the Dealer's own comments are recognised by that name"))
        return rows
