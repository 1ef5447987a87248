"""The BlogNomic adapter against real HTTP on loopback (pytest-httpserver).

Two fake sites serve markup the way the real platforms do: the 2020 WordPress theme
(blognomic/blognomic-theme views/comment.twig and views/comments.twig, WordPress's
wp-login.php, comment form, comment navigation and wp_die pages), and ExpressionEngine (the
member login form, a {exp:comment:entries} loop, the {exp:comment:form} form and EE's error
message page). Expected values come from what the fake site holds, never from the adapter.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import datetime, timezone
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pytest_httpserver import HTTPServer

from nomicpoker.ports import Forum, ForumError
from nomicpoker.adapters.blog.forum import BlogNomicForum, Credentials, load_credentials
from nomicpoker.adapters.blog.http import PageCache, PoliteSession
from nomicpoker.adapters.registry import open_forum
from nomicpoker.adapters.blog.siteprofile import load_profile

from _paths import ROOT
from fixtures.blog_sites import (  # tests/ is on sys.path (pyproject.toml: pythonpath)
    EE_ENTRY, PAGED_PROFILE, PASSWORD, THREAD, USER, Site, conditional, serve_ee, serve_wordpress, wp_page,
)


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make_forum(base: str, profile: str = PAGED_PROFILE, *, password: str = PASSWORD, **kw) -> BlogNomicForum:
    sleeps = kw.pop("sleeps", None)
    http = PoliteSession(
        agent=kw.pop("agent", "nomicpoker-tests (contact: dealer@example.org)"),
        delay=0, backoff=0, max_retries=kw.pop("max_retries", 3),
        cache=PageCache(kw.pop("cache_dir", None)), sleep=sleeps if sleeps is not None else (lambda s: None),
    )
    return BlogNomicForum(
        base + "/", load_profile(profile), http=http,
        credentials=lambda: Credentials(USER, password, "test"), **kw,
    )


def text_of(body_html: str) -> str:
    return BeautifulSoup(body_html, "html.parser").get_text(" ", strip=True)


@pytest.fixture
def wp(httpserver: HTTPServer):
    site = Site()
    base = serve_wordpress(httpserver, site)
    return site, base


# -- reading (WordPress) --------------------------------------------------------------------


def test_wordpress_comments_with_nested_replies_come_oldest_first_with_parents(wp) -> None:
    site, base = wp
    a = site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    b = site.add("Josh", "<p>HAND1 ROUND1 call</p>")
    r = site.add("Clucky", "<p>replying to Kevan</p>", parent=a.id)
    forum = make_forum(base)
    got = forum.list_comments(THREAD)
    assert [c.id for c in got] == [str(a.id), str(b.id), str(r.id)]
    assert [c.author for c in got] == ["Kevan", "Josh", "Clucky"]
    assert got[2].parent_id == str(a.id) and got[0].parent_id is None
    assert got[0].created == datetime.fromtimestamp(a.time, tz=timezone.utc)
    assert got[0].body_format == "html"
    assert text_of(got[0].body) == "HAND1 ROUND1 raise 10"
    assert got[0].permalink.endswith(f"{THREAD}#comment-{a.id}")
    assert isinstance(forum, Forum)


def test_wordpress_entities_blockquotes_and_non_ascii_names_survive(wp) -> None:
    site, base = wp
    site.add("Ørjan & Zoë", "<blockquote><p>HAND1 ROUND1 raise 10</p></blockquote>\n<p>Kevan&#8217;s raise &amp; my call: HAND1 ROUND1 call</p>")
    (c,) = make_forum(base).list_comments(THREAD)
    assert c.author == "Ørjan & Zoë"
    doc = BeautifulSoup(c.body, "html.parser")
    assert doc.blockquote is not None and doc.blockquote.get_text(strip=True) == "HAND1 ROUND1 raise 10"
    assert "Kevan\u2019s raise & my call: HAND1 ROUND1 call" in doc.get_text()


def test_wordpress_comment_pages_are_all_followed_once(wp, httpserver: HTTPServer) -> None:
    site, base = wp
    site.per_page = 2
    made = [site.add(f"p{i}", f"<p>c{i}</p>") for i in range(5)]
    forum = make_forum(base)
    got = forum.list_comments(THREAD)
    assert [c.id for c in got] == [str(c.id) for c in made]
    paths = [req.path for req, _ in httpserver.log]
    assert sorted(paths) == sorted([THREAD, f"{THREAD}comment-page-2/", f"{THREAD}comment-page-3/", f"{THREAD}comment-page-1/"])
    assert len(paths) == len(set(paths))


def test_wordpress_edit_shows_as_a_changed_body_and_deletion_as_a_gone_comment(wp) -> None:
    site, base = wp
    a = site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    b = site.add("Josh", "<p>HAND1 ROUND1 call</p>")
    forum = make_forum(base)
    forum.list_comments(THREAD)
    a.html = "<p>HAND1 ROUND1 raise 20</p>"
    site.comments.remove(b)
    site.version += 1
    got = make_forum(base).list_comments(THREAD)
    assert [c.id for c in got] == [str(a.id)]
    assert text_of(got[0].body) == "HAND1 ROUND1 raise 20"


def test_unchanged_page_is_revalidated_with_etag_and_served_from_cache_on_304(wp, httpserver, tmp_path) -> None:
    site, base = wp
    site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    first = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    # a new run (new adapter) with the on-disk cache
    second = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    assert second == first
    (req1, resp1), (req2, resp2) = httpserver.log
    assert req1.headers.get("If-None-Match") is None
    assert req2.headers.get("If-None-Match") == f'"v{site.version}"'
    assert resp2.status_code == 304
    assert oct(os.stat(next(tmp_path.iterdir())).st_mode & 0o777) == "0o600"


def test_a_server_with_only_last_modified_is_revalidated_with_if_modified_since(httpserver: HTTPServer, tmp_path) -> None:
    """Issue 5: conditional requests "(ETag, If-Modified-Since) where the server supports them".
    This server sends no ETag, only Last-Modified, and answers 304 to a matching
    If-Modified-Since; a changed page (a new Last-Modified) is fetched in full."""
    from werkzeug import Response

    site = Site()
    site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    base = httpserver.url_for("").rstrip("/")
    stamp = {"v": "Sat, 21 Nov 2026 10:00:00 GMT"}

    def handler(request):
        if request.headers.get("If-Modified-Since") == stamp["v"]:
            return Response(status=304, headers={"Last-Modified": stamp["v"]})
        return Response(wp_page(site, base, 1, False), content_type="text/html; charset=UTF-8",
                        headers={"Last-Modified": stamp["v"]})

    httpserver.expect_request(THREAD).respond_with_handler(handler)
    first = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    second = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    assert [c.author for c in first] == ["Kevan"] and second == first
    site.add("Josh", "<p>HAND1 ROUND1 call</p>")
    stamp["v"] = "Sat, 21 Nov 2026 10:05:00 GMT"
    third = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    assert [c.author for c in third] == ["Kevan", "Josh"]
    (r1, p1), (r2, p2), (r3, p3) = httpserver.log
    assert r1.headers.get("If-Modified-Since") is None and r1.headers.get("If-None-Match") is None
    assert r2.headers.get("If-Modified-Since") == "Sat, 21 Nov 2026 10:00:00 GMT"
    assert r2.headers.get("If-None-Match") is None  # no ETag was ever sent: none is invented
    assert (p1.status_code, p2.status_code, p3.status_code) == (200, 304, 200)


def test_a_server_without_validators_is_fetched_in_full_each_time(wp, httpserver, tmp_path) -> None:
    site, base = wp
    site.etag_support = False
    site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    again = make_forum(base, cache_dir=tmp_path).list_comments(THREAD)
    assert [c.author for c in again] == ["Kevan"]
    (r1, p1), (r2, p2) = httpserver.log
    assert r2.headers.get("If-None-Match") is None and r2.headers.get("If-Modified-Since") is None
    assert p2.status_code == 200


def test_requests_carry_a_descriptive_user_agent(wp, httpserver) -> None:
    site, base = wp
    make_forum(base, agent="nomicpoker/0.1 (contact: dealer@example.org)").list_comments(THREAD)
    assert "dealer@example.org" in httpserver.log[0][0].headers["User-Agent"]


def test_dice_rolled_by_the_site_are_read_into_the_comment(wp) -> None:
    site, base = wp
    site.add("Kevan", '<p>HAND#1 DICE52 DICE52</p><p><span class="dice">DICE52: 17</span> <span class="dice">DICE52: 40</span></p>')
    site.add("Josh", "<p>HAND1 ROUND1 call 20</p>")
    first, second = make_forum(base).list_comments(THREAD)
    assert first.dice == (17, 40)
    assert second.dice == ()


def test_429_then_503_then_success_backs_off_honouring_retry_after(httpserver: HTTPServer) -> None:
    site = Site()
    site.add("Kevan", "<p>hi</p>")
    base = httpserver.url_for("").rstrip("/")
    httpserver.expect_ordered_request(THREAD).respond_with_data("slow down", status=429, headers={"Retry-After": "7"})
    httpserver.expect_ordered_request(THREAD).respond_with_data("busy", status=503)
    httpserver.expect_ordered_request(THREAD).respond_with_handler(lambda r: conditional(r, site, wp_page(site, base, 1, False)))
    sleeps = Sleeps()
    got = make_forum(base, sleeps=sleeps).list_comments(THREAD)
    assert [c.author for c in got] == ["Kevan"]
    assert sleeps[0] == 7  # Retry-After honoured
    assert len(httpserver.log) == 3


def test_persistent_5xx_gives_up_with_a_retryable_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request(THREAD).respond_with_data("down", status=503)
    base = httpserver.url_for("").rstrip("/")
    with pytest.raises(ForumError) as err:
        make_forum(base, max_retries=2).list_comments(THREAD)
    assert err.value.code == "http" and err.value.retry
    assert len(httpserver.log) == 3


def test_unreachable_site_is_a_network_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ForumError) as err:
        make_forum(f"http://127.0.0.1:{port}").list_comments(THREAD)
    assert err.value.code == "network" and err.value.retry


def test_markup_the_profile_does_not_fit_is_a_parse_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request(THREAD).respond_with_data('<ol><li class="comment" id="c-1">x</li></ol>', content_type="text/html")
    with pytest.raises(ForumError) as err:
        make_forum(httpserver.url_for("").rstrip("/")).list_comments(THREAD)
    assert err.value.code == "parse"


# -- logging in and posting (WordPress) ------------------------------------------------------


def test_wordpress_login_and_post_submit_every_hidden_field_with_the_session_cookie(wp, httpserver) -> None:
    site, base = wp
    k = site.add("Kevan", "<p>HAND1 ROUND1 check</p>")
    forum = make_forum(base)
    assert forum.list_comments(THREAD)
    new_id = forum.post_comment(THREAD, "Rejected: no check in round 1 [np:h1-3]", reply_to=str(k.id))
    (login,) = site.logins
    assert login["form"]["log"] == USER and login["form"]["pwd"] == PASSWORD
    assert login["form"]["testcookie"] == "1" and login["form"]["redirect_to"] == f"{base}/wp-admin/"
    assert login["form"]["rememberme"] == "forever" and login["form"]["wp-submit"] == "Log In"
    assert "wordpress_test_cookie" in login["cookies"]
    (post,) = site.posts
    assert post["comment"] == "Rejected: no check in round 1 [np:h1-3]"
    assert post["comment_post_ID"] == "4242"
    assert post["comment_parent"] == str(k.id)
    assert post["_wp_unfiltered_html_comment"] == "0d870b4a3f"
    assert post["submit"] == "Post Comment"
    assert any(c.startswith("wordpress_logged_in_") for c in site.post_cookies[0])
    assert new_id == str(site.comments[-1].id)
    assert forum.find_comment_with(THREAD, "[np:h1-3]") == new_id
    assert "/wp-admin/" not in [req.path for req, _ in httpserver.log]  # the dashboard is not loaded


def test_find_comment_with_sees_only_dealer_comments_on_the_page(wp) -> None:
    site, base = wp
    site.add("Kevan", "<p>the dealer said [np:h1-3]</p>")
    d = site.add(USER, "<p>Turn: Josh to act <code>[np:h1-3]</code></p>")
    forum = make_forum(base)
    assert forum.find_comment_with(THREAD, "[np:h1-3]") == str(d.id)
    assert forum.find_comment_with(THREAD, "[np:h1-9]") is None


def test_find_comment_with_reads_the_tag_back_through_wordpress_texturize(wp) -> None:
    site, base = wp
    # a dealer comment quoting an older tag first: only the tag it ends with is its own
    site.add(USER, "<p>As <code>[np:T-h1-003]</code> said: Josh to act</p>\n<p><code>[np:T-h1-004]</code></p>")
    # wptexturize turned the key's hyphens into en dashes; the brackets came back as entities
    d = site.add(USER, "<p>Josh to act</p>\n<p><code>&#91;np:T&#8211;h1&#8211;003&#93;</code></p>")
    forum = make_forum(base)
    assert forum.find_comment_with(THREAD, "[np:T-h1-003]") == str(d.id)
    assert forum.find_comment_with(THREAD, "[np:T-h1-00]") is None


def test_failed_login_says_what_the_site_said_and_never_the_password(wp) -> None:
    site, base = wp
    with pytest.raises(ForumError) as err:
        make_forum(base, password="wrong-pässword").post_comment(THREAD, "hello")
    assert err.value.code == "login_failed"
    assert "is incorrect" in err.value.message
    assert "wrong-pässword" not in str(err.value)
    assert site.posts == []


def test_login_that_sets_no_session_cookie_is_a_failed_login(wp) -> None:
    site, base = wp
    site.login_answer = "no_cookie"
    with pytest.raises(ForumError) as err:
        make_forum(base).post_comment(THREAD, "hello")
    assert err.value.code == "login_failed" and "wordpress_logged_in_" in err.value.message
    assert site.posts == []


def test_duplicate_comment_refusal_is_reported_with_the_sites_words(wp) -> None:
    site, base = wp
    site.post_answer = "duplicate"
    with pytest.raises(ForumError) as err:
        make_forum(base).post_comment(THREAD, "Turn: Josh [np:h1-4]")
    assert err.value.code == "comment_refused"
    assert "Duplicate comment detected" in err.value.message


def test_comment_held_for_moderation_is_not_reported_as_sent(wp) -> None:
    site, base = wp
    site.post_answer = "moderation"
    with pytest.raises(ForumError) as err:
        make_forum(base).post_comment(THREAD, "Turn: Josh [np:h1-4]")
    # held, not refused: the outbox records it held with the id the redirect named
    assert err.value.code == "held" and "moderation" in err.value.message
    assert err.value.remote_id == str(site.made + 100) and not err.value.permanent


def test_check_tries_connection_and_login_without_posting(wp) -> None:
    site, base = wp
    rows = make_forum(base).check()
    assert [(what, ok) for what, ok, _ in rows] == [
        ("site profile", True), ("user agent", True), ("connection", True), ("credentials", True),
        ("login", True), ("shown name", True),
    ]
    assert rows[-1][2] == f"the site shows {USER} as {USER!r} on comments; the Dealer's own comments are recognised by that name"
    bad = make_forum(base, password="nope").check()
    assert bad[-1][0] == "login" and bad[-1][1] is False
    assert site.posts == []
    assert all(PASSWORD not in detail for _, _, detail in rows + bad)


def test_create_thread_and_private_messages_are_not_supported(wp) -> None:
    _, base = wp
    forum = make_forum(base)
    for call in (lambda: forum.create_thread("t", "b"), lambda: forum.send_private("a", "s", "b")):
        with pytest.raises(ForumError) as err:
            call()
        assert err.value.code == "not_supported"


@pytest.fixture
def ee(httpserver: HTTPServer):
    site = Site()
    base = serve_ee(httpserver, site)
    return site, base


def test_expressionengine_comments_with_edit_marker_entities_and_non_ascii_names(ee) -> None:
    site, base = ee
    a = site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    b = site.add("Ørjan", "<blockquote>HAND1 ROUND1 raise 10</blockquote><p>Tom &amp; Jerry&#8217;s call</p>")
    a.edited = a.time + 300
    got = make_forum(base, "expressionengine").list_comments(EE_ENTRY)
    assert [c.id for c in got] == [str(a.id), str(b.id)]
    assert [c.author for c in got] == ["Kevan", "Ørjan"]
    assert got[0].edited == datetime.fromtimestamp(a.edited, tz=timezone.utc)
    assert got[1].edited is None
    assert got[1].created == datetime.fromtimestamp(b.time, tz=timezone.utc)
    assert "Tom & Jerry\u2019s call" in text_of(got[1].body)
    assert "<blockquote>" in got[1].body


def test_expressionengine_pagination_is_followed(ee) -> None:
    site, base = ee
    site.per_page = 2
    made = [site.add(f"p{i}", f"<p>c{i}</p>") for i in range(5)]
    got = make_forum(base, "expressionengine").list_comments(EE_ENTRY)
    assert [c.id for c in got] == [str(c.id) for c in made]


def test_expressionengine_login_and_post_send_xid_and_every_hidden_field(ee) -> None:
    site, base = ee
    site.add("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    forum = make_forum(base, "expressionengine")
    new_id = forum.post_comment(EE_ENTRY, "Turn: Josh to act [np:h1-2]")
    (login,) = site.logins
    assert login["form"] == {"ACT": "10", "RET": f"{base}/", "site_id": "1", "XID": "a1b2c3d4",
                             "username": USER, "password": PASSWORD, "auto_login": "1", "submit": "Submit"}
    (post,) = site.posts
    assert post == {"ACT": "15", "RET": f"{base}{EE_ENTRY}", "URI": "archive/hand-1", "PRV": "",
                    "XID": "7f3c9a0d1e", "entry_id": "9876", "site_id": "1",
                    "comment": "Turn: Josh to act [np:h1-2]", "submit": "Submit"}
    assert site.post_cookies[0].get("exp_sessionid") == "sess-1"
    assert new_id == str(site.comments[-1].id)
    assert forum.find_comment_with(EE_ENTRY, "[np:h1-2]") == new_id


def test_expressionengine_post_landing_on_a_later_comment_page_is_found_by_its_tag(ee) -> None:
    site, base = ee
    site.per_page = 2
    for i in range(3):
        site.add(f"p{i}", f"<p>c{i}</p>")
    site.add(USER, "<p>an older dealer comment <code>[np:h1-1]</code></p>")  # page 2, not on the form's page
    forum = make_forum(base, "expressionengine")
    new_id = forum.post_comment(EE_ENTRY, "Turn: Josh to act `[np:h1-2]`", tag="h1-2")
    assert new_id == str(site.comments[-1].id)  # the fifth comment: page 3 of 3
    assert forum.find_comment_with(EE_ENTRY, "[np:h1-2]") == new_id


def test_expressionengine_failed_login_reports_the_error_page(ee) -> None:
    site, base = ee
    with pytest.raises(ForumError) as err:
        make_forum(base, "expressionengine", password="bad").post_comment(EE_ENTRY, "x")
    assert err.value.code == "login_failed"
    assert "username and password you submitted are invalid" in err.value.message


def test_expressionengine_refused_comment_reports_the_error_page(ee) -> None:
    site, base = ee
    site.post_answer = "duplicate"
    with pytest.raises(ForumError) as err:
        make_forum(base, "expressionengine").post_comment(EE_ENTRY, "x [np:1]")
    assert err.value.code == "comment_refused"
    assert "only allowed to post comments every 60 seconds" in err.value.message


# -- configuration and credentials -------------------------------------------------------------


def test_credentials_file_readable_by_others_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "bn.toml"
    f.write_text(f'user = "{USER}"\npassword = "{PASSWORD}"\n')
    f.chmod(0o644)
    with pytest.raises(ForumError) as err:
        load_credentials(str(f))
    assert err.value.code == "config" and "chmod 600" in err.value.message
    assert PASSWORD not in str(err.value)
    f.chmod(0o600)
    creds = load_credentials(str(f))
    assert (creds.user, creds.password) == (USER, PASSWORD)
    assert PASSWORD not in repr(creds)


def test_credentials_from_the_environment_or_a_clear_error() -> None:
    env = {"NOMICPOKER_BLOGNOMIC_USER": USER, "NOMICPOKER_BLOGNOMIC_PASSWORD": PASSWORD}
    assert load_credentials(None, env).user == USER
    with pytest.raises(ForumError) as err:
        load_credentials(None, {"NOMICPOKER_BLOGNOMIC_USER": USER})
    assert "NOMICPOKER_BLOGNOMIC_PASSWORD" in err.value.message


@pytest.mark.parametrize(
    ("config", "named"),
    [({}, "base_url"), ({"base_url": "ftp://x"}, "base_url"), ({"base_url": "https://x/", "delay": "2"}, "delay"),
     ({"base_url": "https://x/", "profile": "drupal"}, "drupal"), ({"base_url": "https://x/", "colour": 1}, "colour")],
)
def test_registry_names_the_bad_blognomic_key(tmp_path, config, named) -> None:
    with pytest.raises(ForumError) as err:
        open_forum("blognomic", config, tmp_path)
    assert err.value.code == "config" and named in err.value.message


def test_registry_builds_a_blognomic_forum_with_a_custom_profile_file(tmp_path, wp) -> None:
    site, base = wp
    site.add("Kevan", "<p>hi</p>")
    text = (ROOT / "adapters" / "blog" / "profiles" / "wordpress.toml").read_text()
    custom = tmp_path / "mytheme.toml"
    custom.write_text(text.replace('name = "wordpress"', 'name = "mytheme"'))
    forum = open_forum("blognomic", {"base_url": base + "/", "profile": str(custom), "delay": 0, "dealer": USER}, tmp_path)
    assert forum.profile.name == "mytheme"
    assert [c.author for c in forum.list_comments(THREAD)] == ["Kevan"]


def test_the_registry_built_forum_sends_a_descriptive_user_agent_with_the_contact(tmp_path, wp, httpserver) -> None:
    """Issue 5: "a descriptive User-Agent". Not one the test passes in: the one the registry
    builds from the table's config, naming the program and the Dealer's contact."""
    site, base = wp
    site.add("Kevan", "<p>hi</p>")
    config = {"base_url": base + "/", "delay": 0, "dealer": USER, "contact": "dealer@example.org"}
    open_forum("blognomic", config, tmp_path).list_comments(THREAD)
    agents = {req.headers.get("User-Agent", "") for req, _ in httpserver.log}
    assert len(agents) == 1
    (agent,) = agents
    assert "nomicpoker" in agent and "dealer@example.org" in agent
    assert not agent.startswith("python-requests")


def test_broken_profile_file_names_the_key(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text('[read]\ncomment_selector = "li"\n[login]\n[post]\n')
    with pytest.raises(ForumError) as err:
        load_profile(str(f))
    assert err.value.code == "config" and "read.id_attr" in err.value.message


def test_login_never_logs_the_password(wp, caplog) -> None:
    site, base = wp
    caplog.set_level(logging.DEBUG)
    make_forum(base).post_comment(THREAD, "hello [np:x]")
    assert PASSWORD not in caplog.text


def test_cli_forum_check_with_a_config_file_says_what_works(wp, tmp_path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from nomicpoker.cli import app

    site, base = wp
    cfg = tmp_path / "forum.toml"
    cfg.write_text(f'[forum]\nkind = "blognomic"\nbase_url = "{base}/"\ndelay = 0\nprofile = "{PAGED_PROFILE}"\n')
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    good = CliRunner().invoke(app, ["forum", "check", "--config", str(cfg), "--state", str(tmp_path)])
    assert good.exit_code == 0, good.output
    assert len([l for l in good.output.splitlines() if l.startswith("ok")]) == 7  # + the dealer name
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", "wrong-pw-123")
    bad = CliRunner().invoke(app, ["forum", "check", "--config", str(cfg), "--state", str(tmp_path)])
    assert bad.exit_code == 1
    assert any(l.startswith("FAIL login") for l in bad.output.splitlines())
    assert "wrong-pw-123" not in bad.output and PASSWORD not in bad.output
    assert site.posts == []


def test_polite_session_waits_the_configured_delay_between_requests(wp) -> None:
    site, base = wp
    sleeps = Sleeps()
    now = [100.0]
    http = PoliteSession(delay=3.0, sleep=sleeps, clock=lambda: now[0])
    http.get_page(base + THREAD)
    now[0] += 1.0  # one second later
    http.get_page(base + THREAD)
    assert sleeps == [2.0]


def test_the_poll_cycle_plays_through_the_wordpress_site(wp, tmp_path, monkeypatch) -> None:
    """The bot's own service and poll cycle, with the adapter the registry builds."""
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.jobs import poll
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.storage.store import open_engine

    site, base = wp
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"base_url": base + "/", "profile": PAGED_PROFILE, "delay": 0, "dealer": USER}
    service.create_table(engine, state, "T", ["alice", "bob", "carol"], 100, forum="blognomic",
                         forum_config=config, issue_decks=False)
    site.add("Kevan", "<p>Good luck, everyone.</p>")  # before the hand: archived, never adjudicated
    started = service.start_hand(engine, state, "T", 5, thread=base + THREAD)
    assert not started.report.error, started.report.error
    opening = len(site.posts)
    assert opening >= 1
    assert all(p["comment_post_ID"] == "4242" and p["_wp_unfiltered_html_comment"] == "0d870b4a3f" for p in site.posts)
    assert [c.author for c in site.comments[1:]] == [USER] * opening

    intruder = site.add("mallory", "<p>HAND1 ROUND1 raise 10</p>")
    report = poll.poll(engine, state)
    assert report.ok, [t.error for t in report.tables]
    replies = site.posts[opening:]
    assert replies, "the dealer answers a comment from someone not seated"
    assert any("mallory" in p["comment"] for p in replies)
    with Session(engine) as s:
        verdicts = ledger.stored_rows(s, "T", "verdict")
    (verdict,) = [v for v in verdicts if v.forum_id == str(intruder.id)]
    assert (verdict.author, verdict.status) == ("mallory", "rejected")

    before = len(site.posts)
    again = poll.poll(engine, state)
    assert again.ok and len(site.posts) == before  # nothing new: nothing posted twice


