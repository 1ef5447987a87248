"""``nomicpoker forum ...``: play by hand on the local forum, and check a real forum's setup.

The local forum is where people play without a blog: ``forum post --as alice 1 "HAND1 ROUND1
raise 10"`` comments as alice, ``forum show 1`` prints the thread as a reader sees it.
``forum check`` tries a forum's connection and login without posting, one line per check, so
the Dealer can fix the setup before cron runs ``nomicpoker poll``.

Every failure is one line on stderr naming what went wrong (a ForumError code and message);
the user never sees a traceback, and credentials are never printed.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar

import typer

from nomicpoker.cli import options

from nomicpoker.shell.storage.paths import state_dir
from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, fail

T = TypeVar("T")

forum_app = options.Typer(
    name="forum",
    help="Post and read on the local forum; check a forum's connection and login.",
    no_args_is_help=True,
)

AsOpt = typer.Option(..., "--as", help="The player account acting on the local forum.")


def _run(action: Callable[[], T]) -> T:
    """Run a forum call, turning a ForumError into a one-line error and exit 1."""
    from nomicpoker.ports import ForumError

    try:
        return action()
    except ForumError as exc:
        fail(str(exc))


def _local(state: Optional[str]) -> Any:
    from nomicpoker.shell.cycle.forums import local_forum

    return _run(lambda: local_forum(state_dir(state)))


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


@forum_app.command("post", example='nomicpoker forum post 1 "HAND1 ROUND1 raise 10" --as alice')
def post(
    thread: str = typer.Argument(..., help="Thread id or slug."),
    body: str = typer.Argument(..., help="The comment text (Markdown)."),
    author: str = AsOpt,
    reply_to: Optional[str] = typer.Option(None, "--reply-to", help="Reply to this comment id."),
    state: Optional[str] = StateOpt,
) -> None:
    """Comment on a local thread as a player."""
    forum = _local(state)
    cid = _run(lambda: forum.post_as(author, thread, body, reply_to=reply_to))
    typer.echo(f"posted comment {cid} in thread {thread} as {author}")


@forum_app.command("message", example='nomicpoker forum message "CALL/S *" --as alice --subject T')
def message(
    body: str = typer.Argument(..., help="The message, e.g. an advance action: \"CALL/S *\"."),
    author: str = AsOpt,
    to: str = typer.Option("Dealer", "--to", help="The recipient (the Dealer's account)."),
    subject: str = typer.Option("", "--subject", help="Name the table here when you play at several."),
    state: Optional[str] = StateOpt,
) -> None:
    """Send a private message as a player (an advance action the table does not see)."""
    forum = _local(state)
    mid = _run(lambda: forum.send_private_as(author, to, subject or "advance action", body))
    typer.echo(f"sent private message {mid} to {to} as {author}")


@forum_app.command("show", example='nomicpoker forum show 1')
def show(
    thread: str = typer.Argument(..., help="Thread id or slug."),
    state: Optional[str] = StateOpt,
) -> None:
    """Print a local thread as a reader sees it: author, time, body, edited/deleted marks."""
    forum = _local(state)
    head = _run(lambda: forum.thread(thread))
    comments = _run(lambda: forum.list_comments(thread))
    typer.echo(f"== {head.title} ==  (thread {head.ref}, by {head.author}, {_when(head.created)})")
    if head.body.strip():
        typer.echo(head.body.rstrip())
    typer.echo("")
    for c in comments:
        marks = []
        if c.parent_id:
            marks.append(f"reply to #{c.parent_id}")
        if c.edited:
            marks.append(f"edited {_when(c.edited)}")
        if c.deleted:
            marks.append("deleted")
        suffix = f"  [{'; '.join(marks)}]" if marks else ""
        typer.echo(f"#{c.id} {c.author} · {_when(c.created)}{suffix}")
        for line in (c.body.rstrip() or "").splitlines() or [""]:
            typer.echo(f"    {line}")
        typer.echo("")
    typer.echo(f"{len(comments)} comment(s)")


@forum_app.command("threads", example='nomicpoker forum threads')
def threads(state: Optional[str] = StateOpt) -> None:
    """List the local forum's threads."""
    forum = _local(state)
    rows = _run(forum.threads)
    if not rows:
        typer.echo("no threads yet (the Dealer creates one with `nomicpoker hand start`)")
    for t in rows:
        count = len(_run(lambda: forum.list_comments(t.ref)))
        typer.echo(f"{t.ref}\t{t.title}\t{t.author}\t{_when(t.created)}\t{count} comment(s)")


