"""Alembic's environment for the ledger: always run on the connection that
:mod:`nomicpoker.shell.jobs.schema` hands over (``config.attributes["connection"]``); there is no
alembic.ini and no URL here, so the Dealer's ``--db`` is the only database ever touched."""

from alembic import context

from nomicpoker.shell.storage.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata(),
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
