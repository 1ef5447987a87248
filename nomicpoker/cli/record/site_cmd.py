"""Auditors' commands: ``site build``, ``export public-db``, ``verdicts``.

All three read only the ledger's public rows, so they are safe to run at any moment of a
hand; none prints a secret or a private message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, fail, opened

site_app = options.Typer(help="The auditors' static site.", no_args_is_help=True)
export_app = options.Typer(help="Exports safe to publish.", no_args_is_help=True)


@site_app.command("build", example='nomicpoker site build --out /var/www/poker --state /srv/poker/state')
def site_build(out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default: the site setting, NOMICPOKER_SITE or <state>/site)."),
               table: Optional[str] = typer.Option(None, "--table", help="Only this table (the index lists all)."),
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Write the static site: tables, GNDT, chip chart, change log, and every hand."""
    from nomicpoker.shell.storage.paths import site_dir
    from nomicpoker.shell.audit.site import build_site

    # a site written elsewhere only reads the state (--out: an auditor's copy, read-only or not)
    with opened(state, db, readonly=out is not None) as (st, engine):
        target = out if out is not None else site_dir(st)
        if target is None:
            fail("the site is turned off (NOMICPOKER_SITE=off): give --out DIR")
        written = build_site(engine, target, table, st)
    typer.echo(f"wrote {len(written)} files to {target} (open {target / 'index.html'})")


@export_app.command("public-db", example='nomicpoker export public-db -o poker.db --state /srv/poker/state')
def export_public(output: Path = typer.Option(..., "-o", "--output", help="The SQLite file to write."),
                  license_name: Optional[str] = typer.Option(
                      None, "--license", help="The license line readers see in datasette (e.g. 'CC BY 4.0')."),
                  license_url: Optional[str] = typer.Option(None, "--license-url", help="Where that license is."),
                  state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Write a copy of the ledger that is safe to publish, and beside it NAME.metadata.json,
    which describes every table and column for datasette: datasette FILE -m NAME.metadata.json"""
    from nomicpoker.shell.audit.public_db import export_public_db, metadata_path

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        counts = export_public_db(engine, output, license_name, license_url)
    typer.echo(f"wrote {output}: " + ", ".join(f"{n} {k}" for k, n in counts.items() if n))
    typer.echo(f"wrote {metadata_path(output)} (serve both: datasette {output} -m {metadata_path(output)})")


def verdicts_cmd(table: str = typer.Option(..., "--table", help="Table name."),
                 hand: Optional[int] = typer.Option(None, "--hand", parser=options.whole_number_at_least(1), help="Only this hand."),
                 state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Print each comment's verdict, in order: accepted in words, rejected with its code and
    the rule sentence."""
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.audit.verdicts import verdict_lines

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        with Session(engine) as s:
            t = ledger.get_table(s, table)
            numbers = [h.number for h in ledger.hand_rows(s, table)]
            if hand is not None and hand not in numbers:
                fail(f"table {table} has no hand {hand}")
            lines = verdict_lines(s, t, hand)
    typer.echo("\n".join(lines) if lines else "no verdicts yet")


def register(app: typer.Typer) -> None:
    """Add this group's commands to the main app."""
    app.add_typer(site_app, name="site")
    app.add_typer(export_app, name="export")
    app.command("verdicts", example='nomicpoker verdicts --table T --hand 3 --state /srv/poker/state')(verdicts_cmd)