@forum_app.command("new-thread", example='nomicpoker forum new-thread "Sign-up: table T" "Comment to join."')
def new_thread(
    title: str = typer.Argument(..., help="The story post's title."),
    body: str = typer.Argument("", help="The story post's text."),
    author: str = typer.Option("Dealer", "--as", help="Who posts it."),
    slug: Optional[str] = typer.Option(None, "--slug", help="A short reference, e.g. hand-1."),
    state: Optional[str] = StateOpt,
) -> None:
    """Create a story post on the local forum."""
    forum = _local(state)
    ref = _run(lambda: forum.create_thread_as(author, title, body, slug=slug))
    typer.echo(f"created thread {ref}")


@forum_app.command("edit", example='nomicpoker forum edit 7 "HAND1 ROUND1 call" --as alice')
def edit(
    comment_id: str = typer.Argument(..., help="The comment id (see `forum show`)."),
    body: str = typer.Argument(..., help="The new text."),
    author: str = AsOpt,
    state: Optional[str] = StateOpt,
) -> None:
    """Edit your own comment (the dealer notes edits; the first reading binds)."""
    forum = _local(state)
    _run(lambda: forum.edit_comment(comment_id, body, author=author))
    typer.echo(f"edited comment {comment_id}")


@forum_app.command("delete", example='nomicpoker forum delete 7 --as alice')
def delete(
    comment_id: str = typer.Argument(..., help="The comment id (see `forum show`)."),
    author: str = AsOpt,
    state: Optional[str] = StateOpt,
) -> None:
    """Delete your own comment (its action, once adjudicated, still stands)."""
    forum = _local(state)
    _run(lambda: forum.delete_comment(comment_id, author=author))
    typer.echo(f"deleted comment {comment_id}")


@forum_app.command("inbox", example='nomicpoker forum inbox --as alice')
def inbox(author: str = AsOpt, state: Optional[str] = StateOpt) -> None:
    """Read a player's private messages on the local forum (decks arrive here)."""
    forum = _local(state)
    messages = _run(lambda: forum.inbox(author))
    if not messages:
        typer.echo(f"no messages for {author}")
    for m in messages:
        typer.echo(f"{m.id} from {m.sender} · {_when(m.created)} · {m.subject}")
        for line in m.body.rstrip().splitlines():
            typer.echo(f"    {line}")
        typer.echo("")


def _table_forum(table: str, state: Path, db: Optional[str]) -> tuple[str, dict[str, object], dict[str, object]]:
    """The table's forum kind and config, read from the ledger (never written here), and what
    ``forum check`` reports about the table: its players, its dealer name, its latest thread and
    the dealer comments the forum holds for moderation."""
    from sqlalchemy.exc import SQLAlchemyError
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger, paths
    from nomicpoker.shell.cycle.outbox import held_rows
    from nomicpoker.shell.storage.store import StoreError, loads, open_engine

    try:
        engine = open_engine(paths.db_url(state, db), create=False)
        with Session(engine) as session:
            row = ledger.get_table(session, table)
            kind, raw = row.forum_kind, row.forum_config
            hands = ledger.hand_rows(session, table)
            held = held_rows(session, table)
            facts: dict[str, object] = {
                "players": ledger.roster(session, row), "dealer": row.dealer,  # seated now (a tournament's moves)
                "thread": hands[-1].thread if hands else None,
                "held": len(held), "held_since": held[0].sent_at if held else None,
            }
    except StoreError as exc:
        fail(f"{exc.code}: {exc}")
    except SQLAlchemyError as exc:  # a database without the tables yet, etc.
        fail(f"cannot read table {table!r} from the ledger: {type(exc).__name__}")
    try:
        config = loads(raw) or {}
    except ValueError:
        fail(f"table {table!r} has a forum config that is not JSON")
    if not isinstance(config, dict):
        fail(f"table {table!r} has a forum config that is not a mapping")
    return str(kind), dict(config), facts


