"""The BlogNomic adapter against real HTTP on loopback (pytest-httpserver).

Two fake sites serve markup the way the real platforms do: the 2020 WordPress theme
(blognomic/blognomic-theme views/comment.twig and views/comments.twig, WordPress's
wp-login.php, comment form, comment navigation and wp_die pages), and ExpressionEngine (the
member login form, a {exp:comment:entries} loop, the {exp:comment:form} form and EE's error
message page). Expected values come from what the fake site holds, never from the adapter.
"""

from __future__ import annotations

import html
import logging
import os
import socket
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from nomicpoker.adapters.base import Forum, ForumError
from nomicpoker.adapters.blognomic import BlogNomicForum, Credentials, load_credentials
from nomicpoker.adapters.http import PageCache, PoliteSession
from nomicpoker.adapters.registry import open_forum
from nomicpoker.adapters.siteprofile import load_profile

USER, PASSWORD = "Dealer", "s3cret-pässword"
T0 = 1_600_000_000


@dataclass
class Comment:
    id: int
    author: str
    time: int
    html: str  # WordPress's comment.content output (already HTML)
    parent: int = 0
    edited: int | None = None


@dataclass
class Site:
    """State shared by both fake sites: comments, login, what the server received."""

    comments: list[Comment] = field(default_factory=list)
    per_page: int = 0  # 0: no pagination
    etag_support: bool = True
    logins: list[dict] = field(default_factory=list)
    posts: list[dict] = field(default_factory=list)
    post_cookies: list[dict] = field(default_factory=list)
    post_answer: str = "ok"  # ok | duplicate | moderation | login
    version: int = 1

    def add(self, author: str, text: str, parent: int = 0) -> Comment:
        c = Comment(len(self.comments) + 101, author, T0 + 60 * len(self.comments), text, parent)
        self.comments.append(c)
        self.version += 1
        return c

    def pages(self) -> list[list[Comment]]:
        tops = [c for c in self.comments if c.parent == 0]
        if not self.per_page:
            return [tops]
        return [tops[i : i + self.per_page] for i in range(0, len(tops), self.per_page)] or [[]]


def _conditional(request: Request, site: Site, body: str) -> Response:
    etag = f'"v{site.version}"'
    if site.etag_support and request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers={"ETag": etag})
    headers = {"ETag": etag} if site.etag_support else {}
    return Response(body, content_type="text/html; charset=UTF-8", headers=headers)


# -- WordPress ----------------------------------------------------------------------------

THREAD = "/2020/06/hand-1/"


def wp_comment(site: Site, c: Comment) -> str:
    """views/comment.twig, rendered."""
    children = [k for k in site.comments if k.parent == c.id]
    kids = ""
    if children:
        kids = '<ol class="children">' + "".join(wp_comment(site, k) for k in children) + "</ol>"
    return f"""
<li
  id="comment-{c.id}"
  class="comment not-evc"
  data-author-id="{c.id * 7}"
  data-author-name="{html.escape(c.author, quote=True)}"
  data-comment-time="{c.time}"
  data-author-status="active"
  data-vote=""
  data-is-player="true"
>
  <section>
    <span class="rule"></span>
    <img class="avatar" src="/avatar.png" />
    <div class="meta">
      <span class="author-name"><a href="/members/x/">{html.escape(c.author)}</a> says:</span>
    </div>
    <div class="content">
      {c.html}
    </div>
  </section>
  {kids}
</li>"""


