"""The embedded local forum, its registry entry and the `nomicpoker forum` commands."""

from __future__ import annotations

import multiprocessing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nomicpoker.ports import Forum, ForumError
from nomicpoker.adapters.local import LocalForum
from nomicpoker.adapters.registry import open_forum
from nomicpoker.cli import app

T0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


class SteppingClock:
    """Each call is one minute after the previous one, starting at T0."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> datetime:
        self.calls += 1
        return T0 + timedelta(minutes=self.calls - 1)


@pytest.fixture
def forum(tmp_path: Path) -> LocalForum:
    return LocalForum(tmp_path / "forum.db", dealer="Dealer", clock=SteppingClock())


def test_local_forum_satisfies_the_forum_protocol(forum: LocalForum) -> None:
    assert isinstance(forum, Forum)
    assert forum.name == "local"


def test_comments_come_back_in_posting_order_with_authors_and_clock_times(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "The story post")
    a = forum.post_as("alice", thread, "HAND1 ROUND1 raise 10")
    b = forum.post_as("bob", thread, "HAND1 ROUND1 call")
    d = forum.post_comment(thread, "Turn: carol to act [np:abc]")
    comments = forum.list_comments(thread)
    assert [c.id for c in comments] == [a, b, d]
    assert [c.author for c in comments] == ["alice", "bob", "Dealer"]
    assert [c.created for c in comments] == [T0 + timedelta(minutes=m) for m in (1, 2, 3)]
    assert all(c.created.tzinfo is not None for c in comments)
    assert comments[0].body == "HAND1 ROUND1 raise 10"
    assert comments[0].body_format == "markdown"
    assert comments[0].edited is None and not comments[0].deleted


def test_ids_are_stable_and_unique_across_threads(forum: LocalForum) -> None:
    one = forum.create_thread("Hand 1", "")
    two = forum.create_thread("Hand 2", "")
    a = forum.post_as("alice", one, "x")
    b = forum.post_as("alice", two, "y")
    assert a != b
    assert [c.id for c in forum.list_comments(one)] == [a]
    assert [c.id for c in forum.list_comments(two)] == [b]


def test_thread_can_be_referenced_by_slug_or_number(forum: LocalForum) -> None:
    ref = forum.create_thread("Hand 1", "", slug="hand-1")
    assert ref == "hand-1"
    forum.post_as("alice", "hand-1", "hello")
    number = str(forum.thread("hand-1").id)
    assert [c.body for c in forum.list_comments(number)] == ["hello"]
    assert [t.ref for t in forum.threads()] == ["hand-1"]


def test_edit_keeps_the_id_and_stamps_the_edit_time(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    cid = forum.post_as("alice", thread, "HAND1 ROUND1 raise 10")
    forum.edit_comment(cid, "HAND1 ROUND1 raise 20", author="alice")
    (c,) = forum.list_comments(thread)
    assert c.id == cid
    assert c.body == "HAND1 ROUND1 raise 20"
    assert c.created == T0 + timedelta(minutes=1)
    assert c.edited == T0 + timedelta(minutes=2)


def test_deleted_comment_stays_listed_as_a_placeholder_in_its_place(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    a = forum.post_as("alice", thread, "HAND1 ROUND1 raise 10")
    b = forum.post_as("bob", thread, "HAND1 ROUND1 call")
    forum.delete_comment(a, author="alice")
    first, second = forum.list_comments(thread)
    assert (first.id, first.deleted, first.body) == (a, True, "[deleted]")
    assert (second.id, second.deleted) == (b, False)


def test_players_cannot_edit_or_delete_someone_elses_comment(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    cid = forum.post_as("alice", thread, "HAND1 ROUND1 raise 10")
    with pytest.raises(ForumError) as err:
        forum.edit_comment(cid, "HAND1 ROUND1 fold", author="bob")
    assert err.value.code == "comment_refused" and "alice" in err.value.message
    with pytest.raises(ForumError):
        forum.delete_comment(cid, author="bob")
    assert forum.list_comments(thread)[0].body == "HAND1 ROUND1 raise 10"


def test_reply_records_its_parent(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    a = forum.post_as("alice", thread, "HAND1 ROUND1 check")
    r = forum.post_comment(thread, "Rejected: no check in round 1", reply_to=a)
    assert forum.list_comments(thread)[1].parent_id == a
    assert r != a


def test_find_comment_with_only_finds_live_dealer_comments(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    forum.post_as("alice", thread, "quoting the dealer: [np:h1-7]")
    assert forum.find_comment_with(thread, "[np:h1-7]") is None
    first = forum.post_comment(thread, "Turn notice [np:h1-7]")
    forum.post_comment(thread, "Turn notice again [np:h1-7]")
    assert forum.find_comment_with(thread, "[np:h1-7]") == first
    forum.delete_comment(first)
    assert forum.find_comment_with(thread, "[np:h1-7]") != first
    assert forum.find_comment_with(thread, "[np:other]") is None


def test_private_messages_land_in_the_recipients_inbox_only(forum: LocalForum) -> None:
    mid = forum.send_private("alice", "Your deck", "Cards printed by: Grimes, Elko")
    (msg,) = forum.inbox("alice")
    assert (msg.id, msg.sender, msg.subject) == (mid, "Dealer", "Your deck")
    assert "Grimes" in msg.body
    assert forum.inbox("bob") == []


def test_unknown_thread_and_comment_are_not_found(forum: LocalForum) -> None:
    with pytest.raises(ForumError) as err:
        forum.list_comments("42")
    assert err.value.code == "not_found"
    with pytest.raises(ForumError) as err:
        forum.edit_comment("99", "x")
    assert err.value.code == "not_found"


def test_empty_comment_is_refused(forum: LocalForum) -> None:
    thread = forum.create_thread("Hand 1", "")
    with pytest.raises(ForumError) as err:
        forum.post_as("alice", thread, "   ")
    assert err.value.code == "comment_refused"


def test_check_reports_the_database_without_posting(forum: LocalForum) -> None:
    rows = forum.check()
    assert rows and all(ok for _, ok, _ in rows)
    assert forum.threads() == []


def test_forum_file_uses_wal_so_readers_run_beside_a_writer(tmp_path: Path) -> None:
    import sqlite3

    LocalForum(tmp_path / "f.db")
    mode = sqlite3.connect(tmp_path / "f.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def _post_many(path: str, author: str, n: int) -> None:
    forum = LocalForum(path)
    for i in range(n):
        forum.post_as(author, "1", f"{author} {i}")


def test_two_processes_posting_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "forum.db"
    LocalForum(path).create_thread("Hand 1", "")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_post_many, args=(str(path), who, 40)) for who in ("a", "b")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    bodies = [c.body for c in LocalForum(path).list_comments("1")]
    assert sorted(bodies) == sorted([f"{w} {i}" for w in "ab" for i in range(40)])
    # each author's comments keep their own order
    assert [b for b in bodies if b.startswith("a ")] == [f"a {i}" for i in range(40)]


# -- registry ---------------------------------------------------------------------------


def test_registry_opens_the_local_forum_in_the_state_dir(tmp_path: Path) -> None:
    forum = open_forum("local", {}, tmp_path)
    assert isinstance(forum, LocalForum)
    assert forum.path == tmp_path / "forum.db"
    forum.create_thread("x", "")
    assert (tmp_path / "forum.db").exists()


def test_registry_passes_the_dealer_account(tmp_path: Path) -> None:
    forum = open_forum("local", {"dealer": "TheDealer"}, tmp_path)
    thread = forum.create_thread("x", "")
    forum.post_comment(thread, "hi")
    assert forum.list_comments(thread)[0].author == "TheDealer"


@pytest.mark.parametrize(
    ("kind", "config", "named"),
    [
        ("local", {"dealr": "x"}, "dealr"),
        ("local", {"dealer": 5}, "dealer"),
        ("carrier-pigeon", {}, "carrier-pigeon"),
    ],
)
def test_registry_bad_config_names_the_key(tmp_path: Path, kind, config, named) -> None:
    with pytest.raises(ForumError) as err:
        open_forum(kind, config, tmp_path)
    assert err.value.code == "config"
    assert named in err.value.message


# -- CLI --------------------------------------------------------------------------------


def _cli(tmp_path: Path, *args: str):
    return CliRunner().invoke(app, ["forum", *args, "--state", str(tmp_path)])


def test_cli_post_then_show_prints_the_thread_as_a_reader_sees_it(tmp_path: Path) -> None:
    assert _cli(tmp_path, "new-thread", "Hand 1", "story", "--slug", "hand-1").exit_code == 0
    r = _cli(tmp_path, "post", "--as", "alice", "hand-1", "HAND1 ROUND1 raise 10")
    assert r.exit_code == 0, r.output
    _cli(tmp_path, "post", "--as", "bob", "hand-1", "HAND1 ROUND1 call")
    _cli(tmp_path, "edit", "--as", "bob", "2", "HAND1 ROUND1 fold")
    _cli(tmp_path, "post", "--as", "carol", "hand-1", "oops")
    _cli(tmp_path, "delete", "--as", "carol", "3")
    shown = _cli(tmp_path, "show", "hand-1")
    assert shown.exit_code == 0
    out = shown.output
    assert out.index("alice") < out.index("bob") < out.index("carol")
    assert "HAND1 ROUND1 raise 10" in out and "HAND1 ROUND1 fold" in out
    assert "edited" in out and "deleted" in out
    assert "oops" not in out


def test_cli_threads_and_inbox(tmp_path: Path) -> None:
    LocalForum(tmp_path / "forum.db").send_private("alice", "Your deck", "deck text")
    _cli(tmp_path, "new-thread", "Hand 7")
    assert "Hand 7" in _cli(tmp_path, "threads").output
    out = _cli(tmp_path, "inbox", "--as", "alice").output
    assert "Your deck" in out and "deck text" in out


def test_cli_errors_are_one_line_with_a_code(tmp_path: Path) -> None:
    r = _cli(tmp_path, "post", "--as", "alice", "nope", "hi")
    assert r.exit_code == 1
    assert "not_found" in r.output and "Traceback" not in r.output


def test_cli_refuses_editing_another_players_comment(tmp_path: Path) -> None:
    _cli(tmp_path, "new-thread", "Hand 1")
    _cli(tmp_path, "post", "--as", "alice", "1", "HAND1 ROUND1 raise 10")
    r = _cli(tmp_path, "edit", "--as", "bob", "1", "HAND1 ROUND1 fold")
    assert r.exit_code == 1 and "comment_refused" in r.output


def test_cli_check_local_passes_and_bad_config_fails(tmp_path: Path) -> None:
    ok = _cli(tmp_path, "check", "--kind", "local")
    assert ok.exit_code == 0 and "ok" in ok.output
    cfg = tmp_path / "bad.toml"
    cfg.write_text('kind = "local"\ndealr = "x"\n')
    bad = _cli(tmp_path, "check", "--config", str(cfg))
    assert bad.exit_code == 1 and "dealr" in bad.output


def test_cli_check_table_reads_the_tables_forum_from_the_ledger(tmp_path: Path) -> None:
    made = CliRunner().invoke(app, ["table", "create", "--name", "T", "--players", "alice,bob", "--state", str(tmp_path)])
    assert made.exit_code == 0, made.output
    ok = _cli(tmp_path, "check", "--table", "T")
    assert ok.exit_code == 0 and str(tmp_path / "forum.db") in ok.output
    missing = _cli(tmp_path, "check", "--table", "nope")
    assert missing.exit_code == 1 and "nope" in missing.output


def test_cli_uses_nomicpoker_state_when_no_state_option(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NOMICPOKER_STATE", str(tmp_path / "elsewhere"))
    r = CliRunner().invoke(app, ["forum", "new-thread", "Hand 1"])
    assert r.exit_code == 0, r.output
    assert [t.title for t in LocalForum(tmp_path / "elsewhere" / "forum.db").threads()] == ["Hand 1"]
