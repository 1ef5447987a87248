"""The ``nomicpoker`` command line (typer). Part of the imperative shell.

Each command group lives in its own module with a ``register(app)`` function, so the groups
can grow independently: ``rules_cmd`` (rules show/check), ``phh_cmd`` (phh replay),
``bot_cmd`` (init, table, hand, poll, ledger, audit, demo), ``forum_cmd`` (forum post/show/
check), ``deal_cmd`` (deck issue, audit verify), ``db_cmd`` (db version/upgrade),
``deploy_cmd`` (cron, systemd), and the others :data:`COMMAND_MODULES` lists. A module is
imported only when the command line names one of its commands (:data:`PROVIDERS`, the root
group :class:`_LazyGroup`): a new command module gets its line in both. The options every
command shares (``--state``, ``--db``, the log options) are read here before the command and
by :mod:`nomicpoker.cli.options` after it.

WHY typer's parser alone: the console entry point (``nomicpoker/__main__``) answers an idle
``poll`` without importing typer, but never by reading the command line itself: it reuses
what this CLI read from the very same command line before (:mod:`nomicpoker.cli.memo`).
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn, Optional

import typer
import typer.core

from nomicpoker.cli import options

#: Which command modules define each top-level command, in the order they register (their
#: order is the order of ``--help``). A module may add commands to a group another module
#: defines (``days_cmd`` adds to ``table`` and ``hand``; ``entropy_cmd`` to ``hand``;
#: ``deal_cmd`` to ``audit``), so a name lists every module that adds to it.
#: tests/integration/startup/test_cli_imports.py checks, in a fresh process per name, that resolving a
#: name alone builds the same command tree as loading every module.
COMMAND_MODULES = ("record.rules_cmd", "record.phh_cmd", "setup.bot_cmd", "play.days_cmd", "play.entropy_cmd",
                   "setup.forum_cmd", "play.deal_cmd", "setup.db_cmd", "play.score_cmd", "record.site_cmd",
                   "setup.serve_cmd", "setup.deploy_cmd", "play.tournament_cmd")
_BOT = ("setup.bot_cmd",)
PROVIDERS: dict[str, tuple[str, ...]] = {
    "rules": ("record.rules_cmd",), "phh": ("record.phh_cmd",),
    "init": _BOT, "poll": _BOT, "ledger": _BOT, "demo": _BOT,
    "table": (*_BOT, "play.days_cmd"), "hand": (*_BOT, "play.days_cmd", "play.entropy_cmd"),
    "audit": (*_BOT, "play.deal_cmd"), "deck": ("play.deal_cmd",),
    "forum": ("setup.forum_cmd",), "db": ("setup.db_cmd",), "score": ("play.score_cmd",),
    "site": ("record.site_cmd",), "export": ("record.site_cmd",), "verdicts": ("record.site_cmd",),
    "serve": ("setup.serve_cmd",), "cron": ("setup.deploy_cmd",), "systemd": ("setup.deploy_cmd",),
    "tournament": ("play.tournament_cmd",),
}
_loaded: set[str] = set()


def _load(modules: tuple[str, ...] = COMMAND_MODULES) -> None:
    """Import ``modules`` (in :data:`COMMAND_MODULES` order) and register each once."""
    import importlib

    for name in COMMAND_MODULES:
        if name in modules and name not in _loaded:
            _loaded.add(name)
            importlib.import_module(f"nomicpoker.cli.{name}").register(app)


class _LazyGroup(typer.core.TyperGroup):
    """The root command group, which imports a command's module only when the command line
    names it (:data:`PROVIDERS`); listing the commands (``--help``, completion, a mistyped
    name's suggestion) loads them all.

    WHY: every command module, and the click command typer builds from each signature, used to
    be paid by every process, though a process runs one command: ``nomicpoker poll`` from cron
    imported the PHH reader, the rules checker and the tournament director, and built ~80
    commands (docs/benchmarks.md, "The CLI's start-up")."""

    def _build(self) -> None:
        """The click commands of everything the modules loaded so far registered, in typer's
        order (commands, then groups), built again: a group may have grown since."""
        import typer.main as tm

        built: dict[str, object] = {}
        for info in app.registered_commands:
            name = info.name or tm.get_command_name(info.callback.__name__)  # type: ignore[union-attr]
            built[name] = tm.get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                                   rich_markup_mode=app.rich_markup_mode)
        for group_info in app.registered_groups:
            group = tm.get_group_from_info(group_info, pretty_exceptions_short=app.pretty_exceptions_short,
                                           rich_markup_mode=app.rich_markup_mode, suggest_commands=app.suggest_commands)
            built[group.name] = group  # type: ignore[index]
        self.commands = built  # type: ignore[assignment]

    def get_command(self, ctx, cmd_name):  # type: ignore[no-untyped-def]
        needed = PROVIDERS.get(cmd_name)
        if needed is not None and not _loaded.issuperset(needed):
            # built again: a group built before (another command of this process, as in
            # typer's CliRunner) may lack what the modules loaded now add to it
            _load(needed)
            self._build()
        elif cmd_name not in self.commands:  # not a command: every name, for the suggestion
            self.list_commands(ctx)
        return self.commands.get(cmd_name)

    def list_commands(self, ctx):  # type: ignore[no-untyped-def]
        if not getattr(self, "_complete", False):
            _load()
            self._build()
            self._complete = True
        return super().list_commands(ctx)


app = options.Typer(
    cls=_LazyGroup,
    name="nomicpoker",
    help="A poker dealer for nomic games played in blog and forum comments.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from nomicpoker import __version__

        typer.echo(f"nomicpoker {__version__}")
        raise typer.Exit(0)


def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                 help="Print the nomicpoker version and exit."),
    state: Optional[str] = typer.Option(None, "--state", help=options.STATE_HELP),
    db: Optional[str] = typer.Option(None, "--db", help=options.DB_HELP),
    log_level: str = typer.Option("info", "--log-level", envvar="NOMICPOKER_LOG_LEVEL", metavar="LEVEL",
                                  help=options.LEVEL_HELP),
    log_format: str = typer.Option("text", "--log-format", envvar="NOMICPOKER_LOG_FORMAT", metavar="FORMAT",
                                   help=options.FORMAT_HELP),
    log_file: Optional[Path] = options.log_file_option(envvar="NOMICPOKER_LOG_FILE"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=options.QUIET_HELP),
    verbose: bool = typer.Option(False, "--verbose", "-v", help=options.VERBOSE_HELP),
) -> None:
    """A poker dealer for nomic games played in blog and forum comments.

    The options here may also come after the command (nomicpoker poll --quiet --state
    /srv/poker/state --log-file poll.log); after it they win."""
    from nomicpoker.shell import logs

    level, fmt = log_level.strip().lower(), log_format.strip().lower()
    g = options.Globals(state=state, db=db, level=level, fmt=fmt, log_file=log_file, quiet=quiet,
                        verbose=verbose)
    ctx.obj = g
    if level in logs.LEVELS and fmt in logs.FORMATS:  # the command says what is wrong otherwise
        try:  # so a usage error in the command's own options reaches the log file
            logs.configure(verbose=verbose, quiet=quiet, settings=logs.Settings(level=level, fmt=fmt, log_file=log_file))
        except OSError:
            pass  # the command says so in one line, before it does anything


typer.Typer.callback(app, epilog="\b\nExamples:\n  nomicpoker demo\n  nomicpoker init --state /srv/poker/state\n"
                     "  nomicpoker poll --quiet --state /srv/poker/state --log-file /srv/poker/state/poll.log")(_root)


@app.command("version", example="nomicpoker version")
def version() -> None:
    """Print the nomicpoker version (also: nomicpoker --version)."""
    from nomicpoker import __version__

    typer.echo(f"nomicpoker {__version__}")




def _usage_line(exc: BaseException) -> str:
    """A parser's error as our one line: ``error: <what> (see <command> --help)``."""
    ctx = getattr(exc, "ctx", None)
    message = exc.format_message()  # type: ignore[attr-defined]
    return f"error: {message} (see {ctx.command_path} --help)" if ctx is not None else f"error: {message}"


def _log_usage(line: str) -> None:
    """Keep a usage error's line in the log file too: the one the command line named before the
    parser stopped, else the global one (option or NOMICPOKER_LOG_FILE)."""
    import logging
    import os

    from nomicpoker.shell import logs

    seen = options.seen_log_file()
    current = logs.current()
    env = os.environ.get("NOMICPOKER_LOG_FILE") or None
    target = seen or current.log_file or (Path(env) if env else None)
    if target is None:
        return
    try:
        if target != current.log_file or not logging.getLogger(logs.ROOT).handlers:
            fmt = current.fmt if current.fmt in logs.FORMATS else "text"
            level = current.level if current.level in logs.LEVELS else "info"
            logs.configure(settings=logs.Settings(level=level, fmt=fmt, log_file=target))
        logging.getLogger(f"{logs.ROOT}.cli").error("%s", line, extra=logs.FILE_ONLY)
    except (OSError, ValueError):
        pass  # the console line is the answer; a log file that cannot be written has its own


def _exit(code: int) -> NoReturn:
    import sys

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            options.closed_pipe()
        except typer.Exit as done:
            code = done.exit_code
    sys.exit(code)


def main() -> None:
    """Run the app (the console script's CLI part; :mod:`nomicpoker.__main__` calls it).

    typer parses and runs the command; its errors come back here (``standalone_mode=False``)
    so that a usage error (unknown option, ``--money abc``) is ONE line on stderr, kept in the
    log file, and exit 2, like every other error of ours, instead of click's usage block.
    They are told apart by class: every error typer's parser raises is a
    ``typer.TyperException`` (public; the click classes it vendors derive from it)."""
    try:
        rv = app(standalone_mode=False, prog_name="nomicpoker")
    except typer.TyperException as exc:
        ctx = getattr(exc, "ctx", None)
        if ctx is not None and exc.format_message() == ctx.get_help():  # a group without its command
            typer.echo(exc.format_message())
            _exit(exc.exit_code)
        line = _usage_line(exc)
        typer.echo(line, err=True)
        _log_usage(line)
        _exit(exc.exit_code)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        _exit(1)
    except SystemExit as exc:  # typer's own end for a closed pipe (exit 1): ours is 141
        if isinstance(exc.__context__, BrokenPipeError):
            _exit(141)
        raise
    except BrokenPipeError:
        _exit(141)
    except KeyboardInterrupt:  # while typer parses or imports: still one line and 130
        typer.echo(f"error: {options.INTERRUPTED}", err=True)
        _exit(130)
    from nomicpoker.shell import logs

    try:  # a command that never opened the state (rules, phh, version) nor wrote a line
        if rv in (None, 0):
            logs.open_log_file()
    except OSError as exc:
        typer.echo(f"error: --log-file {logs.pending_log_file()}: {exc.strerror or exc}", err=True)
        _exit(1)
    _exit(rv if isinstance(rv, int) else 0)