def wp_page(site: Site, base: str, page: int, logged_in: bool) -> str:
    pages = site.pages()
    nav = ""
    if len(pages) > 1:
        links = []
        if page > 1:
            links.append(f'<div class="nav-previous"><a href="{base}{THREAD}comment-page-{page - 1}/#comments">Older comments</a></div>')
        if page < len(pages):
            links.append(f'<div class="nav-next"><a href="{base}{THREAD}comment-page-{page + 1}/#comments">Newer comments</a></div>')
        nav = ('<nav class="navigation comment-navigation" aria-label="Comments"><h2 class="screen-reader-text">'
               'Comments navigation</h2><div class="nav-links">' + "".join(links) + "</div></nav>")
    items = "".join(wp_comment(site, c) for c in pages[page - 1])
    if logged_in:
        form = f"""<div id="respond" class="comment-respond"><h2 id="reply-title" class="comment-reply-title">Leave a Reply</h2>
<form action="{base}/wp-comments-post.php" method="post" id="commentform" class="comment-form" novalidate>
<p class="logged-in-as"><a href="{base}/wp-admin/profile.php">Logged in as {USER}</a>.</p>
<p class="comment-form-comment"><label for="comment">Comment</label> <textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required="required"></textarea></p>
<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="Post Comment" /> <input type='hidden' name='comment_post_ID' value='4242' id='comment_post_ID' />
<input type='hidden' name='comment_parent' id='comment_parent' value='0' />
</p><input type="hidden" id="_wp_unfiltered_html_comment_disabled" name="_wp_unfiltered_html_comment" value="0d870b4a3f" /><script>(function(){{}})();</script>
</form></div>"""
    else:
        form = f'<div id="respond"><p class="must-log-in">You must be <a href="{base}/wp-login.php">logged in</a> to post a comment.</p></div>'
    return f"""<!DOCTYPE html><html lang="en-GB"><head><meta charset="UTF-8"><title>Hand 1 &#8211; BlogNomic</title></head>
<body><article><h1>Hand 1</h1><p>The story post.</p></article>
<section id="comments" class="comments-area">
<h2 class="title-comments">{len(site.comments)} Responses</h2>
{nav}
<ol class="comment-list">{items}</ol>
{nav}
{form}
</section></body></html>"""


WP_LOGIN_FORM = """<!DOCTYPE html><html><head><title>Log In &lsaquo; BlogNomic &#8212; WordPress</title></head>
<body class="login">{error}<form name="loginform" id="loginform" action="{base}/wp-login.php" method="post">
<p><label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login" class="input" value="" size="20" /></p>
<div class="user-pass-wrap"><label for="user_pass">Password</label><div class="wp-pwd"><input type="password" name="pwd" id="user_pass" class="input password-input" value="" size="20" /></div></div>
<p class="forgetmenot"><input name="rememberme" type="checkbox" id="rememberme" value="forever"  /> <label for="rememberme">Remember Me</label></p>
<p class="submit"><input type="submit" name="wp-submit" id="wp-submit" class="button button-primary button-large" value="Log In" />
<input type="hidden" name="redirect_to" value="{base}/wp-admin/" />
<input type="hidden" name="testcookie" value="1" /></p></form></body></html>"""

WP_DIE = """<!DOCTYPE html><html><head><title>Comment Submission Failure</title></head>
<body id="error-page"><div class="wp-die-message"><p>{msg}</p></div><p><a href='javascript:history.back()'>&laquo; Back</a></p></body></html>"""


def serve_wordpress(server: HTTPServer, site: Site) -> str:
    base = server.url_for("").rstrip("/")

    def thread(request: Request, page: int = 1) -> Response:
        logged_in = any(k.startswith("wordpress_logged_in_") for k in request.cookies)
        return _conditional(request, site, wp_page(site, base, page, logged_in))

    server.expect_request(THREAD, method="GET").respond_with_handler(thread)
    for n in range(2, 6):
        server.expect_request(f"{THREAD}comment-page-{n}/", method="GET").respond_with_handler(
            lambda r, n=n: thread(r, n)
        )
    server.expect_request(f"{THREAD}comment-page-1/", method="GET").respond_with_handler(thread)

    def login_page(request: Request) -> Response:
        resp = Response(WP_LOGIN_FORM.format(base=base, error=""), content_type="text/html; charset=UTF-8")
        resp.set_cookie("wordpress_test_cookie", "WP Cookie check")
        return resp

    def login_post(request: Request) -> Response:
        form = request.form.to_dict()
        site.logins.append({"form": form, "cookies": dict(request.cookies)})
        if form.get("log") == USER and form.get("pwd") == PASSWORD:
            resp = Response(status=302, headers={"Location": f"{base}/wp-admin/"})
            resp.set_cookie("wordpress_logged_in_abc123", "Dealer%7C1600000000%7Ctoken")
            return resp
        error = (f'<div id="login_error"><strong>Error:</strong> The password you entered for the username '
                 f'<strong>{html.escape(form.get("log", ""))}</strong> is incorrect. <a href="{base}/wp-login.php?action=lostpassword">Lost your password?</a><br /></div>')
        return Response(WP_LOGIN_FORM.format(base=base, error=error), content_type="text/html; charset=UTF-8")

    def comment_post(request: Request) -> Response:
        form = request.form.to_dict()
        site.posts.append(form)
        site.post_cookies.append(dict(request.cookies))
        if site.post_answer == "duplicate":
            return Response(WP_DIE.format(msg="Duplicate comment detected; it looks as though you&#8217;ve already said that!"), status=409, content_type="text/html")
        if site.post_answer == "login" or not any(k.startswith("wordpress_logged_in_") for k in request.cookies):
            return Response(WP_DIE.format(msg="Sorry, you must be logged in to comment."), status=403, content_type="text/html")
        c = site.add(USER, "<p>" + html.escape(form["comment"]).replace("\n", "<br />\n") + "</p>", int(form.get("comment_parent") or 0))
        if site.post_answer == "moderation":
            site.comments.remove(c)
            return Response(status=302, headers={"Location": f"{base}{THREAD}?unapproved={c.id}&moderation-hash=abc#comment-{c.id}"})
        return Response(status=302, headers={"Location": f"{base}{THREAD}#comment-{c.id}"})

    server.expect_request("/wp-login.php", method="GET").respond_with_handler(login_page)
    server.expect_request("/wp-login.php", method="POST").respond_with_handler(login_post)
    server.expect_request("/wp-admin/", method="GET").respond_with_data("<html><title>Dashboard</title></html>", content_type="text/html")
    server.expect_request("/wp-comments-post.php", method="POST").respond_with_handler(comment_post)
    server.expect_request("/", method="GET").respond_with_data("<html><title>BlogNomic</title></html>", content_type="text/html")
    return base


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make_forum(base: str, profile: str = "wordpress", *, password: str = PASSWORD, **kw) -> BlogNomicForum:
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
    httpserver.expect_ordered_request(THREAD).respond_with_handler(lambda r: _conditional(r, site, wp_page(site, base, 1, False)))
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


