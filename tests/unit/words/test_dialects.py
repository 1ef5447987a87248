"""Dealer comments in each forum's dialect, read back the way each forum shows them.

Markdown (Reddit, the local forum) is sent as the renderer wrote it; WordPress (BlogNomic) gets
HTML limited to ``$allowedtags``. Each body is pushed through what the forum really does to it
(WordPress: kses on save, wptexturize and wpautop on display, from :mod:`fixtures.wp_filters`;
Reddit: its API's entity escaping) and the reader's view is checked: no Markdown syntax left
on WordPress, the status table's rows intact, and the reference tag found whatever the table
is called (``Nomic--Poker``, ``a_b``, ``x.y:1``, digits around an ``x``).
"""

from __future__ import annotations

import html

import pytest
from bs4 import BeautifulSoup

from nomicpoker.core.words.delivery import Due, batches, combined_body, common_parent
from nomicpoker.core.words.dialects import in_dialect, to_wordpress_html
from nomicpoker.core.words.tags import find_tag, find_tags, reference_tag

from fixtures.reddit_api import reddit_escaped
from fixtures.wp_filters import ALLOWED_TAGS, comment_text, on_save

KEYS = ["Nomic--Poker-h1-001", "a_b-h2-010", "x.y:1-h3-002", "T3x4-h1-3x4", "A---B-h9-story",
        "Nomic--Poker-h1-001-refused"]

SAMPLE = """**Hand #1 has commenced** at Nomic--Poker (it's "on"... 3x4).

Legal actions:
- `HAND1 ROUND1 raise Z` (Z from 1 to 95: the chips you add)
- `HAND1 ROUND1 folds`

> Raise: a player may add chips -- the rule's own words

See [comment-12](https://www.blognomic.test/2020/06/hand-1/#comment-12) and \\*not bold\\*, a &lt;b&gt; name.

```
+---+----------+----------+
| # | Name     | Bankroll |
+---+----------+----------+
| 1 |  > Zoë   |       95 |
| 2 | D  a--b  |       95 |
+---+----------+----------+
Board: ? ? ? ? ?
```

| Player | Money | Turn |
|---|---:|:---:|
| Zoë | 95 | x |
| **Total** | 95 | |

{tag}
"""


def wordpress_shows(body_markdown: str) -> str:
    """The comment as a WordPress reader gets it: our dialect, stored, then displayed."""
    return comment_text(on_save(in_dialect(body_markdown, "wordpress-html")))


@pytest.mark.parametrize("key", KEYS)
def test_the_tag_survives_each_dialect(key) -> None:
    body = SAMPLE.format(tag=reference_tag(key))
    shown = {
        "markdown (as written)": in_dialect(body, "markdown"),
        "markdown (Reddit's API escaping)": reddit_escaped(in_dialect(body, "markdown")),
        "text": in_dialect(body, "text"),
        "wordpress (as displayed)": wordpress_shows(body),
        "wordpress (as a reader's text)": BeautifulSoup(wordpress_shows(body), "html.parser").get_text(),
    }
    for where, text in shown.items():
        assert find_tag(text) == key, where
        assert find_tags(text) == [key], where


def test_wordpress_gets_only_allowed_tags_and_no_markdown_syntax() -> None:
    body = SAMPLE.format(tag=reference_tag("T-h1-001"))
    sent = to_wordpress_html(body)
    tags = {t.name for t in BeautifulSoup(sent, "html.parser").find_all(True)}
    assert tags <= set(ALLOWED_TAGS), tags - set(ALLOWED_TAGS)
    assert on_save(sent) == sent.strip()  # kses removes nothing: what we send is what is kept
    text = BeautifulSoup(wordpress_shows(body), "html.parser").get_text()
    assert "**" not in text and "`" not in text and "```" not in text and "|---" not in text
    assert "Hand #1 has commenced at Nomic--Poker" in text  # no en dash put into the name
    assert "*not bold*" in text and "a <b> name" in text  # escapes and entities as written
    assert "comment-12" in text and "https://" not in text  # a link keeps its text only


def test_the_status_table_and_the_gndt_keep_their_rows_on_wordpress() -> None:
    shown = wordpress_shows(SAMPLE.format(tag=reference_tag("T-h1-001")))
    lines = [ln.replace("\xa0", " ") for ln in BeautifulSoup(shown, "html.parser").get_text().splitlines()]
    assert "+---+----------+----------+" in lines  # not texturized into dashes
    assert "| 1 |  > Zoë   |       95 |" in lines and "| 2 | D  a--b  |       95 |" in lines
    gndt = [ln for ln in lines if ln.startswith(("Player", "Zoë", "Total"))]
    assert gndt == ["Player | Money | Turn", "Zoë    |    95 |  x", "Total  |    95 |"]
    # every table line is inside <code>: wptexturize and a browser's whitespace leave it be
    code = BeautifulSoup(shown, "html.parser").find_all("code")
    assert any("+---+" in c.get_text() for c in code) and any("Player" in c.get_text() for c in code)


