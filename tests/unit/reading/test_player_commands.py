"""The players' commands for play over days, read as the WRGPT manual writes them: a line of its
own, starting with the command word in capitals."""

from __future__ import annotations

import pytest

from nomicpoker.core.reading.player_commands import Command, CommandError, hides_action, read_commands


@pytest.mark.parametrize("body, kind, arg", [
    ("GONE 13 Sep", "gone", "13 Sep"),
    ("GONE   until   Monday 30 Nov", "gone", "until Monday 30 Nov"),
    ("GONE", "gone", ""),
    ("GONE RESIGN", "resign", ""),
    ("BACK", "back", ""),
    ("BACK!", "back", ""),
    ("UNDO", "undo", ""),
    ("WHAT", "what", ""),
    ("START 12", "start", "12"),
    ("START 0", "start", "0"),
    ("START 07", "start", "7"),
    ("PROTEST I timed out at 4PM, but the notice said 5PM", "protest", "I timed out at 4PM, but the notice said 5PM"),
])
def test_each_command_is_read(body, kind, arg):
    (cmd,) = read_commands(body)
    assert cmd == Command(kind, arg, body.strip())


def test_a_protest_takes_the_lines_after_it_and_hides_any_action_in_them():
    res = read_commands("PROTEST the dealer\nmisread my HAND2 ROUND1 raise 20\nBACK")
    assert res == (Command("protest", "the dealer\nmisread my HAND2 ROUND1 raise 20\nBACK", "PROTEST the dealer"),)
    assert hides_action(res)
    assert not hides_action(read_commands("GONE 13 Sep"))


@pytest.mark.parametrize("body", [
    "back soon", "What?", "what", "I'm GONE fishing", "> BACK", "BACKWARDS", "BACK in five",
    "WHATEVER", "gone 13 Sep", "START", "UNDONE",
])
def test_chat_is_not_a_command(body):
    assert all(not isinstance(r, Command) for r in read_commands(body))


@pytest.mark.parametrize("body", ["START 6:30", "START 24", "START noon", "START"])
def test_a_start_hour_must_be_a_whole_hour(body):
    (res,) = read_commands(body)
    assert isinstance(res, CommandError) and res.code == "bad_start" and res.text == body


def test_commands_are_read_from_the_visible_text_of_html_and_beside_an_action():
    assert read_commands("<p>GONE 13 Sep</p>", "html") == (Command("gone", "13 Sep", "GONE 13 Sep"),)
    assert read_commands("HAND2 ROUND1 call\nGONE Friday") == (Command("gone", "Friday", "GONE Friday"),)
    # A quoted command is someone else's words (a blank line ends the quote in Markdown).
    assert read_commands("> GONE quoted\n\nBACK") == (Command("back", "", "BACK"),)


def test_a_tournaments_seatlog_and_rail_commands():
    """SEATLOG, RAIL and RAIL OFF: each alone on its line, in capitals (docs/comment-grammar.md)."""
    from nomicpoker.core.reading.player_commands import Command, commands_in

    assert commands_in("SEATLOG") == (Command("seatlog", "", "SEATLOG"),)
    assert commands_in("RAIL") == (Command("rail", "", "RAIL"),)
    assert commands_in("RAIL OFF!") == (Command("rail", "OFF", "RAIL OFF!"),)
    assert [c.canonical for c in commands_in("RAIL\nRAIL off\nSEATLOG.")] == ["RAIL", "RAIL OFF", "SEATLOG"]
    assert commands_in("RAIL me up") == ()  # chat
    assert commands_in("SEATLOG please") == ()
    assert commands_in("seatlog") == () and commands_in("RAILS") == ()
    # before edition 3 these lines were chat (SINCE): an older table replays as it was played
    assert commands_in("SEATLOG\nRAIL\nBACK", edition=2) == (Command("back", "", "BACK"),)
    assert [c.kind for c in commands_in("SEATLOG\nRAIL\nBACK", edition=3)] == ["seatlog", "rail", "back"]