def test_wordpress_login_and_post_submit_every_hidden_field_with_the_session_cookie(wp) -> None:
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


def test_find_comment_with_sees_only_dealer_comments_on_the_page(wp) -> None:
    site, base = wp
    site.add("Kevan", "<p>the dealer said [np:h1-3]</p>")
    d = site.add(USER, "<p>Turn: Josh to act <code>[np:h1-3]</code></p>")
    forum = make_forum(base)
    assert forum.find_comment_with(THREAD, "[np:h1-3]") == str(d.id)
    assert forum.find_comment_with(THREAD, "[np:h1-9]") is None


def test_failed_login_says_what_the_site_said_and_never_the_password(wp) -> None:
    site, base = wp
    with pytest.raises(ForumError) as err:
        make_forum(base, password="wrong-pässword").post_comment(THREAD, "hello")
    assert err.value.code == "login_failed"
    assert "is incorrect" in err.value.message
    assert "wrong-pässword" not in str(err.value)
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
    assert err.value.code == "comment_refused" and "moderation" in err.value.message


def test_check_tries_connection_and_login_without_posting(wp) -> None:
    site, base = wp
    rows = make_forum(base).check()
    assert [(what, ok) for what, ok, _ in rows] == [
        ("site profile", True), ("connection", True), ("credentials", True), ("login", True)
    ]
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


# -- ExpressionEngine --------------------------------------------------------------------------

EE_ENTRY = "/index.php/archive/hand-1/"


def ee_comment(c: Comment) -> str:
    """A {exp:comment:entries} loop body as docs/forums.md shows it."""
    edited = f' <span class="comment-edited" data-ts="{c.edited}">(edited)</span>' if c.edited else ""
    return f"""<div class="comment" id="comment_{c.id}">
  <div class="comment-body">{c.html}</div>
  <p class="comment-meta">Posted by <a class="comment-author" href="/member/{c.id}">{html.escape(c.author)}</a>
  on <span class="comment-date" data-ts="{c.time}">{datetime.fromtimestamp(c.time, tz=timezone.utc):%d %b %Y %H:%M}</span>{edited}</p>
</div>"""


EE_ERROR = """<html><head><title>Error</title></head><body><div id="content">
<div class="heading"><h2>The following errors were encountered</h2></div>
<ul><li>{msg}</li></ul><p><a href="javascript:history.go(-1)">Return to Previous Page</a></p></div></body></html>"""


