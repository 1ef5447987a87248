"""The ``nomicpoker`` command line (typer). Part of the imperative shell.

Each command group lives in its own module with a ``register(app)`` function, so the groups
can grow independently: ``rules_cmd`` (rules show/check), ``phh_cmd`` (phh replay),
``bot_cmd`` (init, table, hand, poll, ledger, audit, demo), ``forum_cmd`` (forum post/show/
check), ``deal_cmd`` (deck issue, audit verify).
"""

from __future__ import annotations

import typer

from . import bot_cmd, deal_cmd, forum_cmd, phh_cmd, rules_cmd

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
    from .. import __version__

    typer.echo(f"nomicpoker {__version__}")


for _module in (rules_cmd, phh_cmd, bot_cmd, forum_cmd, deal_cmd):
    _module.register(app)


def main() -> None:  # console script entry point
    app()