def _names_rows(forum: Any, thread: str | None, facts: dict[str, object]) -> list[tuple[str, bool, str]]:
    """The Dealer's name as the forum shows it, who has commented lately, seats that match
    nobody, and held dealer comments (the account needs approval)."""
    from nomicpoker.core.table.fold_types import same_account
    from nomicpoker.ports import ForumError
    from nomicpoker.shell.dealer.names import recent_commenters, seat_warnings

    rows: list[tuple[str, bool, str]] = []
    try:
        shown = str(forum.dealer)
    except ForumError as exc:
        return [("dealer name", False, str(exc))]
    table_dealer = facts.get("dealer")
    if isinstance(table_dealer, str) and not same_account(table_dealer, shown):
        rows.append(("dealer name", False, f"the forum shows the Dealer as {shown!r} but the table "
                     f"has {table_dealer!r}: its own comments would be read as a player's; set the "
                     "forum config key dealer to the name shown"))
    else:
        rows.append(("dealer name", True, f"the forum shows the Dealer's comments as {shown!r}"))
    if thread:
        try:
            comments = forum.list_comments(thread)
        except ForumError as exc:
            rows.append(("recent commenters", False, f"{thread}: {exc}"))
            comments = None
        if comments is not None:
            seen = recent_commenters(comments, shown)
            rows.append(("recent commenters", True, f"{thread}: "
                         + (", ".join(repr(n) for n in seen) if seen else "nobody yet")))
            players = facts.get("players")
            if isinstance(players, list):
                for line in seat_warnings(comments, players, thread, shown):
                    rows.append(("seat", True, "warning: " + line))
            if forum.abilities.moderation and not any(same_account(c.author, shown) and not c.deleted
                                                      for c in comments):
                rows.append(("moderation", True, f"no public comment by {shown!r} on this thread yet: "
                             "the forum may hold the account's first comment for an admin's approval"))
    held = facts.get("held")
    if isinstance(held, int) and held:
        rows.append(("moderation", False, f"{held} dealer comment(s) held for moderation since "
                     f"{facts.get('held_since')}: the account {shown!r} needs approval (ask a site "
                     "admin to approve its first comment; poll posts nothing again meanwhile)"))
    return rows


@forum_app.command("check", example=['nomicpoker forum check --table T --state /srv/poker/state', 'nomicpoker forum check --config blognomic.toml'])
def check(
    table: Optional[str] = typer.Option(None, "--table", help="Check this table's forum."),
    kind: Optional[str] = typer.Option(None, "--kind", help="local | blognomic | reddit | irc | email."),
    config: Optional[Path] = typer.Option(
        None, "--config", help="A JSON or TOML file of forum config keys (see docs/forums.md)."
    ),
    thread: Optional[str] = typer.Option(
        None, "--thread", help="A thread to read: who has commented, by the names the forum shows "
        "(default with --table: its latest hand's thread)."),
    state: Optional[str] = StateOpt,
    db: Optional[str] = DbOpt,
) -> None:
    """Try the connection and the login without posting; exit 1 if any check fails."""
    from nomicpoker.ports import ForumError
    from nomicpoker.shell.cycle.forums import open_forum

    where = state_dir(state)
    settings: dict[str, object] = {}
    facts: dict[str, object] = {}
    if table:
        if kind or config:
            fail("give either --table or --kind/--config, not both")
        kind, settings, facts = _table_forum(table, where, db)
        thread = thread or (facts.get("thread") if isinstance(facts.get("thread"), str) else None)
    else:
        if config is not None:
            from nomicpoker.cli.setup.config_files import read_forum_config

            file_kind, settings = read_forum_config(config, "--config")
            kind = kind or file_kind
        kind = kind or "local"
    try:
        forum = open_forum(kind, settings, where)
        rows = forum.check()
        if all(ok for _, ok, _ in rows):
            rows += _names_rows(forum, thread, facts)
    except ForumError as exc:
        rows = [(f"{kind} forum setup", False, str(exc))]
    failed = False
    for what, ok, detail in rows:
        failed = failed or not ok
        typer.echo(f"{'ok  ' if ok else 'FAIL'} {what}: {detail}")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``forum`` group to the main app."""
    app.add_typer(forum_app, name="forum")

