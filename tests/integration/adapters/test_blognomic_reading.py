"""Reading BlogNomic's real theme: one page for the whole thread, read as the public sees it,
and the login cookie scoped as extra-config.php scopes it."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

from nomicpoker.adapters.blog.forum import BlogNomicForum, Credentials
from nomicpoker.adapters.blog.http import PageCache, PoliteSession
from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.adapters.registry import declared_abilities
from nomicpoker.ports import ForumError

from fixtures.wp_theme_site import BASE, THREAD, WordPressSite, cookie_domain, serve


def make(httpserver: HTTPServer, monkeypatch, **site_kw):
    site = WordPressSite(**site_kw)
    site.member("pokerbot", "pw", "Poker Dealer")
    site.member("kevan", "pw", "Kevan")
    base = serve(httpserver, site, monkeypatch)
    http = PoliteSession(delay=0, backoff=0, cache=PageCache(None), sleep=lambda s: None)
    forum = BlogNomicForum(base, load_profile("wordpress"), http=http,
                           credentials=lambda: Credentials("pokerbot", "pw", "test"))
    return site, forum


def test_every_comment_comes_from_the_first_page_alone(httpserver: HTTPServer, monkeypatch) -> None:
    site, forum = make(httpserver, monkeypatch, per_page=3)
    made = [site.add("kevan", f"comment {i}") for i in range(10)]
    assert "comment-page-2" in site.page(1, None)  # the theme links four comment pages ...
    got = forum.list_comments(BASE + THREAD)
    assert [c.id for c in got] == [str(c.id) for c in made]
    assert [p for m, p in site.requests if m == "GET"] == [THREAD]  # ... and one is read


def test_a_held_dealer_comment_is_not_read_as_posted_though_its_author_would_see_it(httpserver: HTTPServer, monkeypatch) -> None:
    site, forum = make(httpserver, monkeypatch)
    site.add("kevan", "HAND1 ROUND1 raise 5")
    with pytest.raises(ForumError) as err:  # the account's first comment is held
        forum.post_comment(BASE + THREAD, "Hello <code>[np:T-h1-001]</code>", tag="T-h1-001")
    assert err.value.code == "held" and err.value.remote_id == str(site.comments[-1].id)
    logged_in_page = site.page(1, site.users["pokerbot"])
    assert f"comment-{site.comments[-1].id}" in logged_in_page  # Timber shows it to its author
    assert forum.find_comment_with(BASE + THREAD, "T-h1-001") is None  # the public does not see it
    assert [c.author for c in forum.list_comments(BASE + THREAD)] == ["Kevan"]


def test_the_login_cookie_is_scoped_to_the_site_s_two_last_labels(httpserver: HTTPServer, monkeypatch) -> None:
    site, forum = make(httpserver, monkeypatch)
    forum.check()
    domains = {c.name: c.domain for c in forum.http.session.cookies}
    assert domains["wordpress_test_cookie"] == cookie_domain("www.blognomic.test") == ".blognomic.test"
    assert any(n.startswith("wordpress_logged_in_") and d == ".blognomic.test" for n, d in domains.items())
    assert site.logins[0]["cookies"].get("wordpress_test_cookie") == "WP Cookie check"  # sent back
    assert not list(forum.http.public.cookies)  # pages are read without it


def test_the_wordpress_profile_declares_bot_dice_paced_html_and_moderation() -> None:
    a = declared_abilities("blognomic", {"base_url": BASE + "/"})
    assert (a.dice, a.markup, a.min_post_interval, a.moderation, a.display_names) == (
        "bot", "wordpress-html", 15.0, True, True)
    assert declared_abilities("blognomic", {"profile": "expressionengine"}).dice == "forum"
