"""A BlogNomic table played by the previous release replays as it was played (``TableSettings.edition``).

Issue 28 read emphasis in blog comments (HTML, which does not render Markdown) by CommonMark's
rules, as a Markdown forum shows it: ``HAND1 ROUND1 ~~fold~~ call`` became a call and
``HAND1 ROUND2 check *`` no action, where the previous release dropped every marker at a word's
edge (``fold call``: refused ``ambiguous``; ``check``). Without editions the first poll after an
upgrade found the replay different from the ledger and audit listed the hand moving otherwise.

The fixture ``tests/fixtures/edition-1-blog-ledger`` was made by nomicpoker at commit 77b725a with
the script in its README, through the fake ExpressionEngine site of tests/fixtures/blog_sites.py
(blognomic-2008, own decks: Kevan, Josh, Zoë). Its ``site.json`` holds the page's comments, which
the test serves again on the same port (the thread's address is in the ledger).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from kits.tables.edition import cli, copied_state, derived, ledger_rows, money, upgraded_and_audited
from _paths import FIXTURES
from fixtures.blog_sites import PASSWORD, USER, Comment, Site, serve_ee

FIXTURE = FIXTURES / "edition-1-blog-ledger"
#: the GNDT after hand 1 as the previous release posted it (Josh's four nines win 75)
MONEY_AS_PLAYED = {"Kevan": 65, "Josh": 140, "Zoë": 95}


def _verdict(state: Path, html: str) -> tuple:
    return ledger_rows(state, "SELECT v.status, v.code, v.canonical FROM np_verdict v JOIN np_comment c ON "
                        "c.forum_id = v.forum_id AND c.thread = v.thread WHERE c.body = ?", f"<p>{html}</p>")[0]


@pytest.fixture
def page(monkeypatch):
    """The blog page as the previous release left it, served again where it was."""
    saved = json.loads((FIXTURE / "site.json").read_text(encoding="utf-8"))
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", saved["port"])) == 0:
            pytest.skip(f"port {saved['port']} (the fixture's page) is taken by another program")
    site = Site(comments=[Comment(**c) for c in saved["comments"]], made=saved["made"])
    server = HTTPServer(host="127.0.0.1", port=saved["port"])
    server.start()
    serve_ee(server, site)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    try:
        yield site
    finally:
        server.stop()


def test_the_fixture_holds_each_changed_reading_as_the_previous_release_read_it(tmp_path):
    state = copied_state(FIXTURE, tmp_path, "site.json")
    assert _verdict(state, "HAND1 ROUND1 ~~fold~~ call")[:2] == ("rejected", "ambiguous")
    assert _verdict(state, "HAND1 ROUND2 check *") == ("accepted", "", "HAND1 ROUND2 check")
    assert money(state) == MONEY_AS_PLAYED


def test_after_the_upgrade_audit_is_identical_and_a_poll_posts_nothing(tmp_path, page):
    state = copied_state(FIXTURE, tmp_path, "site.json")
    before = derived(state)
    upgraded_and_audited(state)
    res = cli(state, "poll")  # reads the page again and replays the table from its first input
    assert res.exit_code == 0 and "FAILED" not in res.output, res.output
    assert page.posts == []  # nothing posted again
    assert derived(state) == before
    assert money(state) == MONEY_AS_PLAYED