def _blog_dealer_posts_after_three_polls(site, base, tmp_path, monkeypatch, config_extra: dict) -> list[int]:
    from nomicpoker.shell.jobs import poll
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.storage.store import open_engine

    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", site.user)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"base_url": base + "/", "profile": PAGED_PROFILE, "delay": 0, **config_extra}
    service.create_table(engine, state, "T", ["alice", "bob"], 100, forum="blognomic",
                         forum_config=config, issue_decks=False)
    started = service.start_hand(engine, state, "T", 5, thread=base + THREAD)
    assert not started.report.error, started.report.error
    counts = []
    for _ in range(3):  # nobody but the Dealer has commented: every run must be quiet
        report = poll.poll(engine, state)
        assert report.ok, [t.error for t in report.tables]
        counts.append(len([c for c in site.comments if c.author == site.user]))
    return counts


def test_blog_without_a_dealer_key_ignores_the_dealer_s_own_comments(wp, tmp_path, monkeypatch) -> None:
    site, base = wp
    site.user = "PokerBot"
    counts = _blog_dealer_posts_after_three_polls(site, base, tmp_path, monkeypatch, {})
    assert counts == [counts[0]] * 3 and counts[0] >= 1


def test_blog_with_the_dealer_key_set_to_the_account_is_quiet(wp, tmp_path, monkeypatch) -> None:
    """The control for the test above: the same account, named in the config."""
    site, base = wp
    site.user = "PokerBot"
    counts = _blog_dealer_posts_after_three_polls(site, base, tmp_path, monkeypatch, {"dealer": "PokerBot"})
    assert counts == [counts[0]] * 3 and counts[0] >= 1