def serve_ee(server: HTTPServer, site: Site) -> str:
    base = server.url_for("").rstrip("/")

    def entry(request: Request) -> Response:
        page = 1
        pages = site.pages()
        if request.path != EE_ENTRY:
            page = int(request.path.rstrip("/").rsplit("/P", 1)[1]) // site.per_page + 1
        paginate = ""
        if len(pages) > 1:
            links = " ".join(f'<a href="{base}{EE_ENTRY}P{(n - 1) * site.per_page}/">{n}</a>' if n > 1 else f'<a href="{base}{EE_ENTRY}">1</a>' for n in range(1, len(pages) + 1))
            paginate = f'<div class="paginate">Page {page} of {len(pages)} {links}</div>'
        logged_in = request.cookies.get("exp_sessionid") == "sess-1"
        form = ""
        if logged_in:
            form = f"""<form id="comment_form" method="post" action="{base}/"  >
<div class='hiddenFields'>
<input type="hidden" name="ACT" value="15" />
<input type="hidden" name="RET" value="{base}{EE_ENTRY}" />
<input type="hidden" name="URI" value="archive/hand-1" />
<input type="hidden" name="PRV" value="" />
<input type="hidden" name="XID" value="7f3c9a0d1e" />
<input type="hidden" name="entry_id" value="9876" />
<input type="hidden" name="site_id" value="1" />
</div>
<textarea name="comment" cols="70" rows="10"></textarea>
<input type="submit" name="submit" value="Submit" />
</form>"""
        body = (f'<html><head><meta charset="utf-8"><title>Hand 1</title></head><body><div class="entry">Story</div>'
                f'<div class="comments">{"".join(ee_comment(c) for c in pages[page - 1])}</div>{paginate}{form}</body></html>')
        return _conditional(request, site, body)

    def login_page(request: Request) -> Response:
        return Response(f"""<html><body><form id="member_login_form" method="post" action="{base}/"  >
<div class='hiddenFields'>
<input type="hidden" name="ACT" value="10" />
<input type="hidden" name="RET" value="{base}/" />
<input type="hidden" name="site_id" value="1" />
<input type="hidden" name="XID" value="a1b2c3d4" />
</div>
<p><label>Username</label><br /><input type="text" name="username" value="" maxlength="32" size="25" /></p>
<p><label>Password</label><br /><input type="password" name="password" value="" maxlength="32" size="25" /></p>
<p><input class='checkbox' type='checkbox' name='auto_login' value='1' /> Auto-login on future visits</p>
<p><input type="submit" name="submit" value="Submit" /></p>
</form></body></html>""", content_type="text/html; charset=utf-8")

    def action(request: Request) -> Response:
        form = request.form.to_dict()
        if form.get("ACT") == "10":
            site.logins.append({"form": form, "cookies": dict(request.cookies)})
            if form.get("username") == USER and form.get("password") == PASSWORD:
                resp = Response(status=302, headers={"Location": form["RET"]})
                resp.set_cookie("exp_sessionid", "sess-1")
                return resp
            return Response(EE_ERROR.format(msg="The username and password you submitted are invalid."), content_type="text/html")
        if form.get("ACT") == "15":
            site.posts.append(form)
            site.post_cookies.append(dict(request.cookies))
            if site.post_answer == "duplicate":
                return Response(EE_ERROR.format(msg="You are only allowed to post comments every 60 seconds"), content_type="text/html")
            site.add(USER, "<p>" + html.escape(form["comment"]) + "</p>")
            return Response(status=302, headers={"Location": form["RET"]})
        return Response("no such action", status=400)

    server.expect_request(EE_ENTRY, method="GET").respond_with_handler(entry)
    for n in range(1, 5):
        server.expect_request(f"{EE_ENTRY}P{n * 2}/", method="GET").respond_with_handler(entry)
    server.expect_request("/member/login", method="GET").respond_with_handler(login_page)
    server.expect_request("/", method="POST").respond_with_handler(action)
    server.expect_request("/", method="GET").respond_with_data("<html><title>BlogNomic</title></html>", content_type="text/html")
    return base


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
    text = (Path(__file__).parents[1] / "adapters" / "profiles" / "wordpress.toml").read_text()
    custom = tmp_path / "mytheme.toml"
    custom.write_text(text.replace('name = "wordpress"', 'name = "mytheme"'))
    forum = open_forum("blognomic", {"base_url": base + "/", "profile": str(custom), "delay": 0, "dealer": USER}, tmp_path)
    assert forum.profile.name == "mytheme"
    assert [c.author for c in forum.list_comments(THREAD)] == ["Kevan"]


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
    cfg.write_text(f'[forum]\nkind = "blognomic"\nbase_url = "{base}/"\ndelay = 0\n')
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    good = CliRunner().invoke(app, ["forum", "check", "--config", str(cfg), "--state", str(tmp_path)])
    assert good.exit_code == 0, good.output
    assert len([l for l in good.output.splitlines() if l.startswith("ok")]) == 4
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

    from nomicpoker import ledger, poll, service
    from nomicpoker.store import open_engine

    site, base = wp
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"base_url": base + "/", "profile": "wordpress", "delay": 0, "dealer": USER}
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
