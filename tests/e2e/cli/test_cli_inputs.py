"""What a Dealer types, read as they meant it (issue 27): a forum config in JSON or TOML for
every command that reads one, a ledger URL as PostgreSQL tools write it (``postgres://``),
and plain words for a URL that is not a ledger's and for a missing PostgreSQL driver.
Real processes; PostgreSQL's tests start the real server (tests/kits/servers/pg.py)."""

from __future__ import annotations

import json
import sys

import pytest

from kits.tables.cli import CLI, cli, one_line

FORMATS = {
    "json": json.dumps({"forum": {"kind": "local", "dealer": "Croupier"}}),
    "toml": '[forum]\nkind = "local"\ndealer = "Croupier"\n',
    "json-flat": json.dumps({"dealer": "Croupier"}),
    "toml-flat": 'dealer = "Croupier"\n',
}


@pytest.mark.parametrize("name", sorted(FORMATS))
@pytest.mark.parametrize("suffix", [".cfg", ""])
def test_table_create_and_forum_check_read_the_same_json_or_toml_file(tmp_path, name, suffix):
    """One file, either format, named .json/.toml or not: both commands read it, the same way."""
    ext = suffix or "." + name.split("-")[0]
    config = tmp_path / f"forum{ext}"
    config.write_text(FORMATS[name])
    st = ["--state", str(tmp_path / "st")]
    assert cli("init", *st).returncode == 0
    res = cli("table", "create", "--name", "T", "--players", "a,b", "--forum-config", str(config), *st)
    assert res.returncode == 0 and "forum local, dealer 'Croupier'" in res.stdout, res.stdout + res.stderr
    res = cli("forum", "check", "--config", str(config), *st)
    assert res.returncode == 0 and "FAIL" not in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize("text, needle", [
    ("{not json", "not valid JSON"),
    ("[]", "must hold a JSON object or a TOML document"),
    ('forum = "x"', "[forum] must be a table"),
])
def test_a_config_file_that_is_neither_says_so_in_one_line(tmp_path, text, needle):
    config = tmp_path / ("forum.json" if text.startswith(("{", "[")) else "forum.toml")
    config.write_text(text)
    st = ["--state", str(tmp_path / "st")]
    one_line(cli("table", "create", "--name", "T", "--players", "a,b", "--forum-config", str(config), *st),
             "--forum-config", needle)
    one_line(cli("forum", "check", "--config", str(config), *st), "--config", needle)


@pytest.mark.parametrize("url, needle", [
    ("foo", "--db 'foo' is not a database URL: write sqlite:///"),
    ("http://example.org/ledger", "nomicpoker keeps its ledger in SQLite or PostgreSQL, not 'http'"),
])
def test_a_url_that_is_not_a_ledgers_is_answered_in_plain_words(tmp_path, url, needle):
    out = one_line(cli("table", "list", "--state", str(tmp_path), "--db", url), needle)
    assert "Can't load plugin" not in out and "Could not parse" not in out


def test_a_missing_postgresql_driver_names_the_extra_to_install(tmp_path):
    """psycopg not importable (as where the extra was not installed): the line names it."""
    import subprocess

    blocked = "import sys; sys.modules['psycopg'] = None; " + CLI
    res = subprocess.run([sys.executable, "-c", blocked, "table", "list", "--state", str(tmp_path),
                          "--db", "postgresql://dealer@127.0.0.1:5/poker"], capture_output=True, text=True, timeout=120)
    one_line(res, "driver is not installed", "pip install 'nomicpoker[postgres]'")


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_postgres_urls_as_other_tools_write_them_name_postgresql(tmp_path, pg_server, scheme):
    url = pg_server.new_database().replace("postgresql+psycopg://", f"{scheme}://")
    st = ["--state", str(tmp_path / "st"), "--db", url]
    res = cli("init", *st)
    assert res.returncode == 0, res.stdout + res.stderr
    assert cli("table", "create", "--name", "T", "--players", "a,b", *st).returncode == 0
    assert cli("table", "list", *st).stdout.startswith("T\t")
