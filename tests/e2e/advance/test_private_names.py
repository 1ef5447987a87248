"""Player names in private messages (issue 13): the deck and hole-card messages name their
player, and a name is untrusted text (a Reddit username like ``under_score_name``, or a seat
the Dealer typed). It must read literally wherever the message is rendered as Markdown: no
italics eaten from underscores, no link, no HTML. Checked with markdown-it (CommonMark), an
independent renderer, on what a reader would see."""

from __future__ import annotations

from markdown_it import MarkdownIt

from nomicpoker.core.words.notices import deck_listing
from nomicpoker.core.fairness.dealing import issue_deck
from nomicpoker.core.reading.htmltext import html_to_text
from nomicpoker.core.words.notices import hole_message

from _paths import ROOT

NAMES = ["under_score_name", "*star*", "__dunder__", "[x](http://evil.example/)", "<b>bold</b>",
         "a|b", "`tick`", "~~gone~~", "&amp;", "#1"]


def test_a_players_name_reads_literally_in_the_deck_and_hole_card_messages() -> None:
    md = MarkdownIt("commonmark")
    for name in NAMES:
        for body in (deck_listing(issue_deck(b"k" * 32, 1, name)), hole_message(name, 1, ["As", "Kd"])):
            first = body.splitlines()[0]
            html = md.render(first)
            assert name in html_to_text(html), (name, first, html)
            assert not any(tag in html for tag in ("<a ", "<em>", "<strong>", "<b>", "<code>", "<h1>")), html


# --------------------------------------------------------------------------- every private message

import ast  # noqa: E402

from nomicpoker.core.words import days_notices, render  # noqa: E402
from nomicpoker.core.fold.advance_private import unnamed_answer  # noqa: E402

CORE = ROOT / "nomicpoker" / "core"

#: every place the fold sends a private message (module, the function it is sent from), and
#: how this file checks the names in it: a new kind fails the inventory until it is covered
SENT_FROM = {
    ("adjudicator", "reject"): "rejection (e-mail tables answer privately): render.rejection",
    ("adjudicator", "start"): "deck and hole cards: deck_listing, hole_message",
    ("advance_private", "unnamed"): "unnamed_answer",
    ("over_days", "_gone"): "days_notices.vacation_private",
    ("over_days", "_back"): "back from a vacation the table never heard of (e-mail): a plain sentence",
    ("score_fold", "event"): "SCORE's standings, answered privately on e-mail: the code-block table",
    ("over_days", "_protest"): "days_notices.protest_private",
    ("over_days", "_what"): "days_notices.what_private",
    ("over_days", "reminder"): "days_notices.reminder_private",
    ("advance_private", "reply"): "the advance-action answers: the game below",
    ("advance_fold", "_tell"): "an advance action that did not act: the game below",
}


def _senders() -> set[tuple[str, str]]:
    """Where a private message is made: a ``send_private`` call, or a phase written without a
    hub returning a ``Message`` effect (:mod:`nomicpoker.core.fold.effects`, whose ``apply``
    only delivers what the phases made)."""
    found = set()
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name != "send_private":
                if (path.stem, fn.name) == ("effects", "apply"):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) == "send_private"
                                                       or getattr(node.func, "id", None) == "Message"):
                        found.add((path.stem, fn.name))
    return found


def test_every_kind_of_private_message_is_in_the_inventory() -> None:
    assert _senders() == set(SENT_FROM)


def _reads_literally(body: str, names: list[str]) -> None:
    html = MarkdownIt("commonmark").render(body)
    text = html_to_text(html)
    for name in names:
        assert name in text, (name, body, html)
    assert not any(tag in html for tag in ("<a ", "<em>", "<strong>", "<b>", "<h1>", "<script")), (body, html)


def test_each_private_message_builder_shows_every_name_as_typed() -> None:
    for name in NAMES:
        other = "T_a_b_"
        _reads_literally(days_notices.reminder_private(name, other, 3, "act", "2026-01-01 *soon*"), [name, other])
        _reads_literally(days_notices.protest_private(name, other, "1#c_2_", "*unfair* <b>x</b>"),
                         [name, other, "*unfair* <b>x</b>"])
        _reads_literally(days_notices.vacation_private(name), [name])
        _reads_literally(days_notices.what_private(name, other, 3, ["As", "Kd"], None, [3, 4]), [name, other])
        _reads_literally(unnamed_answer(name, "2026-01-01", ["a", "b"], [], False)[1], [name])
        _reads_literally(render.rejection(name, "c_1_", "bad", "a *message*", "", key="k"), [name])


def test_the_advance_action_answers_name_the_player_as_typed(tmp_path) -> None:
    """Every private answer a game gives about advance actions, at a table whose players are
    named with Markdown and HTML: accepted, withdrawn, refused, not an advance action, and one
    that did not act at its turn."""
    from kits.tables.bot import Table
    from kits.tables.game import _to_act, order_from_turn

    players = ("<b>al</b>", "bo_b_", "*carol*")
    t = Table(tmp_path, players=players, ruleset="roberts-nlhe", issue_decks=False, settings={"reminders": 0})
    t.start(ante=0, blinds=(1, 2))
    first, second, _third = order_from_turn(t)
    for body in ("CALL *", "UNDO", "IF/N=2 $100", "hello dealer", "CHECK"):
        t.forum.send_private_as(second, t.forum.dealer, "advance (T)", body)
        t.run()
    t.act(first, "raise 6")  # second's CHECK cannot act against a raise: he is told privately
    assert _to_act(t) == second
    got = [m.body for m in t.forum.inbox(second) if m.sender == t.forum.dealer]
    assert len(got) >= 7, got  # hole cards, five answers, the advance action that did not act
    assert any("did not act" in b for b in got) and any("withdrawn" in b for b in got), got
    for body in got:  # each names the player, except the one about the action that did not act
        _reads_literally(body, [] if "did not act" in body else [second])
