"""The start of a fold without a hub (issue 23): a phase returns what happened as values
(:mod:`nomicpoker.core.fold.effects`) and the fold applies them; SCORE is the first phase
written so. Its behaviour is pinned by tests/e2e/test_score.py (unchanged); here, that the phase is
a pure function of its input that returns those values and never reaches into the fold."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from nomicpoker.core.fold import score_fold
from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.fold.effects import FirstReading, Message, Post, ScoreAnswered, ScoreAsked, Verdict
from nomicpoker.core.reading.comment_reading import Facts, TextReading, read_revision
from nomicpoker.core.table.fold_types import DealerEvent, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset

CFG = TableConfig("T", ("alice", "bob"), 100, "Dealer", load_ruleset("roberts-nlhe"), "roberts-nlhe")
REV = Revision(3, "1", "c9", 1, "bob", "2026-01-01T00:03:00+00:00", "SCORE/L")
ROWS = [["T", "alice", 120, None], ["T", "bob", 80, None], ["U", "carol", 0, None]]


def test_a_score_comment_returns_its_verdict_and_its_request_and_changes_nothing_else():
    reading = read_revision(TextReading(REV.body, "markdown", True), Facts(number=1))
    assert score_fold.comment(REV, reading, 1) == (
        FirstReading(REV, "action"), Verdict(REV, 1, "accepted", canonical="SCORE/L"),
        ScoreAsked(("1", "c9", "bob", "L", "1")))


def _state(config: TableConfig, *pending: list[str]):
    """A table's fold state with ``pending`` SCORE requests (no hand played)."""
    st = fold_table(config, [], [], []).state
    st.score_pending.extend(pending)
    return st


def test_a_score_event_returns_the_answer_once():
    ev = DealerEvent(5, 1, score_fold.SCORE, "bob", "2026-01-01T01:00:00+00:00", data={"forum_id": "c9", "rows": ROWS})
    st = _state(CFG, ["1", "c9", "bob", "L", "1"])
    done, post = score_fold.event(ev, st, CFG)
    assert done == ScoreAnswered("c9") and isinstance(post, Post)
    assert (post.hand, post.thread, post.reply_to) == (1, "1", "c9")
    body = post.body("T-h1-007")
    assert "bob asked for the SCORE/L" in body and "carol" in body and "[np:T-h1-007]" in body
    assert st.score_pending == [["1", "c9", "bob", "L", "1"]]  # the state is only read: the fold applies
    assert score_fold.event(ev, _state(CFG), CFG) == ()  # answered already: nothing


def test_at_an_edition_2_e_mail_table_the_answer_is_a_private_message():
    ev = DealerEvent(5, 1, score_fold.SCORE, "bob", "2026-01-01T01:00:00+00:00", data={"forum_id": "c9", "rows": ROWS})
    private = replace(CFG, private=True, players_see_thread=False, settings=replace(CFG.settings, edition=2))
    assert private.answers_privately()
    done, msg = score_fold.event(ev, _state(private, ["1", "c9", "bob", "", "1"]), private)
    assert done == ScoreAnswered("c9") and isinstance(msg, Message)
    assert (msg.hand, msg.user, msg.subject) == (None, "bob", "Standings (T)")
    # edition 1 told the whole table (issue 28's editions)
    old = replace(private, settings=replace(CFG.settings, edition=1))
    assert isinstance(score_fold.event(ev, _state(old, ["1", "c9", "bob", "", "1"]), old)[1], Post)


def test_the_score_phase_never_reaches_into_the_fold():
    """No class holding the fold, no ``self``: only functions of their arguments."""
    tree = ast.parse(Path(score_fold.__file__).read_text("utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "self"]
