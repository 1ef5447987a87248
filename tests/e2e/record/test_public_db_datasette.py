"""``export public-db`` writes datasette metadata beside the copy (issue 27): every published
table and column described, the license line given by the Dealer, and datasette itself serving
the copy with it, a hand read through datasette's JSON API equal to the ledger's."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time

import pytest
import requests
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.audit import public_metadata
from nomicpoker.shell.audit.public_record import ALLOW
from nomicpoker.shell.storage.store import ALL_MODELS

from kits.tables.game import blognomic_game


def test_every_published_column_is_described_and_nothing_else():
    """A column added to the ledger and published must be explained to readers; a description
    of a column that is not published (renamed, dropped) must go."""
    published = {name: set(rule.columns) for name, rule in ALLOW.items() if rule.rows}
    assert set(public_metadata.TABLES) == set(published)
    for name, cols in published.items():
        described = set(public_metadata.COLUMNS[name])
        assert described == cols, f"{name}: undescribed {sorted(cols - described)}, stale {sorted(described - cols)}"
        assert all(text.strip() for text in public_metadata.COLUMNS[name].values())
    ledger_tables = {m.__tablename__ for m in ALL_MODELS}  # type: ignore[attr-defined]
    assert set(published) | {"np_snapshot"} == ledger_tables


def _export(tmp_path, *extra):
    t = blognomic_game(tmp_path, "T")
    out = tmp_path / "pub" / "poker.db"
    res = CliRunner().invoke(app, ["export", "public-db", "-o", str(out), "--state", str(t.state), *extra])
    assert res.exit_code == 0, res.output
    return t, out, res.output


def test_the_metadata_file_names_the_copy_its_license_and_each_table(tmp_path):
    _t, out, output = _export(tmp_path, "--license", "CC BY 4.0",
                              "--license-url", "https://creativecommons.org/licenses/by/4.0/")
    meta_path = tmp_path / "pub" / "poker.metadata.json"
    assert f"datasette {out} -m {meta_path}" in output
    meta = json.loads(meta_path.read_text("utf-8"))
    assert meta["license"] == "CC BY 4.0"
    assert meta["license_url"] == "https://creativecommons.org/licenses/by/4.0/"
    tables = meta["databases"]["poker"]["tables"]
    assert tables["np_entry"]["title"] == "Change log"
    assert tables["np_entry"]["columns"]["column"] == "The GNDT column: Money, Turn or Pot."
    assert tables["np_snapshot"] == {"hidden": True}
    # the copy's columns are exactly the described ones
    con = sqlite3.connect(out)
    try:
        for name, spec in tables.items():
            if spec.get("hidden"):
                continue
            cols = {r[1] for r in con.execute(f"PRAGMA table_info({name})")}
            assert cols == set(spec["columns"]), name
    finally:
        con.close()


def test_no_license_line_unless_the_dealer_gives_one(tmp_path):
    _t, _out, _ = _export(tmp_path)
    meta = json.loads((tmp_path / "pub" / "poker.metadata.json").read_text("utf-8"))
    assert "license" not in meta and "license_url" not in meta


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_datasette_serves_the_copy_and_a_hand_reads_the_same_through_its_json_api(tmp_path):
    pytest.importorskip("datasette", reason="datasette is a test dependency (pip install -e '.[test]')")
    t, out, _ = _export(tmp_path, "--license", "CC BY 4.0")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "datasette", "serve", str(out), "-m",
                             str(tmp_path / "pub" / "poker.metadata.json"), "-h", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(f"{base}/-/versions.json", timeout=1).ok:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        else:
            proc.kill()
            pytest.fail("datasette did not start: " + proc.stdout.read().decode(errors="replace"))
        served = requests.get(f"{base}/-/metadata.json", timeout=10).json()
        assert served["license"] == "CC BY 4.0"
        hands = requests.get(f"{base}/poker/np_hand.json", params={"_shape": "array", "table_name": "T"},
                             timeout=10).json()
        actions = requests.get(f"{base}/poker/np_action.json",
                               params={"_shape": "array", "table_name": "T", "hand": 1, "_sort": "n", "_size": "max"},
                               timeout=10).json()
        page = requests.get(f"{base}/poker/np_entry", timeout=10).text
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    con = sqlite3.connect(t.state / "ledger.db")
    try:
        want_hands = con.execute("select number, button, seats from np_hand where table_name='T' order by number").fetchall()
        want_actions = con.execute("select n, player, event, amount, chips from np_action "
                                   "where table_name='T' and hand=1 order by n").fetchall()
    finally:
        con.close()
    assert [(h["number"], h["button"], h["seats"]) for h in hands] == want_hands
    assert len(want_actions) > 3
    assert [(a["n"], a["player"], a["event"], a["amount"], a["chips"]) for a in actions] == want_actions
    # the table's description and a column's are on the page a reader opens
    assert "Every change of every GNDT cell" in page
    assert "The GNDT column: Money, Turn or Pot." in page
