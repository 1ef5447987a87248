"""The Dealer's controls for play over days through the real command line (``nomicpoker ...``
on the local forum, the real clock): ``table create --setting``, ``table show``, a protest
printed by ``poll --quiet``, ``table pause``/``resume``, ``hand fold``, ``hand void``,
``table unseat``/``seat`` and ``table set``; each refused with one line and a non-zero exit
when it makes no sense, and ``audit`` finding the replay identical. (The moments of deadlines
and reminders are pinned with a fake clock in tests/e2e/days/test_play_over_days.py.)

Expected values worked out by hand: roberts-nlhe, alice, bob, carol with 100, blinds 1/2; the
first button is the last player (carol), who acts first three-handed; alice posts the small
blind, bob the big.
"""

from __future__ import annotations

import re

from typer.testing import CliRunner

from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.shell.storage.paths import forum_db_path

runner = CliRunner()


def cli(state, *args: str, code: int = 0) -> str:
    res = runner.invoke(app, [*args, "--state", str(state)])
    assert res.exit_code == code, (args, res.exit_code, res.output)
    if code:
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), res.output  # one line, no traceback
    return res.output


def dealer(state, thread: str = "1") -> list[str]:
    forum = LocalForum(forum_db_path(state))
    return [c.body for c in forum.list_comments(thread) if c.author == "Dealer"]


def money(state) -> dict[str, int]:
    rows = re.findall(r"^\| (\w+) \| (\d+) \|", cli(state, "table", "show", "--table", "T"), re.M)
    return {name: int(m) for name, m in rows}


def test_the_dealers_controls_on_the_command_line(tmp_path):
    st = tmp_path / "state"
    # A bad setting creates nothing (the same name is free just after).
    out = cli(st, "table", "create", "--name", "T", "--players", "alice,bob,carol", "--ruleset",
              "roberts-nlhe", "--setting", "deadline_hours=abc", code=2)
    assert "deadline_hours" in out
    cli(st, "table", "create", "--name", "T", "--players", "alice,bob,carol", "--ruleset", "roberts-nlhe",
        "--setting", "deadline_hours=4", "--setting", "floorman=referee")
    assert "settings: deadline 4 h;" in cli(st, "table", "show", "--table", "T")
    cli(st, "hand", "start", "--table", "T", "--blinds", "1,2")
    forum = LocalForum(forum_db_path(st))
    (thread,) = [th.ref for th in forum.threads()]

    # A protest: the table sees that one was filed, the Dealer reads the text in the poll's
    # output even with --quiet, and the floorman gets it privately.
    cli(st, "forum", "post", thread, "PROTEST the blinds are wrong", "--as", "bob")
    quiet = cli(st, "poll", "--quiet")
    assert re.search(r"T: PROTEST by bob \(.*\): the blinds are wrong$", quiet.strip())
    assert "bob has filed a protest" in dealer(st, thread)[-1]
    assert "the blinds are wrong" not in dealer(st, thread)[-1]
    assert "the blinds are wrong" in forum.inbox("referee")[-1].body
    before = len(dealer(st, thread))
    cli(st, "forum", "post", thread, "call", "--as", "carol")  # kept during the freeze
    cli(st, "poll")
    assert len(dealer(st, thread)) == before
    assert "FROZEN (protest)" in cli(st, "table", "show", "--table", "T")
    assert "already frozen" in cli(st, "table", "pause", "--table", "T", "--note", "x", code=1)
    assert "between hands" in cli(st, "table", "unseat", "--table", "T", "--player", "carol", "--note", "x", code=1)

    # The Dealer resolves it: the note, then carol's kept call (alice, small blind, to act).
    assert "table T: resumed; 2 dealer message(s) sent" in cli(st, "table", "resume", "--table", "T",
                                                               "--note", "the blinds were right")
    resumed, call = dealer(st, thread)[-2:]
    assert resumed.startswith("The Dealer resumes the table.") and "the blinds were right" in resumed
    assert call.startswith("carol calls.") and "**alice** to act, 1 to call" in call
    assert "not paused" in cli(st, "table", "resume", "--table", "T", "--note", "again", code=1)

    # The Dealer folds alice (her small blind stays in the pot), then voids the hand.
    assert "alice folded out of hand 1" in cli(st, "hand", "fold", "--table", "T", "--player", "alice",
                                               "--note", "asked to")
    assert money(st) == {"alice": 99, "bob": 98, "carol": 98}
    assert "not in hand 1" in cli(st, "hand", "fold", "--table", "T", "--player", "alice", "--note", "x", code=1)
    cli(st, "hand", "void", "--table", "T", "--note", "misdeal")
    assert "Every chip goes back where it was at the hand's start: alice 100, bob 100, carol 100." \
        in dealer(st, thread)[-1]
    assert money(st) == {"alice": 100, "bob": 100, "carol": 100}
    cli(st, "hand", "void", "--table", "T", "--note", "again", code=1)

    # Between hands: carol unseated is left out of hand 2 (heads-up: button alice posts the
    # small blind, bob the big); she cannot be seated while it runs, and can once it ends.
    cli(st, "table", "unseat", "--table", "T", "--player", "carol", "--note", "rude")
    assert "sitting out: carol" in cli(st, "table", "show", "--table", "T")
    assert "seated alice, bob;" in cli(st, "hand", "start", "--table", "T", "--blinds", "1,2")
    cli(st, "table", "seat", "--table", "T", "--player", "carol", "--note", "sorry", code=1)
    # carol is a player of the table but has no seat in hand 2: one line, not a KeyError (found
    # by the resume sweep, tests/kits/sweeps/resume.py)
    assert "carol is not in hand 2" in cli(st, "hand", "fold", "--table", "T", "--player", "carol", "--note", "x",
                                           code=1)
    cli(st, "hand", "fold", "--table", "T", "--player", "alice", "--note", "asked to")  # bob takes 3
    assert money(st) == {"alice": 99, "bob": 101, "carol": 100}
    cli(st, "table", "seat", "--table", "T", "--player", "carol", "--note", "sorry")
    assert "sitting out" not in cli(st, "table", "show", "--table", "T")

    # Settings from now on; a bad one changes nothing (exit 2, a usage error).
    assert "settings: deadline 8 h;" in cli(st, "table", "set", "deadline_hours=8", "--table", "T",
                                            "--note", "holidays")
    cli(st, "table", "set", "bogus=1", "--table", "T", code=2)
    assert "settings: deadline 8 h;" in cli(st, "table", "show", "--table", "T")
    assert "seated alice, bob, carol;" in cli(st, "hand", "start", "--table", "T", "--blinds", "1,2")

    assert "the replay is identical to the ledger" in cli(st, "audit")
