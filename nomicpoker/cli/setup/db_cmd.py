"""``nomicpoker db ...``: the ledger's schema version, and upgrading it after a release.

Every other command refuses a ledger whose schema is not this release's, naming the command
to run; these two are the only ones that open such a ledger.
"""

from __future__ import annotations

from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, fail
from nomicpoker.shell.storage import paths

db_app = options.Typer(help="The ledger's schema version; upgrade it after a new release.",
                     no_args_is_help=True)


def _engine(state: Optional[str], db: Optional[str]):  # type: ignore[no-untyped-def]
    from nomicpoker.core.errors import CodedError
    from nomicpoker.shell.storage.store import open_engine

    url = paths.db_url(paths.state_dir(state), db)
    try:
        return url, open_engine(url, create=False, check=False)
    except CodedError as exc:
        fail(str(exc))


@db_app.command("version", example='nomicpoker db version --state /srv/poker/state')
def version(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Print the ledger's schema version and the one this nomicpoker needs."""
    from nomicpoker.shell.jobs.schema import current
    from nomicpoker.shell.storage.store import SCHEMA_HEAD, describe, shown_url

    url, engine = _engine(state, db)
    try:
        have = current(engine)
    except Exception as exc:  # noqa: BLE001 - any database failure is one line
        fail(describe(exc, url)[1])
    finally:
        engine.dispose()
    typer.echo(f"ledger {shown_url(url)}: schema {have or 'none (nomicpoker 0.1.0)'}; "
               f"this nomicpoker needs {SCHEMA_HEAD}"
               + ("" if have == SCHEMA_HEAD else ": run nomicpoker db upgrade"))


@db_app.command("upgrade", example='nomicpoker db upgrade --state /srv/poker/state')
def upgrade(state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Migrate the ledger to this release's schema (SQLite: a copy is kept beside it first)."""
    from sqlalchemy.exc import SQLAlchemyError

    from nomicpoker.core.errors import CodedError
    from nomicpoker.shell.jobs.schema import upgrade as run_upgrade
    from nomicpoker.shell.storage.store import describe, shown_url

    url, engine = _engine(state, db)
    try:
        done = run_upgrade(engine, url, paths.state_dir(state))
    except CodedError as exc:
        fail(str(exc))
    except (SQLAlchemyError, OSError) as exc:
        fail(describe(exc, url)[1] + " (the upgrade was rolled back)")
    finally:
        engine.dispose()
    if done.before == done.after:
        typer.echo(f"ledger {shown_url(url)}: already at schema {done.after}; nothing to do")
        return
    typer.echo(f"ledger {shown_url(url)}: upgraded schema {done.before or 'none (nomicpoker 0.1.0)'} "
               f"-> {done.after}" + (f"; the previous ledger is kept in {done.backup}" if done.backup else ""))
    for line in done.problems:
        typer.echo(f"warning: {line} (its new rows are filled in by its next poll)", err=True)


def register(app: typer.Typer) -> None:
    """Add the ``db`` group to the main app."""
    app.add_typer(db_app, name="db")