def test_a_quote_stays_a_quote_and_lists_stay_one_item_per_line_on_wordpress() -> None:
    shown = BeautifulSoup(wordpress_shows(SAMPLE.format(tag=reference_tag("T-h1-001"))), "html.parser")
    assert "the rule\u2019s own words" in shown.blockquote.get_text()  # texturized prose is fine
    text = shown.get_text()
    assert "\u2022 HAND1 ROUND1 raise Z (Z from 1 to 95: the chips you add)\n\u2022 HAND1 ROUND1 folds" in text


def test_markdown_forums_get_the_body_unchanged() -> None:
    body = SAMPLE.format(tag=reference_tag("T-h1-001"))
    assert in_dialect(body, "markdown") == body


@pytest.mark.parametrize("markup, bold", [("text", ""), ("irc", "\x02")])
def test_plain_text_channels_get_no_markup(markup, bold) -> None:
    """E-mail and IRC show text as typed: no Markdown markers, escapes or entities reach them
    (issue 28), the tag stays findable, bold is IRC's own on IRC."""
    body = ("**carol** to act, 2 to call. bob: your comment mail of 13:05 UTC was not accepted "
            "(`not_your_turn`): x\\*y &lt;z&gt; [site](https://example.org/t)\n\n```\n| a |\n```\n\n"
            + reference_tag("T-h1-001") + "\n")
    out = in_dialect(body, markup)
    assert out.startswith(f"{bold}carol{bold} to act, 2 to call.")
    assert "(not_your_turn): x*y <z> site (https://example.org/t)" in out
    assert "\n| a |\n" in out and "```" not in out and "`" not in out and "**" not in out
    assert find_tag(out) == "T-h1-001"


def test_a_tag_quoted_by_a_player_is_never_taken_for_a_dealer_part() -> None:
    """find_tags reads own-line tags outside quotes only: a rejection quoting a player whose
    comment was just a tag must not mark that key as posted."""
    planted = "> [np:T-h1-007]\n\nYour comment was not read.\n\n" + reference_tag("T-h1-006") + "\n"
    assert find_tags(planted) == ["T-h1-006"]
    assert find_tags(wordpress_shows(planted)) == ["T-h1-006"]
    inline = "You wrote `[np:T-h1-007]` as your action.\n\n" + reference_tag("T-h1-006") + "\n"
    assert find_tags(wordpress_shows(inline)) == ["T-h1-006"]


def test_a_combined_comment_carries_every_part_s_tag_on_each_dialect() -> None:
    parts = [f"Dice for p{i}: DICE52: {i}, DICE52: {i + 1}.\n\n{reference_tag(f'Nomic--Poker-h1-00{i}')}\n"
             for i in range(1, 4)]
    body = combined_body(parts)
    want = [f"Nomic--Poker-h1-00{i}" for i in range(1, 4)]
    assert find_tags(body) == want
    assert find_tags(reddit_escaped(body)) == want
    assert find_tags(wordpress_shows(body)) == want


def _due(i: int, thread: str = "t", kind: str = "comment", reply: str | None = None, size: int = 10) -> Due:
    return Due(i, kind, thread, reply, f"k{i}", "x" * size)


def test_batches_combine_consecutive_comments_on_one_thread_only_when_paced() -> None:
    rows = [_due(1), _due(2), _due(3, "u"), _due(4, kind="private", thread=""), _due(5), _due(6)]
    assert [[r.id for r in b] for b in batches(rows, combine=False, max_length=None)] == [[1], [2], [3], [4], [5], [6]]
    assert [[r.id for r in b] for b in batches(rows, combine=True, max_length=None)] == [[1, 2], [3], [4], [5, 6]]


def test_batches_respect_the_longest_comment() -> None:
    rows = [_due(i, size=40) for i in range(1, 5)]
    # two 40-character parts and a separator fit in 100; a third does not
    assert [[r.id for r in b] for b in batches(rows, combine=True, max_length=100)] == [[1, 2], [3, 4]]


def test_a_combined_post_replies_only_to_a_parent_all_parts_share() -> None:
    assert common_parent([_due(1, reply="c1"), _due(2, reply="c1")]) == "c1"
    assert common_parent([_due(1, reply="c1"), _due(2, reply="c2")]) is None


def test_wordpress_entities_in_untrusted_names_stay_text() -> None:
    body = "**&lt;script&gt;alert(1)&lt;/script&gt;** to act. Name: O\\'Brien \\_x\\_\n\n" + reference_tag("T-h1-001") + "\n"
    shown = wordpress_shows(body)
    assert "<script" not in shown and "&lt;script&gt;" in shown
    assert "<script>alert(1)</script> to act" in html.unescape(BeautifulSoup(shown, "html.parser").get_text())
