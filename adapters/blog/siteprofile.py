"""Site profiles for blog forums, and reading comments out of a page with one.

A profile is configuration (``profiles/*.toml``): the CSS selectors and attributes where a
theme puts each comment's id, author, time and body, and the login and comment forms' field
names. Why configuration and not code: themes change, and a changed theme should be a TOML
edit the Dealer can make and check with ``nomicpoker forum check``, not a release.

Parsing is pure (HTML text in, values out) so it is tested on the markup alone.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import MISSING, dataclass, field, fields
from datetime import datetime, timezone
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import urljoin, urldefrag

from bs4 import BeautifulSoup, Tag

from nomicpoker.ports import ForumError, RemoteComment

BUILTIN_PROFILES = ("wordpress", "expressionengine")
#: What a site said is quoted up to this many characters in an error (a whole page would not
#: fit the one line the Dealer reads).
_MESSAGE_CHARS = 300


@dataclass(frozen=True)
class ReadProfile:
    """Where a theme puts each comment's parts. Empty strings mean "not on this theme"."""

    comment_selector: str
    id_attr: str
    id_pattern: str
    body_selector: str
    author_attr: str = ""
    author_selector: str = ""
    time_selector: str = ""
    time_attr: str = ""
    time_format: str = ""
    edited_selector: str = ""
    edited_attr: str = ""
    pagination_selector: str = ""
    permalink: str = "{page}#comment-{id}"
    dice_selector: str = ""
    dice_pattern: str = ""
    #: "true" when every comment page shows every comment (BlogNomic's Timber theme passes
    #: all comments to each page): the adapter reads the first page only.
    all_comments_on_every_page: str = ""


@dataclass(frozen=True)
class LoginProfile:
    """The member login form: where it is and what it is called."""

    url: str
    form_selector: str
    user_field: str
    password_field: str
    error_selector: str = ""
    error_page_pattern: str = ""
    success_cookie: str = ""
    extra_fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PostProfile:
    """The comment form and how the site answers a post."""

    form_selector: str
    comment_field: str
    reply_field: str = ""
    id_pattern: str = ""
    moderation_pattern: str = ""
    error_selector: str = ""
    error_page_pattern: str = ""
    refused_patterns: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForumProfile:
    """What the site does with a comment, for the forum's declared abilities: the markup it
    accepts (``wordpress-html``: HTML limited to WordPress's allowed comment tags, shown
    through wptexturize and wpautop; ``text``: shown as typed), the seconds it wants between
    two comments of one account, whether a comment may be held for moderation, the longest
    comment it accepts, and where the Dealer's shown (display) name can be read once logged
    in (a page and a CSS selector; ``shown_name_pattern`` takes group 1 of the element's text)."""

    markup: str = "wordpress-html"
    min_post_interval: float = 15.0
    moderation: bool = True
    max_comment_length: int = 65525
    shown_name_url: str = ""
    shown_name_selector: str = ""
    shown_name_pattern: str = ""


_MARKUPS = ("wordpress-html", "text", "markdown")


def _reject_unknown_keys(raw: Mapping[str, Any], key: str, cls: type, source: str) -> None:
    """A key that section of a profile does not have is a typo the Dealer must hear of (one
    line, the first such key), never a setting silently ignored."""
    unknown = sorted(set(raw) - {f.name for f in fields(cls)})
    if unknown:
        raise ForumError("config", f"profile {source}: unknown key {key}.{unknown[0]}")


def _check_regex(source: str, key: str, name: str, value: str) -> None:
    """A pattern setting that is not a regular expression fails when the profile loads, not
    at the first comment it is used on."""
    try:
        re.compile(value)
    except re.error as exc:
        raise ForumError("config", f"profile {source}: {key}.{name} is not a regex: {exc}") from exc


def _forum_section(data: Mapping[str, Any], source: str) -> ForumProfile:
    raw = data.get("forum", {})
    if not isinstance(raw, dict):
        raise ForumError("config", f"profile {source}: [forum] must be a table")
    _reject_unknown_keys(raw, "forum", ForumProfile, source)
    values: dict[str, Any] = {}
    for f in fields(ForumProfile):
        if f.name not in raw:
            continue
        value, default = raw[f.name], f.default
        ok = (isinstance(value, bool) if isinstance(default, bool)
              else isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
              if isinstance(default, (int, float)) else isinstance(value, str))
        if not ok:
            raise ForumError("config", f"profile {source}: forum.{f.name} must be like {default!r}")
        values[f.name] = value
    if values.get("markup", "wordpress-html") not in _MARKUPS:
        raise ForumError("config", f"profile {source}: forum.markup must be one of {', '.join(_MARKUPS)}")
    if values.get("shown_name_pattern"):
        _check_regex(source, "forum", "shown_name_pattern", values["shown_name_pattern"])
    return ForumProfile(**values)


@dataclass(frozen=True)
class SiteProfile:
    name: str
    description: str
    read: ReadProfile
    login: LoginProfile
    post: PostProfile
    source: str = ""
    forum: ForumProfile = ForumProfile()


