"""Private advance actions (issue 14): a player sends his advance action to the Dealer's inbox
(where the forum lets the Dealer read it: the local forum), so it stays secret as WRGPT intends.
It is archived like a comment, answered privately, fires publicly at the turn, is published in
the thread when the hand ends, and ``audit`` (a replay from nothing) agrees with the polls."""

from __future__ import annotations

from sqlmodel import Session, select

from kits.tables.bot import Table
from kits.tables.game import _pm, _to_act, advance_table, order_from_turn
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.audit.public_db import export_public_db
from nomicpoker.shell.storage.store import CommentRow, open_engine
from nomicpoker.shell.storage import ledger


def _from_dealer(t: Table, who: str) -> list[str]:
    return [m.body for m in t.forum.inbox(who) if m.sender == t.forum.dealer]


def test_a_private_call_is_secret_until_it_fires_and_published_at_the_end(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    said = _pm(t, second, "CALL *")
    assert said == []  # nothing in the thread
    assert any("advance action: CALL" in b for b in _from_dealer(t, second))
    v = [v for v in t.verdicts() if v.author == second][-1]
    assert v.status == "accepted" and "CALL" not in v.canonical + v.message  # the ledger keeps no words
    said = t.act(first, "raise 6")
    assert any(f"{second} (advance action): calls " in b for b in said), said
    t.act(third, "fold")
    said = t.act(_to_act(t), "fold")  # heads-up on the flop: a fold ends the hand
    published = [b for b in said if "Advance actions sent privately in hand 1" in b]
    assert published, said
    assert f"{second} at " in published[0] and "CALL \\*" in published[0]
    assert audit(t.engine, t.state)[1] == []


def test_an_uncontested_end_publishes_it_and_audit_is_identical(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    _pm(t, second, "FOLD/R")
    _pm(t, third, "IF/N=2 FOLD ELSE CALL *")
    said = t.act(first, "raise 6")
    assert any(f"{second} (advance action): folds" in b for b in said), said
    assert any(f"{third} (advance action): folds" in b for b in said), said
    end = [b for b in said if "Advance actions sent privately" in b]
    assert end and "FOLD/R" in end[0] and "IF/N=2 FOLD ELSE CALL \\*" in end[0], said
    assert "asked for their cards to be shown (/R)" in end[0]
    assert audit(t.engine, t.state)[1] == []


def test_a_malformed_private_action_is_refused_privately(tmp_path):
    t = advance_table(tmp_path)
    _first, second, _third = order_from_turn(t)
    assert _pm(t, second, "IF/N=2 $100") == []
    assert any("advance_bare_amount_in_if" in b for b in _from_dealer(t, second))
    assert _pm(t, second, "hello dealer, how are you") == []
    assert any("only advance actions" in b for b in _from_dealer(t, second))


def test_a_message_for_another_table_or_from_a_stranger_is_not_archived(tmp_path):
    t = advance_table(tmp_path)
    _first, second, _third = order_from_turn(t)
    t.forum.send_private_as("mallory", t.forum.dealer, "T", "JAM")
    t.forum.send_private_as(second, t.forum.dealer, "for table other-table", "JAM")
    t.run()
    with Session(t.engine) as s:
        rows = s.exec(select(CommentRow).where(CommentRow.thread == "~private")).all()
    # "for table other-table" names no table of the ledger: the sender sits only at T
    assert [r.author for r in rows] == [second]


def test_public_copy_withholds_a_private_action_until_its_hand_ends(tmp_path):
    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    _pm(t, second, "CALL/S *")
    out = tmp_path / "public.db"
    export_public_db(t.engine, out)
    with Session(open_engine(f"sqlite:///{out}")) as s:
        bodies = [r.body for r in s.exec(select(CommentRow).where(CommentRow.thread == "~private")).all()]
    assert bodies and all("CALL" not in b for b in bodies), bodies
    t.act(first, "fold")
    t.act(third, "fold")  # second wins uncontested: the hand is over
    export_public_db(t.engine, out)
    with Session(open_engine(f"sqlite:///{out}")) as s:
        bodies = [r.body for r in s.exec(select(CommentRow).where(CommentRow.thread == "~private")).all()]
        # the archive row keeps its seal; the text is published beside it (np_unsealed), and a
        # reader of the copy (no secrets folder) reads it
        assert len(bodies) == 1 and "CALL" not in bodies[0]
        assert [r.body for r in ledger.revisions(s, "T") if r.thread == "~private"] == ["CALL/S *"]


def test_the_site_shows_a_private_action_only_after_its_hand(tmp_path):
    from nomicpoker.shell.audit.site import build_site

    t = advance_table(tmp_path)
    first, second, third = order_from_turn(t)
    _pm(t, second, "RAISE/S $77")
    site = tmp_path / "site"
    build_site(t.engine, site, state=t.state)
    text = "".join(p.read_text() for p in site.rglob("*.html"))
    assert "RAISE/S $77" not in text and "shown when the hand ends" in text
    t.act(first, "fold")
    t.act(third, "fold")
    build_site(t.engine, site, state=t.state)
    text = "".join(p.read_text() for p in site.rglob("*.html"))
    assert "RAISE/S $77" in text


def test_forum_message_sends_a_private_advance_action_from_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from nomicpoker.cli import app

    t = advance_table(tmp_path)
    first, second, _third = order_from_turn(t)
    res = CliRunner().invoke(app, ["forum", "message", "--as", second, "--state", str(t.state),
                                   "--subject", "T", "CALL *"])
    assert res.exit_code == 0, res.output
    t.run()
    assert t.new_dealer() == []
    said = t.act(first, "raise 6")
    assert any(f"{second} (advance action): calls " in b for b in said), said
