"""Numbers typed by a Dealer (or sent by a server) are ASCII digits; a character Python's
``str.isdigit()`` calls a digit but ``int()`` cannot read (superscript ``²``, circled ``①``)
is refused like any other bad value, with one line and no traceback.

WHY: ``str.isdigit()`` is true for ``²``, so code that checked ``isdigit()`` and then called
``int()`` crashed with a ValueError traceback (``table set reminders=²``, ``forum show ²``,
``hand start --thread ²``), where bad input must get one clear line and a non-zero exit."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nomicpoker.adapters.blog.http import _retry_after
from nomicpoker.adapters.irc.log import parse_thread_ref
from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.core.table.table_settings import SettingsError, parse_assignments
from nomicpoker.ports import ForumError

from kits.tables.bot import Table

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


# --------------------------------------------------------------------------- advance actions

#: other scripts' decimal digits: regex ``\d`` matches them and ``int()`` reads them (``٣`` is
#: 3), so an advance action read ``$٣٠`` as a bet of 30 where the grammar's own actions answer
#: ``lookalike``: a guess. Arabic-Indic, fullwidth, mathematical bold.
OTHER_DIGITS = ["\u0663\u0660", "\uff13\uff10", "\U0001d7d1\U0001d7ce"]


def _advance_verdict(body: str):  # type: ignore[no-untyped-def]
    import hashlib

    from nomicpoker.core.fold.fold_run import fold_table
    from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
    from nomicpoker.shell.storage.rulesets import load_ruleset
    from nomicpoker.shell.storage.secrets_store import HandSecrets

    players = ("alice", "bob", "carol")
    secrets = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
    cfg = TableConfig("T", players, 1000, "Dealer", load_ruleset("roberts-nlhe"), "roberts-nlhe")
    start = HandStart(1, "1", "carol", 0, (5, 10), tuple((p, 1000) for p in players), 0,
                      "2026-01-01T00:00:00+00:00", secrets.commitments(), secrets)
    who = fold_table(cfg, [start], [], []).current.to_act
    done = fold_table(cfg, [start], [Revision(1, "1", "c1", 1, who, "2026-01-01T00:00:01+00:00", body)], [])
    return done.rows["verdict"][0]


@pytest.mark.parametrize("digits", OTHER_DIGITS)
@pytest.mark.parametrize("form", ["${d}", "MAKE ${d}", "CALL/S ${d}", "IF/P<={d} CALL *", "IF/F={d} CALL *",
                                  "IF/I:{d} FOLD", "IF/B<>{d} FOLD ELSE CALL *"])
def test_an_advance_action_never_reads_another_script_s_digits_as_a_number(form, digits):
    v = _advance_verdict(form.format(d=digits))
    assert v["status"] == "rejected" and v["code"].startswith("advance_"), v
    assert digits not in v["canonical"] and "30" not in v["canonical"] and "3" not in v["canonical"]


def test_the_same_advance_actions_in_ascii_digits_are_accepted():
    for body in ["$30", "MAKE $30", "IF/P<=30 CALL *"]:
        assert _advance_verdict(body)["status"] == "accepted", body
