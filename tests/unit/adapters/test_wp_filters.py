"""The WordPress filter port the loopback BlogNomic runs (``fixtures/wp_filters.py``), checked
against expectations taken from WordPress's own unit tests
(wordpress-develop tests/phpunit/tests/formatting/wpTexturize.php, wpAutop.php, kses) for the
cases the port covers, so the test site is held to WordPress, not to itself."""

from __future__ import annotations

import pytest

from fixtures.wp_filters import comment_text, kses, on_save, wpautop, wptexturize

TEXTURIZE = [  # (input, what WordPress's tests expect)
    ("Hey -- boo?", "Hey &#8212; boo?"),
    ('<a href="http://xx--xx">Hey -- boo?</a>', '<a href="http://xx--xx">Hey &#8212; boo?</a>'),
    ("<pre>---&</pre>", "<pre>---&</pre>"),
    ("<code>---&</code>", "<code>---&</code>"),
    ("<kbd>---&</kbd>", "<kbd>---&</kbd>"),
    ("<tt>---&</tt>", "<tt>---&</tt>"),
    ('<code>href="baba"</code> "baba"', '<code>href="baba"</code> &#8220;baba&#8221;'),
    ('("test")', "(&#8220;test&#8221;)"),
    ("('test')", "(&#8216;test&#8217;)"),
    ("test's", "test&#8217;s"),
    ("'quoted'", "&#8216;quoted&#8217;"),
    ('"quoted"', "&#8220;quoted&#8221;"),
    ("space before 'quoted' space after", "space before &#8216;quoted&#8217; space after"),
    ("That means every moment you're working on it it's dying.",
     "That means every moment you&#8217;re working on it it&#8217;s dying."),
    ("Class of '99", "Class of &#8217;99"),
    ("14x24", "14&#215;24"),
    ("9'", "9&#8242;"),
    ('9"', "9&#8243;"),
    ("a 9' b", "a 9&#8242; b"),
    ('"12345"', "&#8220;12345&#8221;"),
    ("word---word", "word&#8212;word"),
    ("Nomic--Poker", "Nomic&#8211;Poker"),
    ("a - b", "a &#8211; b"),
    ("wait...", "wait&#8230;"),
]


@pytest.mark.parametrize("raw, expected", TEXTURIZE)
def test_wptexturize_matches_wordpress_s_own_tests(raw, expected) -> None:
    assert wptexturize(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("foo", "<p>foo</p>"),
    ("foo\nbar", "<p>foo<br />\nbar</p>"),
    ("foo\n\nbar", "<p>foo</p>\n<p>bar</p>"),
])
def test_wpautop_paragraphs_and_line_breaks(raw, expected) -> None:
    assert wpautop(raw).strip() == expected


@pytest.mark.parametrize("raw, kept", [
    ("<b>bold</b> <strong>s</strong> <em>e</em> <i>i</i> <code>c</code>", "<b>bold</b> <strong>s</strong> <em>e</em> <i>i</i> <code>c</code>"),
    ("<p>para</p><br /><pre>x</pre><table><tr><td>t</td></tr></table><ul><li>l</li></ul>", "paraxtl"),
    ('<a href="javascript:alert(1)" onclick="x" title="t">l</a>', '<a href="alert(1)" title="t">l</a>'),
    ("<script>alert(1)</script>", "alert(1)"),
    ("a > b", "a &gt; b"),
    ("fish & chips &amp; &copy; &bogus;", "fish &amp; chips &amp; &copy; &amp;bogus;"),
    ("<blockquote cite=\"u\" class=\"quote\">q</blockquote>", '<blockquote cite="u">q</blockquote>'),
])
def test_kses_keeps_only_wordpress_s_allowed_comment_tags(raw, kept) -> None:
    assert kses(raw) == kept


def test_wpautop_leaves_a_blockquote_a_block_with_its_paragraph_inside() -> None:
    assert wpautop("<blockquote>quoted</blockquote>\nafter").strip() == "<blockquote><p>quoted</p></blockquote>\n<p>after</p>"


def test_an_unfinished_tag_swallows_the_rest_as_wordpress_does() -> None:
    assert kses("raise 5 <and the rest") == "raise 5 "


def test_what_the_issue_saw_markdown_shows_literally_and_tables_turn_into_dashes() -> None:
    """The defect the WordPress dialect fixes, reproduced on the port: raw Markdown on
    WordPress shows its asterisks and its table rules become dashes."""
    shown = comment_text(on_save("**Hand #1 has commenced**\n\n+---+---+\n|---|---|"))
    assert "**Hand #1 has commenced**" in shown
    assert "+&#8212;+&#8212;+" in shown and "|&#8212;|&#8212;|" in shown
