"""A polite HTTP client for small community sites (BlogNomic runs on one modest server).

Why a wrapper around ``requests.Session``: every request the Dealer's cron job makes should
be identifiable (a descriptive User-Agent with a contact), spaced out (a delay between
requests), cheap when nothing changed (conditional GETs with ETag / If-Modified-Since, the
cached page served on 304), and should back off when the server says so (429 and 5xx,
honouring Retry-After) a bounded number of times before giving up with
``ForumError(retry=True)`` so the next cron run simply tries again.

POSTs are never retried on 5xx: a comment that the server stored before failing would be
posted twice. The poll cycle's reference-tag search covers that case on the next run.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import os
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Mapping

import requests

from nomicpoker.ports import ForumError

DEFAULT_USER_AGENT = "nomicpoker/0.1 (nomic poker dealer bot; no contact configured)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 300.0
#: Politeness defaults (a forum's config may change each): seconds between requests, seconds
#: before a request is given up, retries of a retryable status, and the first backoff (doubled
#: on each retry).
DEFAULT_DELAY = 2.0
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_BACKOFF = 5.0


@dataclass(frozen=True)
class Page:
    """A fetched page: its final URL, status and text; ``cached`` when served from a 304."""

    url: str
    status: int
    text: str
    cached: bool = False


def user_agent(contact: str | None) -> str:
    """The User-Agent: who we are, and whom the site's admin can write to."""
    if contact:
        return f"nomicpoker/0.1 (nomic poker dealer bot; contact: {contact})"
    return DEFAULT_USER_AGENT


def _retry_after(value: str | None, default: float) -> float:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), bounded."""
    if not value:
        return default
    value = value.strip()
    if value.isascii() and value.isdigit():  # '²'.isdigit() is true; float() refuses it
        return min(float(value), MAX_RETRY_AFTER)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, min((when - datetime.now(timezone.utc)).total_seconds(), MAX_RETRY_AFTER))


def decode(response: requests.Response) -> str:
    """The response text. Without a charset in Content-Type, requests assumes ISO-8859-1 for
    text/html, which garbles non-ASCII player names; WordPress and ExpressionEngine serve
    UTF-8, so that is the fallback."""
    if "charset" in response.headers.get("Content-Type", "").lower():
        return response.text
    return response.content.decode("utf-8", errors="replace")


class PageCache:
    """Validators and text of fetched pages, on disk when a directory is given (so the next
    cron run can send a conditional request), else in memory only. Files are owner-only:
    a logged-in page can show the member's name and nonces."""

    def __init__(self, directory: Path | None = None):
        self.directory = directory
        self._memory: dict[str, dict[str, str]] = {}

    def _file(self, url: str) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / (hashlib.sha256(url.encode()).hexdigest()[:32] + ".json")

    def get(self, url: str) -> dict[str, str] | None:
        if url in self._memory:
            return self._memory[url]
        path = self._file(url)
        if path is None or not path.exists():
            return None
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict):
            return None
        self._memory[url] = entry
        return entry

    def put(self, url: str, entry: dict[str, str]) -> None:
        self._memory[url] = entry
        path = self._file(url)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written only costs a full fetch next time


class PoliteSession:
    """``requests.Session`` with a User-Agent, spacing, conditional GETs and bounded backoff.

    ``sleep`` and ``clock`` are injectable so tests run with no real waiting.
    """

    def __init__(
        self,
        *,
        agent: str = DEFAULT_USER_AGENT,
        delay: float = DEFAULT_DELAY,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        cache: PageCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.session = requests.Session()
        self.session.headers["User-Agent"] = agent
        #: a second session that never carries the login cookie: pages are read as the public
        #: sees them (a logged-in WordPress author also sees their own held comments, unmarked)
        self.public = requests.Session()
        self.public.headers["User-Agent"] = agent
        self.delay = delay
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.cache = cache or PageCache()
        self._sleep = sleep
        self._clock = clock
        self._last: float | None = None
        self.requests_made = 0

    def _space(self) -> None:
        if self._last is not None and self.delay > 0:
            wait = self.delay - (self._clock() - self._last)
            if wait > 0:
                self._sleep(wait)

    def request(
        self,
        method: str,
        url: str,
        *,
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        allow_redirects: bool = True,
        retry_server_errors: bool = True,
        public: bool = False,
    ) -> requests.Response:
        """One request with spacing and backoff. Connection failures and timeouts become
        ``ForumError('network', retry=True)``; a 429/5xx that outlasts the retries becomes
        ``ForumError('rate_limited'|'http', retry=True)``."""
        attempt = 0
        while True:
            self._space()
            client = self.public if public else self.session
            client.headers["User-Agent"] = self.session.headers.get("User-Agent", "")
            try:
                response = client.request(
                    method,
                    url,
                    data=data,
                    headers=dict(headers or {}),
                    timeout=self.timeout,
                    allow_redirects=allow_redirects,
                )
            except requests.Timeout as exc:
                raise ForumError("network", f"{method} {url} timed out", retry=True) from exc
            except requests.RequestException as exc:
                reason = type(exc).__name__
                raise ForumError("network", f"{method} {url} failed: {reason}", retry=True) from exc
            finally:
                self._last = self._clock()
                self.requests_made += 1
            status = response.status_code
            retryable = status == 429 or (status in RETRY_STATUSES and retry_server_errors)
            if not retryable:
                return response
            if attempt >= self.max_retries:
                code = "rate_limited" if status == 429 else "http"
                raise ForumError(
                    code,
                    f"{method} {url} answered {status} after {attempt + 1} tries; try again later",
                    retry=True,
                )
            self._sleep(_retry_after(response.headers.get("Retry-After"), self.backoff * 2**attempt))
            attempt += 1

    def get_page(self, url: str, public: bool = False) -> Page:
        """A conditional GET: send the cached validators; on 304 serve the cached text.
        ``public``: without the login cookie (as a logged-out reader sees the page)."""
        cached = self.cache.get(url)
        headers: dict[str, str] = {}
        if cached:
            if cached.get("etag"):
                headers["If-None-Match"] = cached["etag"]
            if cached.get("last_modified"):
                headers["If-Modified-Since"] = cached["last_modified"]
        response = self.request("GET", url, headers=headers, public=public)
        if response.status_code == 304 and cached is not None:
            return Page(url=cached.get("url", url), status=304, text=cached["text"], cached=True)
        if response.status_code == 404:
            raise ForumError("not_found", f"{url} answered 404 Not Found")
        if response.status_code >= 400 or response.status_code == 304:
            raise ForumError("http", f"GET {url} answered {response.status_code}", retry=True)
        text = decode(response)
        etag = response.headers.get("ETag", "")
        modified = response.headers.get("Last-Modified", "")
        if etag or modified:
            self.cache.put(
                url, {"url": response.url, "etag": etag, "last_modified": modified, "text": text}
            )
        return Page(url=response.url, status=response.status_code, text=text)
