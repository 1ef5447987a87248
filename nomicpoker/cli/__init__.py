"""The ``nomicpoker`` command line (typer). Part of the imperative shell.

Each command group lives in its own module with a ``register(app)`` function, so the groups
can grow independently: ``rules_cmd`` (rules show/check), ``phh_cmd`` (phh replay),
``bot_cmd`` (init, table, hand, poll, ledger, audit, demo), ``forum_cmd`` (forum post/show/
check), ``deal_cmd`` (deck issue, audit verify), ``db_cmd`` (db version/upgrade).
"""

from __future__ import annotations

import typer

from nomicpoker.cli import bot_cmd, days_cmd, db_cmd, deal_cmd, forum_cmd, phh_cmd, rules_cmd, score_cmd, site_cmd

app = typer.Typer(
    name="nomicpoker",
    help="A poker dealer for nomic games played in blog and forum comments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def _root() -> None:
    """A poker dealer for nomic games played in blog and forum comments."""


@app.command("version")
def version() -> None:
    """Print the nomicpoker version."""
    from nomicpoker import __version__

    typer.echo(f"nomicpoker {__version__}")


for _module in (rules_cmd, phh_cmd, bot_cmd, days_cmd, forum_cmd, deal_cmd, db_cmd, score_cmd, site_cmd):
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
    sys.exit(rv if isinstance(rv, int) else 0)
