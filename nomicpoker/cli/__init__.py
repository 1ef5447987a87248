"""The ``nomicpoker`` command line (typer). Part of the imperative shell.

Each command group lives in its own module with a ``register(app)`` function, so the groups
can grow independently: ``rules_cmd`` (rules show/check), ``phh_cmd`` (phh replay),
``bot_cmd`` (init, table, hand, poll, ledger, audit, demo), ``forum_cmd`` (forum post/show/
check), ``deal_cmd`` (deck issue, audit verify), ``db_cmd`` (db version/upgrade).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import bot_cmd, days_cmd, db_cmd, deal_cmd, forum_cmd, phh_cmd, rules_cmd, score_cmd, serve_cmd, site_cmd

app = typer.Typer(
    name="nomicpoker",
    help="A poker dealer for nomic games played in blog and forum comments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def _root(
    ctx: typer.Context,
    log_level: str = typer.Option("info", "--log-level", envvar="NOMICPOKER_LOG_LEVEL", metavar="LEVEL",
                                  help="Least severe log line kept: debug, info, warning or error."),
    log_format: str = typer.Option("text", "--log-format", envvar="NOMICPOKER_LOG_FORMAT", metavar="FORMAT",
                                   help="text (timestamped lines) or json (one object per line)."),
    log_file: Optional[Path] = typer.Option(None, "--log-file", envvar="NOMICPOKER_LOG_FILE",
                                            help="Also append every log line to this file (any command)."),
) -> None:
    """A poker dealer for nomic games played in blog and forum comments.

    The log options come before the command and apply to every command
    (``nomicpoker --log-format json --log-file poll.log poll --quiet``); ``poll`` and
    ``hand start`` also take ``--verbose``, ``--quiet`` and ``--log-file`` after it."""
    from nomicpoker.shell import logs

    level, fmt = log_level.strip().lower(), log_format.strip().lower()
    if level not in logs.LEVELS:
        _usage(f"--log-level {log_level!r}: expected one of {', '.join(logs.LEVELS)}")
    if fmt not in logs.FORMATS:
        _usage(f"--log-format {log_format!r}: expected text or json")
    try:
        logs.configure(settings=logs.Settings(level=level, fmt=fmt, log_file=log_file))
        if ctx.invoked_subcommand in STATELESS:  # no state will make its folder: open it now
            logs.open_log_file()
    except OSError as exc:
        typer.echo(f"error: --log-file {log_file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1)


#: commands that never make or open a state directory: a log file whose folder is missing is
#: refused before they run (the others open it once their state exists, ``bot_cmd.opened``)
STATELESS = frozenset({"version", "rules", "phh"})


def _usage(message: str) -> None:
    typer.echo(f"error: {message} (see nomicpoker --help)", err=True)
    raise typer.Exit(2)


@app.command("version")
def version() -> None:
    """Print the nomicpoker version."""
    from nomicpoker import __version__

    typer.echo(f"nomicpoker {__version__}")


for _module in (rules_cmd, phh_cmd, bot_cmd, days_cmd, forum_cmd, deal_cmd, db_cmd, score_cmd, site_cmd, serve_cmd):
    _module.register(app)


def main() -> None:  # console script entry point
    """Run the app; a usage error (unknown option, ``--money abc``) is ONE line on stderr and
    exit 2, like every other error of ours, instead of typer's framed multi-line box.

    Click's exceptions are recognised by shape (``format_message`` and ``exit_code``), not by
    import: typer vendors its own click, so there is no stable module to import them from."""
    import sys

    try:
        rv = app(standalone_mode=False, prog_name="nomicpoker")
    except Exception as exc:  # noqa: BLE001 - re-raised unless it is one of click's
        fmt, code = getattr(exc, "format_message", None), getattr(exc, "exit_code", None)
        if fmt is None or not isinstance(code, int):
            if type(exc).__name__ == "Abort":
                typer.echo("Aborted.", err=True)
                sys.exit(1)
            raise
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
        elif ctx is not None:
            typer.echo(f"error: {fmt()} (see {ctx.command_path} --help)", err=True)
        else:
            typer.echo(f"error: {fmt()}", err=True)
        sys.exit(code)
    from nomicpoker.shell import logs

    try:  # a command that never opened the state (rules, phh, version) nor wrote a line
        if rv in (None, 0):
            logs.open_log_file()
    except OSError as exc:
        typer.echo(f"error: --log-file {logs.pending_log_file()}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)
