"""An IRC table's seats are IRC nicks (issue 15): players are known by their nick, so ``table
create`` refuses a seat nobody could take on IRC, with one line naming it and the rule, and
writes nothing. The rule is RFC 2812's nick grammar with the 30 characters modern servers
allow; it is cross-checked against a real ngIRCd (tests/kits/servers/ircd.py, ``MaxNickLength = 30``): the
server welcomes exactly the nicks the rule accepts. Two seats the usual RFC 1459 case mapping
makes one nick (``[bob]`` and ``{Bob}``) are refused too. And ``serve --table`` with a table
that does not exist, or is not on IRC, says so in one line and exits non-zero."""

from __future__ import annotations

import json
import socket
import time

import pytest
from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.servers.ircd import PASSWORD, ircd  # noqa: F401  (ircd is a fixture)

runner = CliRunner()

GOOD = ["alice", "Bob_2", "[dave]", "`e`", "f-g", "^hat", "{x}|y", "x" * 30]
BAD = ["bad nick", "9lives", "-dash", "a.b", "\u00e9lan", "x" * 31, "nick!", "a@b", "#chan", "a:b"]


def create(tmp_path, players: str, *extra: str, nick: str = "dealerbot"):
    cfg = tmp_path / "irc.json"
    cfg.write_text(json.dumps({"server": "127.0.0.1", "port": 6667, "tls": False, "channel": "#poker",
                               "nick": nick}))
    return runner.invoke(app, ["table", "create", "--name", "T", "--players", players, "--forum", "irc",
                               "--forum-config", str(cfg), "--ruleset", "roberts-nlhe", "--state",
                               str(tmp_path / "state"), *extra])


def refused(res, fragment: str) -> None:
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 1 and len(lines) == 1 and lines[0].startswith("error: "), res.output
    assert fragment in lines[0], res.output


def no_tables(tmp_path) -> None:
    res = runner.invoke(app, ["table", "list", "--state", str(tmp_path / "state")])
    assert res.exit_code == 0 and res.output.startswith("no tables"), res.output


@pytest.mark.parametrize("seat", BAD)
def test_a_seat_that_is_no_irc_nick_is_refused_in_one_line(tmp_path, seat):
    res = create(tmp_path, f"alice,{seat}")
    refused(res, f"player {seat!r} is not an IRC nick: a letter or one of")
    no_tables(tmp_path)


@pytest.mark.parametrize("a, b", [("[bob]", "{Bob}"), ("x\\y", "X|Y"), ("a[b", "A{B")])
def test_two_seats_one_nick_are_refused(tmp_path, a, b):
    refused(create(tmp_path, f"{a},{b}"), f"player {b!r} is the same IRC nick as player {a!r}")
    no_tables(tmp_path)


def test_a_seat_that_is_the_dealers_nick_under_case_mapping_is_refused(tmp_path):
    refused(create(tmp_path, "alice,{DEAL}", nick="[deal]"), "player '{DEAL}' is the same IRC nick as the "
            "Dealer's nick '[deal]'")
    no_tables(tmp_path)


def test_seats_that_are_irc_nicks_make_the_table(tmp_path):
    res = create(tmp_path, ",".join(GOOD))
    assert res.exit_code == 0, res.output
    assert "table T: " + ", ".join(GOOD) in res.output


def test_the_same_seats_at_a_local_table_are_not_held_to_irc_rules(tmp_path):
    res = runner.invoke(app, ["table", "create", "--name", "T", "--players", "alice,bad nick",
                              "--state", str(tmp_path / "state")])
    assert res.exit_code == 0, res.output


def welcomed(port: int, nick: str) -> bool:
    """Whether the real server lets a client register as ``nick`` (001) or refuses it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"PASS {PASSWORD}\r\nNICK {nick}\r\nUSER u 0 * :u\r\n".encode("utf-8"))
        buf, end = b"", time.monotonic() + 10
        while time.monotonic() < end:
            data = sock.recv(4096)
            if not data:
                return False
            buf += data
            for line in buf.decode("utf-8", "replace").split("\r\n"):
                parts = line.split()
                if len(parts) > 1 and parts[1] == "001":
                    return True
                if len(parts) > 1 and parts[1] in ("431", "432"):  # no nick, erroneous nick
                    return False
    raise AssertionError(f"no answer to NICK {nick!r}")


def test_the_rule_agrees_with_a_real_irc_server(ircd):  # noqa: F811
    for nick in GOOD:
        assert welcomed(ircd.port, nick), nick
    for nick in ["9lives", "-dash", "a.b", "\u00e9lan", "x" * 31, "nick!", "a@b", "#chan"]:
        assert not welcomed(ircd.port, nick), nick


def test_serve_names_an_unknown_table_or_one_not_on_irc_in_one_line(tmp_path):
    st = str(tmp_path / "state")
    assert runner.invoke(app, ["table", "create", "--name", "L", "--players", "alice,bob", "--state", st]).exit_code == 0
    res = runner.invoke(app, ["serve", "--table", "nope", "--state", st])
    refused(res, "no table named 'nope' (tables: L)")
    res = runner.invoke(app, ["serve", "--table", "L", "--state", st])
    refused(res, "table 'L' is on the local forum, not a live chat: serve is for IRC tables")
