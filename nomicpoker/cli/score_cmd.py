"""``nomicpoker score``: standings across every table of the game (WRGPT's SCORE)."""

from __future__ import annotations

from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    from nomicpoker.cli.bot_cmd import DbOpt, StateOpt, opened

    @app.command("score")
    def score(full: bool = typer.Option(False, "--all", "-l", help="Include eliminated players "
                                        "(WRGPT's SCORE/L)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
        """Standings across every table: Money summed per player, most first."""
        from sqlmodel import Session, select  # here: `--help` must not load the database layer

        from nomicpoker.core.standings import TableMoney, render, standings
        from nomicpoker.shell import ledger
        from nomicpoker.shell.store import TableRow

        with opened(state, db, need_state=False) as (_st, engine):
            with Session(engine) as s:
                rows = []
                for t in s.exec(select(TableRow).order_by(TableRow.id)).all():
                    out: dict[str, int | None] = {}
                    for e in ledger.stored_rows(s, t.name, "entry"):
                        if e.column == "Money":
                            out[e.player] = e.hand if e.new == "0" else None
                    rows += [TableMoney(t.name, g.player, g.money + g.pot, out.get(g.player))
                             for g in ledger.gndt(s, t)]
        if not rows:
            typer.echo("no tables")
            return
        typer.echo(render(standings(rows, full)).rstrip("\n"))