def _section(data: Mapping[str, Any], key: str, cls: type, source: str) -> Any:
    raw = data.get(key)
    if not isinstance(raw, dict):
        raise ForumError("config", f"profile {source}: missing [{key}] section")
    _reject_unknown_keys(raw, key, cls, source)
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in raw:
            if f.default is MISSING and f.default_factory is MISSING:  # type: ignore[misc]
                raise ForumError("config", f"profile {source}: missing key {key}.{f.name}")
            continue
        value = raw[f.name]
        if f.name == "refused_patterns":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ForumError("config", f"profile {source}: {key}.{f.name} must be strings")
            value = tuple(value)
        elif f.name == "extra_fields":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise ForumError("config", f"profile {source}: {key}.{f.name} must map to strings")
        elif not isinstance(value, str):
            raise ForumError("config", f"profile {source}: {key}.{f.name} must be a string")
        values[f.name] = value
    for name, value in values.items():
        if name.endswith("pattern") and isinstance(value, str) and value:
            _check_regex(source, key, name, value)
    return cls(**values)


def load_profile(name_or_path: str) -> SiteProfile:
    """A built-in profile by name, or a profile TOML file by path."""
    if name_or_path in BUILTIN_PROFILES:
        text = (resources.files("nomicpoker.adapters.blog") / "profiles" / f"{name_or_path}.toml").read_text(
            encoding="utf-8"
        )
        source = name_or_path
    else:
        path = Path(name_or_path).expanduser()
        if not path.is_file():
            raise ForumError(
                "config",
                f"profile {name_or_path!r} is neither a built-in profile "
                f"({', '.join(BUILTIN_PROFILES)}) nor a file",
            )
        text = path.read_text(encoding="utf-8")
        source = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ForumError("config", f"profile {source} is not valid TOML: {exc}") from exc
    return SiteProfile(
        name=str(data.get("name", source)),
        description=str(data.get("description", "")),
        read=_section(data, "read", ReadProfile, source),
        login=_section(data, "login", LoginProfile, source),
        post=_section(data, "post", PostProfile, source),
        source=source,
        forum=_forum_section(data, source),
    )


# -- reading a page ---------------------------------------------------------------------------


#: how many parsed pages :func:`parse_page` keeps (a thread's pages in one process)
PARSED_PAGES_KEPT = 32


@dataclass(frozen=True)
class ParsedPage:
    """One page's comments (document order) and the other comment pages it links to."""

    comments: tuple[RemoteComment, ...]
    page_links: tuple[str, ...]


def soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def _enclosing(tag: Tag, comment_nodes: set[int]) -> Tag | None:
    """The nearest comment element above ``tag`` (nested replies sit inside their parent)."""
    node = tag.parent
    while node is not None and id(node) not in comment_nodes:
        node = node.parent
    return node


def _owned(el: Tag, candidates: list[Tag], comment_nodes: set[int]) -> Tag | None:
    """The first candidate whose nearest enclosing comment is ``el`` (not a nested reply)."""
    return next((c for c in candidates if _enclosing(c, comment_nodes) is el), None)


def _attr(tag: Tag, name: str) -> str | None:
    """An attribute as text: BeautifulSoup gives multi-valued ones (``class``) as a list."""
    got = tag.get(name)
    return " ".join(got) if isinstance(got, list) else got


def _parse_time(raw: str | None, fmt: str, what: str) -> datetime:
    value = (raw or "").strip()
    if not value:
        raise ForumError("parse", f"{what}: no time found")
    try:
        if fmt:
            moment = datetime.strptime(value, fmt)
        elif re.fullmatch(r"\d{9,11}", value):
            return datetime.fromtimestamp(int(value), tz=timezone.utc)
        else:
            moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise ForumError("parse", f"{what}: cannot read time {value!r}") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _value(el: Tag, selector: str, attr: str, owned: list[Tag] | None = None) -> str | None:
    target: Tag | None = el
    if selector:
        target = owned[0] if owned else None
    if target is None:
        return None
    if attr:
        return _attr(target, attr)
    return target.get_text(" ", strip=True)


