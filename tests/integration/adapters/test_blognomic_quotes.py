"""Whatever shows as a quote on BlogNomic never acts: BeautifulSoup decides, on the page as the
real theme renders it, and the Dealer's reading must agree.

Each comment is typed as a player would (kses keeps ``blockquote`` and ``q``, strips their
classes; wptexturize and wpautop reshape the text) and read back through the adapter. An
independent reader, BeautifulSoup's tree of the whole page (as a browser nests it: an unclosed
``blockquote`` runs to the end of the comment's ``div.content``), says which words sit inside a
quote; the Dealer's reading (:func:`nomicpoker.core.reading.markup.visible_text`) must contain none of
them, and must still contain the words outside quotes.
"""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from pytest_httpserver import HTTPServer

from nomicpoker.adapters.blog.forum import BlogNomicForum, Credentials
from nomicpoker.adapters.blog.http import PageCache, PoliteSession
from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.core.reading.markup import visible_text

from fixtures.wp_theme_site import BASE, THREAD, WordPressSite, serve

QUOTED = "HAND1 ROUND1 raise 90"
OWN = "HAND1 ROUND1 call"

COMMENTS = [
    f"<blockquote>{QUOTED}</blockquote>{OWN}",
    f"<q>{QUOTED}</q> said Kevan. {OWN}",
    f"{OWN}\n\n<blockquote>outer <blockquote>{QUOTED}</blockquote> outer again</blockquote>",
    f"<blockquote class=\"not-a-quote\" style=\"display:block\">{QUOTED}</blockquote>\n{OWN}",
    f"{OWN}\n\n<blockquote>{QUOTED}",  # never closed: the quote runs to the end of the comment
    f"{OWN} <q cite=\"x\">{QUOTED.replace(' ', ' -- ')}</q>",
    f"<blockquote><strong>{QUOTED}</strong></blockquote>\n\n<em>{OWN}</em>",
]


@pytest.fixture
def site_and_forum(httpserver: HTTPServer, monkeypatch):
    site = WordPressSite()
    site.member("pokerbot", "pw", "Poker Dealer")
    site.member("zoe", "pw", "Zoë")
    base = serve(httpserver, site, monkeypatch)
    http = PoliteSession(delay=0, backoff=0, cache=PageCache(None), sleep=lambda s: None)
    forum = BlogNomicForum(base, load_profile("wordpress"), http=http,
                           credentials=lambda: Credentials("pokerbot", "pw", "test"), dealer="Poker Dealer")
    return site, forum


def _words(text: str) -> str:
    return " ".join(text.replace("\u2013", "--").replace("\u2014", "--").split())


@pytest.mark.parametrize("typed", COMMENTS)
def test_what_beautifulsoup_sees_quoted_on_the_rendered_page_never_acts(site_and_forum, typed) -> None:
    site, forum = site_and_forum
    c = site.add("zoe", typed)
    page = BeautifulSoup(site.page(1, None), "html.parser")
    content = page.select_one(f"li#comment-{c.id} div.content")
    quoted = _words(" ".join(q.get_text(" ") for q in content.find_all(["blockquote", "q"])))
    outside = content.__copy__()
    for q in outside.find_all(["blockquote", "q"]):
        q.decompose()
    assert "raise" in quoted and "90" in quoted  # the quote is a quote on the page
    (read,) = forum.list_comments(BASE + THREAD)
    seen = _words(visible_text(read.body, read.body_format))
    assert "raise" not in seen and "90" not in seen, seen
    assert "call" in _words(outside.get_text(" ")) and OWN in seen
