"""Choose and configure a table's forum: ``open_forum(kind, config, state)``.

A table stores its forum ``kind`` and a small ``config`` mapping (plain, non-secret values).
Credentials are never in that mapping: they come from the environment or an owner-only file
the config points to, so a ledger dump or an audit never leaks a password.

Config keys per kind (all optional unless marked):

``local``
    ``path`` (the SQLite file; default ``<state>/forum.db``), ``dealer`` (default ``Dealer``).

``blognomic``
    ``base_url`` (required: the site root, e.g. ``https://www.blognomic.com/``),
    ``profile`` (``wordpress`` | ``expressionengine`` | a path to a profile TOML; default
    ``wordpress``), ``dealer`` (the member name the Dealer posts as; default from the
    credentials' user), ``credentials_file`` (an owner-only TOML with ``user``/``password``;
    default: the ``NOMICPOKER_BLOGNOMIC_USER`` / ``NOMICPOKER_BLOGNOMIC_PASSWORD`` environment
    variables), ``contact`` (put in the User-Agent), ``delay`` (seconds between requests,
    default 2), ``timeout`` (seconds, default 30), ``max_retries`` (default 3),
    ``backoff`` (first wait in seconds after a 429/5xx without Retry-After, default 5),
    ``cache_dir`` (default ``<state>/blognomic-cache``).

``reddit``
    ``site`` (a praw.ini site name; otherwise praw reads ``praw_*`` environment variables),
    ``user_agent``, ``dealer`` (default: the authenticated account), ``comment_sort``
    (default ``old``), ``subreddit`` (where ``hand start`` submits the story post and, after
    a crash, finds it again), ``timeout`` (seconds per request), ``oauth_url``/``reddit_url``
    (only to point praw at another server, as the tests do).

``irc``
    ``server`` and ``channel`` (required), ``port``, ``tls``, ``tls_verify``, ``listing``,
    ``nick``, ``nickserv``, ``credentials_file``, ``log``, ``line_interval``, ``burst``: see
    :mod:`nomicpoker.adapters.irc.forum` and docs/irc.md. A live chat: ``nomicpoker serve`` runs
    its bridge (:func:`open_bridges`).

``email``
    play by e-mail as WRGPT does (docs/email.md): ``address``, ``table``, ``roster``,
    ``imap_host``, ``smtp_host`` (required), ``dealer``, ``imap_port``, ``imap_tls``,
    ``imap_user``, ``mailbox``, ``smtp_port``, ``smtp_tls``, ``smtp_user``, ``smtp_auth``,
    ``ca_file``, ``timeout``, ``credentials_file`` (see :mod:`nomicpoker.adapters.email.config`).

See docs/forums.md (and docs/irc.md, docs/email.md) for setting each one up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from nomicpoker.ports import Abilities, Bridge, Forum, ForumError

KINDS = ("local", "blognomic", "reddit", "irc", "email")


def _str(config: Mapping[str, object], key: str, kind: str, default: str | None = None) -> str | None:
    value = config.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ForumError("config", f"{kind} forum config key {key!r} must be a non-empty string")
    return value.strip()


def _number(config: Mapping[str, object], key: str, kind: str, default: float) -> float:
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ForumError("config", f"{kind} forum config key {key!r} must be a number >= 0")
    return float(value)


def _known(config: Mapping[str, object], kind: str, allowed: set[str]) -> None:
    unknown = sorted(set(config) - allowed)
    if unknown:
        raise ForumError(
            "config",
            f"unknown {kind} forum config key {unknown[0]!r} (known: {', '.join(sorted(allowed))})",
        )


def open_forum(kind: str, config: Mapping[str, object], state: Path) -> Forum:
    """Build the adapter for ``kind`` from the table's ``config``; ``ForumError('config')``
    names the missing or bad key."""
    config = dict(config or {})
    if kind == "local":
        _known(config, kind, {"path", "dealer"})
        from nomicpoker.adapters.local import LocalForum, state_forum_path

        path = _str(config, "path", kind)
        return LocalForum(
            Path(path).expanduser() if path else state_forum_path(state),
            dealer=_str(config, "dealer", kind, "Dealer") or "Dealer",
        )
    if kind == "blognomic":
        from nomicpoker.adapters.blog.forum import BlogNomicForum, blognomic_config_keys

        _known(config, kind, blognomic_config_keys())
        return BlogNomicForum.from_config(config, state)
    if kind == "reddit":
        from nomicpoker.adapters.reddit import RedditForum, reddit_config_keys

        _known(config, kind, reddit_config_keys())
        return RedditForum.from_config(config)
    if kind == "irc":
        from nomicpoker.adapters.irc.forum import IrcForum

        return IrcForum.from_config(config, state)
    # -- email (issue 15) --
    if kind == "email":
        from nomicpoker.adapters.email.forum import EmailForum

        return EmailForum.from_config(config)
    raise ForumError("config", f"unknown forum kind {kind!r} (known: {', '.join(KINDS)})")


def declared_abilities(kind: str, config: Mapping[str, object]) -> Abilities:
    """What a forum of ``kind`` with ``config`` can do, without opening it (no network, no
    credentials): the fold needs to know who rolls the dice when ``audit`` replays a table on
    a machine that cannot reach the forum. ``ForumError('config')`` for an unknown kind."""
    if kind == "local":
        from nomicpoker.adapters.local import LocalForum

        return LocalForum.abilities
    if kind == "blognomic":
        from nomicpoker.adapters.blog.forum import blog_abilities
        from nomicpoker.adapters.blog.siteprofile import load_profile

        profile = config.get("profile", "wordpress")
        return blog_abilities(load_profile(profile if isinstance(profile, str) else "wordpress"))
    if kind == "reddit":
        from nomicpoker.adapters.reddit import RedditForum

        return RedditForum.abilities
    if kind == "irc":
        from nomicpoker.adapters.irc.forum import IRC_ABILITIES

        return IRC_ABILITIES
    # -- email (issue 15) --
    if kind == "email":
        from nomicpoker.adapters.email.forum import EmailForum

        return EmailForum.abilities
    raise ForumError("config", f"unknown forum kind {kind!r} (known: {', '.join(KINDS)})")


# -- live chats: the bridges ``nomicpoker serve`` runs (IRC) -----------------------------------


def open_bridges(tables: Sequence[tuple[str, str, Mapping[str, object]]], state: Path) -> list[Bridge]:
    """The live connections for ``tables`` (``(name, kind, config)``): one per network and
    nick, serving every table there; tables on forums that are not live get none. Credentials
    are read here, from the environment or the owner-only file (``ForumError('config')``)."""
    groups: dict[tuple[object, ...], list[tuple[str, object]]] = {}
    creds: dict[tuple[object, ...], object] = {}
    for name, kind, config in tables:
        if kind != "irc":
            continue
        from nomicpoker.adapters.irc.forum import load_credentials, settings_from

        settings = settings_from(config, state)
        key = (settings.network, settings.nick.lower(), str(settings.log))
        groups.setdefault(key, []).append((name, settings))
        found = load_credentials(settings.credentials_file)
        if key in creds and creds[key] != found:
            raise ForumError("config", f"tables on {settings.network} as {settings.nick} name "
                             "different credentials: they share one connection")
        creds[key] = found
    from nomicpoker.adapters.irc.bridge import IrcBridge

    return [IrcBridge(members, creds[key]) for key, members in groups.items()]  # type: ignore[arg-type]