@lru_cache(maxsize=PARSED_PAGES_KEPT)
def parse_page(html: str, page_url: str, read: ReadProfile) -> ParsedPage:
    """Every comment on one page, with its parent when it is a nested reply.

    Kept for the last :data:`PARSED_PAGES_KEPT` pages read: a pure function of its arguments
    (the result is frozen), and a poll reads the same page again before each comment it posts
    (to find the comment it posted), which parsed the whole page with BeautifulSoup again. A
    page that fails to parse raises each time."""
    doc = soup(html)
    nodes = [n for n in doc.select(read.comment_selector) if isinstance(n, Tag)]
    node_ids = {id(n) for n in nodes}
    id_re = re.compile(read.id_pattern)
    dice_re = re.compile(read.dice_pattern) if read.dice_pattern else None
    base = urldefrag(page_url)[0]
    comment_id_of: dict[int, str] = {}
    out: list[RemoteComment] = []
    for el in nodes:
        raw_id = _attr(el, read.id_attr) or ""
        m = id_re.search(raw_id)
        if not m:
            raise ForumError(
                "parse", f"{page_url}: a comment's {read.id_attr}={raw_id!r} does not match the profile"
            )
        cid = m.group(1) if m.groups() else m.group(0)
        comment_id_of[id(el)] = cid
        what = f"{page_url} comment {cid}"

        def own(selector: str) -> list[Tag]:
            if not selector:
                return []
            found = _owned(el, [t for t in el.select(selector) if isinstance(t, Tag)], node_ids)
            return [found] if found is not None else []

        author = _value(el, read.author_selector, read.author_attr, own(read.author_selector))
        if not author:
            raise ForumError("parse", f"{what}: no author found")
        created = _parse_time(
            _value(el, read.time_selector, read.time_attr, own(read.time_selector)),
            read.time_format,
            what,
        )
        body_nodes = own(read.body_selector)
        if not body_nodes:
            raise ForumError("parse", f"{what}: no body ({read.body_selector}) found")
        body = body_nodes[0].decode_contents().strip()
        edited = None
        if read.edited_selector:
            marks = own(read.edited_selector)
            if marks:
                stamp = marks[0].get(read.edited_attr) if read.edited_attr else None
                try:
                    edited = _parse_time(stamp if isinstance(stamp, str) else None, "", what)
                except ForumError:
                    edited = created  # marked edited, time not shown
        dice: tuple[int, ...] = ()
        if dice_re is not None:
            scope = [body_nodes[0]] if not read.dice_selector else [
                t for t in el.select(read.dice_selector) if _owned(el, [t], node_ids) is t
            ]
            rolls = []
            for node in scope:
                for hit in dice_re.finditer(node.get_text(" ", strip=True)):
                    rolls.append(int(hit.group(1) if hit.groups() else hit.group(0)))
            dice = tuple(rolls)
        parent_node = _enclosing(el, node_ids)
        out.append(
            RemoteComment(
                id=cid,
                author=author.strip(),
                created=created,
                body=body,
                body_format="html",
                edited=edited,
                parent_id=comment_id_of.get(id(parent_node)) if parent_node is not None else None,
                permalink=read.permalink.format(page=base, id=cid),
                dice=dice,
            )
        )
    links: list[str] = []
    if read.pagination_selector:
        for a in doc.select(read.pagination_selector):
            href = a.get("href") if isinstance(a, Tag) else None
            if isinstance(href, str) and href.strip():
                url = urldefrag(urljoin(page_url, href.strip()))[0]
                if url not in links:
                    links.append(url)
    return ParsedPage(comments=tuple(out), page_links=tuple(links))


@lru_cache(maxsize=PARSED_PAGES_KEPT)
def page_form(html: str, selector: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """:func:`form_fields` of the page ``html``: the form's action and its fields as pairs (a
    caller makes its own dict of them), or None. Kept like :func:`parse_page`: posting parses
    the page to fill the comment form, and a replay posts from the same page again."""
    found = form_fields(soup(html), selector)
    return None if found is None else (found[0], tuple(found[1].items()))


def form_fields(doc: BeautifulSoup, selector: str) -> tuple[str, dict[str, str]] | None:
    """The form's action and every field a browser would submit: all hidden inputs, filled
    text inputs, checked boxes, textareas and the first submit button."""
    form = doc.select_one(selector)
    if form is None:
        return None
    values: dict[str, str] = {}
    submitted = False
    for inp in form.find_all(["input", "textarea", "select"]):
        name = inp.get("name")
        if not isinstance(name, str) or not name:
            continue
        if inp.name == "textarea":
            values[name] = inp.get_text()
            continue
        if inp.name == "select":
            opt = inp.find("option", selected=True) or inp.find("option")
            values[name] = str(opt.get("value", opt.get_text())) if opt else ""
            continue
        kind = str(inp.get("type", "text")).lower()
        value = str(_attr(inp, "value") or "")
        if kind in ("checkbox", "radio"):
            if inp.has_attr("checked"):
                values[name] = value or "on"
        elif kind in ("submit", "button", "image"):
            if not submitted:
                values[name] = value
                submitted = True
        elif kind != "file":
            values[name] = value
    action = form.get("action")
    return (action if isinstance(action, str) else ""), values


def page_message(doc: BeautifulSoup, selector: str) -> str:
    """What the site said, from the profile's error selector, else the page's title."""
    if selector:
        texts = [n.get_text(" ", strip=True) for n in doc.select(selector)]
        texts = [t for t in texts if t]
        if texts:
            return " / ".join(texts)[:_MESSAGE_CHARS]
    title = doc.title.get_text(strip=True) if doc.title else ""
    text = doc.get_text(" ", strip=True)
    return (title or text)[:_MESSAGE_CHARS] or "(empty page)"
