"""Player names in private messages (issue 13): the deck and hole-card messages name their
player, and a name is untrusted text (a Reddit username like ``under_score_name``, or a seat
the Dealer typed). It must read literally wherever the message is rendered as Markdown: no
italics eaten from underscores, no link, no HTML. Checked with markdown-it (CommonMark), an
independent renderer, on what a reader would see."""

from __future__ import annotations

from markdown_it import MarkdownIt

from nomicpoker.core.dealing import deck_listing, issue_deck
from nomicpoker.core.htmltext import html_to_text
from nomicpoker.core.notices import hole_message

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
