"""Numbers typed by a Dealer (or sent by a server) are ASCII digits; a character Python's
``str.isdigit()`` calls a digit but ``int()`` cannot read (superscript ``²``, circled ``①``)
is refused like any other bad value, with one line and no traceback.

WHY: ``str.isdigit()`` is true for ``²``, so code that checked ``isdigit()`` and then called
``int()`` crashed with a ValueError traceback (``table set reminders=²``, ``forum show ²``,
``hand start --thread ²``), where bad input must get one clear line and a non-zero exit."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nomicpoker.adapters.http import _retry_after
from nomicpoker.adapters.irc_log import parse_thread_ref
from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.core.table_settings import SettingsError, parse_assignments
from nomicpoker.ports import ForumError

from _bot_kit import Table

runner = CliRunner()
NOT_ASCII_DIGITS = ["\u00b2", "\u2460", "1\u00b2"]  # superscript two, circled one


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_a_setting_is_refused_with_a_coded_error_not_a_crash(text):
    with pytest.raises(SettingsError):
        parse_assignments([f"reminders={text}"])
    with pytest.raises(SettingsError):
        parse_assignments([f"deadline_hours={text}"])
    assert parse_assignments(["reminders=3"]) == {"reminders": 3}


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_a_thread_or_comment_reference_that_is_no_number_is_not_found(tmp_path, text):
    forum = LocalForum(tmp_path / "forum.db")
    with pytest.raises(ForumError) as thread:
        forum.list_comments(text)
    assert thread.value.code == "not_found"
    with pytest.raises(ForumError) as irc:
        parse_thread_ref(f"#poker/{text}")
    assert irc.value.code == "not_found"


def test_a_retry_after_that_is_no_number_waits_the_default():
    assert _retry_after("\u00b2", 7.0) == 7.0
    assert _retry_after("3", 7.0) == 3.0


def test_table_set_and_forum_show_say_one_line_and_exit_non_zero(tmp_path):
    t = Table(tmp_path)
    state = ["--state", str(t.state)]
    res = runner.invoke(app, ["table", "set", "--table", t.name, "reminders=\u00b2", *state])
    assert res.exit_code != 0 and isinstance(res.exception, SystemExit), res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "reminders" in lines[0], res.output
    res = runner.invoke(app, ["forum", "show", "\u00b2", *state])
    assert res.exit_code != 0 and isinstance(res.exception, SystemExit), res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), res.output
