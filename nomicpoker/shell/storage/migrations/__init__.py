"""The ledger's schema history as Alembic revisions (shipped as package data, so an installed
wheel can upgrade a Dealer's database: ``nomicpoker db upgrade``). See
:mod:`nomicpoker.shell.jobs.schema`."""
