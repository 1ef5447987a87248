"""Every ``next:`` hint the CLI prints works as printed (issue 22): ``table create --ruleset
roberts-nlhe`` suggested ``hand start --ante 5`` (a hand with no blinds), a BlogNomic table's
hint left out the required ``--thread``, and ``--state`` was dropped. Each hint is run here
exactly as printed."""

from __future__ import annotations

import shlex

from typer.testing import CliRunner

from nomicpoker.cli import app

from kits.sweeps.sweep_hands import blog  # noqa: F401  (a fixture: the test BlogNomic)

runner = CliRunner()


def _next(output: str) -> str:
    (line,) = [ln for ln in output.splitlines() if ln.startswith("next: ")]
    return line.removeprefix("next: ")


def _run(hint: str):
    argv = shlex.split(hint)
    assert argv[:1] == ["nomicpoker"], hint
    return runner.invoke(app, argv[1:])


def test_table_create_hints_start_a_hand_with_the_rulesets_forced_bets(tmp_path):
    state = str(tmp_path / "my state")
    for name, ruleset, bet in (("R", "roberts-nlhe", "Blinds 1/2"), ("B", "blognomic-2008", "Ante 5")):
        r = runner.invoke(app, ["table", "create", "--name", name, "--players", "alice,bob,carol", "--money", "100",
                                "--ruleset", ruleset, "--state", state])
        assert r.exit_code == 0, r.output
        hint = _next(r.output)
        assert "--state" in hint, hint
        started = _run(hint)
        assert started.exit_code == 0, (hint, started.output)
        from nomicpoker.adapters.local import LocalForum
        from nomicpoker.shell.storage.paths import forum_db_path
        forum = LocalForum(forum_db_path(tmp_path / "my state"))
        thread = started.output.split(" started in thread ")[1].split(";")[0]
        assert f"{bet}: collected" in forum.list_comments(thread)[0].body, forum.list_comments(thread)[0].body


def test_a_blognomic_forum_table_hint_asks_for_the_story_post(blog, tmp_path):  # noqa: F811
    import json
    _site, base = blog
    cfg = tmp_path / "blog.json"
    cfg.write_text(json.dumps({"base_url": base, "delay": 0, "backoff": 0}), "utf-8")
    r = runner.invoke(app, ["table", "create", "--name", "T", "--players", "Kevan,Josh", "--money", "100",
                            "--forum", "blognomic", "--forum-config", str(cfg), "--state", str(tmp_path / "s")])
    assert r.exit_code == 0, r.output
    hint = _next(r.output)
    assert hint.startswith("post the hand's story post on the blognomic forum, then: nomicpoker hand start "
                           "--table T --ante 5 --state ") and hint.endswith(" --thread <the story post's URL>")
