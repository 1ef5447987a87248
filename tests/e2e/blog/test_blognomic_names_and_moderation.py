"""Names as BlogNomic shows them, and a Dealer account whose comments wait for approval.

On the real-theme site (:mod:`fixtures.wp_theme_site`) the Dealer logs in as ``pokerbot`` and
signs as "Poker Dealer"; players sign with display names ("Zoë" for the login ``zoe``). The
commands a Dealer runs must say so: ``forum check`` prints the name shown and who has
commented, ``table create --thread`` warns about a seat nobody there signs as, and
``forum check``/``poll`` say when the account's comments are held for moderation.
"""

from __future__ import annotations

import json

import pytest
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner

from nomicpoker.cli import app

from fixtures.wp_theme_site import BASE, THREAD, WordPressSite, serve


@pytest.fixture
def wp(httpserver: HTTPServer, monkeypatch, tmp_path):
    site = WordPressSite()
    site.member("pokerbot", "s3cret", "Poker Dealer")
    site.member("kevan", "pw", "Kevan")
    site.member("zoe", "pw", "Zoë")
    base = serve(httpserver, site, monkeypatch)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", "pokerbot")
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", "s3cret")
    monkeypatch.setenv("NOMICPOKER_STATE", str(tmp_path / "state"))
    cfg = tmp_path / "forum.json"
    cfg.write_text(json.dumps({"base_url": base, "delay": 0, "backoff": 0}))
    return site, base, cfg


def cli(*args: str):
    return CliRunner().invoke(app, list(args))  # stdout and stderr apart (click 8.2)


def test_forum_check_prints_the_shown_name_and_recent_commenters(wp, tmp_path) -> None:
    site, base, _ = wp
    site.add("kevan", "I'm in")
    site.add("zoe", "me too")
    toml = tmp_path / "forum.toml"
    toml.write_text(f'[forum]\nkind = "blognomic"\nbase_url = "{base}"\ndelay = 0\n')
    out = cli("forum", "check", "--config", str(toml), "--thread", BASE + THREAD)
    assert out.exit_code == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert "ok   shown name: the site shows pokerbot as 'Poker Dealer' on comments; the Dealer's own comments are recognised by that name" in lines
    assert "ok   dealer name: the forum shows the Dealer's comments as 'Poker Dealer'" in lines
    assert f"ok   recent commenters: {BASE}{THREAD}: 'Zoë', 'Kevan'" in lines
    assert any(l.startswith("ok   moderation: no public comment by 'Poker Dealer'") for l in lines)
    assert site.posts == []  # a check never posts


def test_table_create_warns_about_a_seat_nobody_on_the_thread_signs_as(wp) -> None:
    site, _, cfg = wp
    site.add("kevan", "I'm in")
    site.add("zoe", "me too")
    out = cli("table", "create", "--name", "T", "--players", "Kevan,zoe", "--forum", "blognomic",
              "--forum-config", str(cfg), "--thread", BASE + THREAD)
    assert out.exit_code == 0, out.stdout + out.stderr
    assert "dealer 'Poker Dealer'" in out.stdout  # the name the site shows, found by logging in
    (warning,) = [l for l in out.stderr.splitlines() if l.startswith("warning:")]
    assert "seat 'zoe' matches nobody" in warning and "'Zoë'" in warning
    ok = cli("table", "create", "--name", "U", "--players", "Kevan,Zoë", "--forum", "blognomic",
             "--forum-config", str(cfg), "--thread", BASE + THREAD)
    assert ok.exit_code == 0 and "warning" not in ok.stderr


def test_poll_and_forum_check_say_the_account_needs_approval_until_it_is_given(wp) -> None:
    site, _, cfg = wp
    assert cli("table", "create", "--name", "T", "--players", "Kevan,Zoë", "--forum", "blognomic",
               "--forum-config", str(cfg)).exit_code == 0
    started = cli("hand", "start", "--table", "T", "--ante", "5", "--thread", BASE + THREAD)
    assert started.exit_code == 0, started.stdout + started.stderr
    assert "held for moderation" in started.stderr
    (held,) = [c for c in site.comments if c.user.login == "pokerbot"]
    for _ in range(2):
        polled = cli("poll")
        assert polled.exit_code == 0, polled.stdout + polled.stderr
        assert "held for moderation" in polled.stdout and "'Poker Dealer' needs approval" in polled.stdout
    assert len([c for c in site.comments if c.user.login == "pokerbot"]) == 1  # never posted again
    check = cli("forum", "check", "--table", "T")
    assert check.exit_code == 1
    assert any(l.startswith("FAIL moderation: 1 dealer comment(s) held for moderation")
               and "'Poker Dealer' needs approval" in l for l in check.stdout.splitlines())
    site.approve(held.id)
    assert "1 found already posted" in cli("poll").stdout
    assert cli("forum", "check", "--table", "T").exit_code == 0
