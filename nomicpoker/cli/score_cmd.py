"""``nomicpoker score``: standings across every table of the game (WRGPT's SCORE)."""

from __future__ import annotations

from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    from nomicpoker.cli.bot_cmd import DbOpt, StateOpt, opened

    @app.command("score", example='nomicpoker score --all --state /srv/poker/state')
    def score(full: bool = typer.Option(False, "--all", "-l", help="Include eliminated players "
                                        "(WRGPT's SCORE/L)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
        """Standings across every table: Money summed per player, most first."""
        from sqlmodel import Session  # here: `--help` must not load the database layer

        from nomicpoker.core.standings import render, standings
        from nomicpoker.shell.scores import table_money

        with opened(state, db, need_state=False, readonly=True) as (_st, engine):
            with Session(engine) as s:
                rows = table_money(s)
        if not rows:
            typer.echo("no tables")
            return
        typer.echo(render(standings(rows, full)).rstrip("\n"))
