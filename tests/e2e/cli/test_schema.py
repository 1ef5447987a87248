"""Schema versions (issue 13): every ledger carries its Alembic revision, every command refuses
one that is not this release's with the command to run, and ``nomicpoker db upgrade`` brings a
ledger made by the previous release (0.1.0, commit 34c6f5e; committed under
tests/fixtures/release-0.1.0, made by that release's own ``nomicpoker demo``) up to date, after
which the game plays on and audits clean. On SQLite and (``-m postgres``) on PostgreSQL."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, text
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.jobs import schema
from nomicpoker.shell.storage.store import SCHEMA_HEAD, SCHEMA_REVISIONS, StoreError, metadata, open_engine

from _paths import FIXTURES

FIXTURE = FIXTURES / "release-0.1.0"


def _raw_engine(url: str):
    if url.startswith("sqlite:///"):
        Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    return create_engine(url)


def _shape(engine) -> dict:
    """Every table's columns (name, type, nullability) and indexes, as the database reports them."""
    md = MetaData()
    md.reflect(engine)
    out = {}
    for name, t in md.tables.items():
        if name == "alembic_version":
            continue
        cols = sorted((c.name, type(c.type).__name__, c.nullable) for c in t.columns)
        idx = sorted((i.name, tuple(c.name for c in i.columns), bool(i.unique)) for i in t.indexes)
        out[name] = (cols, idx)
    return out


def test_the_packaged_revisions_are_the_ones_the_store_checks_against():
    assert schema.revisions() == list(SCHEMA_REVISIONS)
    assert (schema.MIGRATIONS / "env.py").is_file()  # package data, shipped in the wheel


def test_the_migrations_alone_build_exactly_the_schema_the_models_declare(ledger_url):
    engine = _raw_engine(ledger_url)
    with engine.begin() as conn:
        command.upgrade(schema.alembic_config(conn), "head")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata()) == []
    engine.dispose()


def test_the_baseline_revision_is_the_0_1_0_schema(tmp_path):
    built = _raw_engine(f"sqlite:///{tmp_path / 'b.db'}")
    with built.begin() as conn:
        command.upgrade(schema.alembic_config(conn), schema.BASELINE)
    old = create_engine(f"sqlite:///file:{FIXTURE / 'ledger.db'}?immutable=1&uri=true")
    assert _shape(built) == _shape(old) and len(_shape(old)) == 13


def _same_adjudication(res) -> None:
    """The replay of the 0.1.0 ledger adjudicates every comment as 0.1.0 did. Its words may
    differ where a later release words a dealer comment better (issue 10 names the first actor
    in a ``not_your_turn``): docs/ledger.md, audit reports those rows as ``wording only``."""
    if res.exit_code == 0:
        assert "identical" in res.output, res.output
        return
    lines = [ln for ln in res.output.splitlines() if ln.startswith("demo: ")]
    assert lines and all("wording only, the adjudication is the same" in ln for ln in lines), res.output


def _copy_state(tmp_path: Path) -> Path:
    st = tmp_path / "state"
    st.mkdir()
    for name in ("ledger.db", "forum.db"):
        shutil.copy(FIXTURE / name, st / name)
    return st


def test_a_0_1_0_ledger_is_refused_until_db_upgrade_then_plays_on_and_audits_clean(tmp_path):
    st = _copy_state(tmp_path)
    run = lambda *a: CliRunner().invoke(app, [*a, "--state", str(st)])  # noqa: E731
    before = (st / "ledger.db").read_bytes()
    for args in (["poll"], ["ledger", "--table", "demo"], ["audit"], ["table", "list"],
                 ["hand", "start", "--table", "demo"]):
        res = run(*args)
        assert res.exit_code == 1, (args, res.output)
        assert "schema version none (nomicpoker 0.1.0)" in res.output, res.output
        assert "run nomicpoker db upgrade" in res.output and len(res.output.splitlines()) == 1
    assert (st / "ledger.db").read_bytes() == before  # refusing wrote nothing
    assert "none (nomicpoker 0.1.0)" in run("db", "version").output
    res = run("db", "upgrade")
    assert res.exit_code == 0, res.output
    assert f"upgraded schema none (nomicpoker 0.1.0) -> {SCHEMA_HEAD}" in res.output
    assert (st / "ledger.db.before-0.1.0").read_bytes()[:16] == b"SQLite format 3\x00"
    assert "nothing to do" in run("db", "upgrade").output
    # the GNDT and change log read exactly as 0.1.0 printed them, and the replay agrees
    res = run("ledger", "--table", "demo", "--format", "md", "--log")
    assert res.exit_code == 0 and res.output == (FIXTURE / "ledger.md").read_text("utf-8")
    _same_adjudication(run("audit"))
    # ... and the next hand starts on the upgraded ledger
    res = run("hand", "start", "--table", "demo", "--ante", "5")
    assert res.exit_code == 0 and "hand 2 of demo started" in res.output, res.output
    assert run("poll").exit_code == 0
    _same_adjudication(run("audit"))
    engine = create_engine(f"sqlite:///{st / 'ledger.db'}")
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata()) == []


def test_an_unversioned_ledger_upgrades_on_any_database(ledger_url):
    """The 0.1.0 shape (the baseline tables, no version) on SQLite and PostgreSQL."""
    engine = _raw_engine(ledger_url)
    with engine.begin() as conn:
        command.upgrade(schema.alembic_config(conn), schema.BASELINE)
        conn.execute(text("DROP TABLE alembic_version"))
    with pytest.raises(StoreError) as err:
        open_engine(ledger_url, create=False)
    assert err.value.code == "old_schema" and "nomicpoker db upgrade" in str(err.value)
    done = schema.upgrade(open_engine(ledger_url, create=False, check=False), ledger_url)
    assert (done.before, done.after) == (None, SCHEMA_HEAD)
    open_engine(ledger_url, create=False).dispose()  # accepted now
    engine.dispose()


def test_a_ledger_from_a_newer_nomicpoker_is_refused_by_every_command(ledger_url, tmp_path):
    open_engine(ledger_url).dispose()
    engine = _raw_engine(ledger_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    engine.dispose()
    with pytest.raises(StoreError) as err:
        open_engine(ledger_url, create=False)
    assert err.value.code == "new_schema"
    st = tmp_path / "st"
    st.mkdir()
    for args in (["poll"], ["audit"], ["db", "upgrade"], ["table", "create", "--name", "T", "--players", "a,b"]):
        res = CliRunner().invoke(app, [*args, "--state", str(st), "--db", ledger_url])
        assert res.exit_code == 1 and "newer" in res.output and "f00d" in res.output, (args, res.output)
        assert "Traceback" not in res.output and len(res.output.splitlines()) == 1
