"""A site profile with a mistake in it (a typo'd key, a pattern that is not a regex, a
``[forum]`` that is not a table) fails when it loads, with one line naming the file, the
section and the key, in every section alike: a Dealer editing a theme's TOML learns of the
mistake from ``forum check``, not from a poll that reads nothing.

Each case edits the built-in WordPress profile (which loads) in one place."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.ports import ForumError

BUILTIN = (resources.files("nomicpoker.adapters.blog") / "profiles" / "wordpress.toml").read_text(encoding="utf-8")


def _with(tmp_path: Path, section: str, line: str) -> Path:
    """The built-in profile with ``line`` added at the top of ``[section]``."""
    assert f"\n[{section}]\n" in BUILTIN
    path = tmp_path / "theme.toml"
    path.write_text(BUILTIN.replace(f"\n[{section}]\n", f"\n[{section}]\n{line}\n", 1), encoding="utf-8")
    return path


def _refused(path: Path) -> str:
    with pytest.raises(ForumError) as err:
        load_profile(str(path))
    assert err.value.code == "config"
    assert "\n" not in str(err.value)
    return str(err.value)


def test_the_unchanged_builtin_profile_loads(tmp_path) -> None:
    path = tmp_path / "theme.toml"
    path.write_text(BUILTIN, encoding="utf-8")
    assert load_profile(str(path)).read.comment_selector == "li.comment"


@pytest.mark.parametrize("section", ["read", "login", "post", "forum"])
def test_an_unknown_key_is_named_with_its_section_the_first_in_order(tmp_path, section) -> None:
    path = _with(tmp_path, section, 'zz_typo = "x"\nshown_nmae = "y"')
    assert f"profile {path}: unknown key {section}.shown_nmae" in _refused(path)


@pytest.mark.parametrize(("section", "key"), [("read", "id_pattern"), ("post", "moderation_pattern"),
                                              ("login", "error_page_pattern"),
                                              ("forum", "shown_name_pattern")])
def test_a_pattern_that_is_not_a_regex_is_named_with_its_section(tmp_path, section, key) -> None:
    text = BUILTIN
    # drop the profile's own setting of the key, then set it to an unclosed group
    text = re.sub(rf"(?m)^{key} = .*\n", "", text)
    path = tmp_path / "theme.toml"
    path.write_text(text.replace(f"\n[{section}]\n", f"\n[{section}]\n{key} = '(unclosed'\n", 1),
                    encoding="utf-8")
    message = _refused(path)
    assert f"profile {path}: {section}.{key} is not a regex: " in message
    assert "missing )" in message  # re's own words follow


def test_a_forum_section_that_is_not_a_table_is_refused(tmp_path) -> None:
    without_forum = re.sub(r"(?s)\n\[forum\]\n.*", "\n", BUILTIN)
    assert "[forum]" not in without_forum
    path = tmp_path / "theme.toml"
    path.write_text("forum = 3\n" + without_forum, encoding="utf-8")  # top-level keys come first
    assert f"profile {path}: [forum] must be a table" in _refused(path)


def _page(*comments: tuple[str, str, str]) -> str:
    return "<ol>" + "".join(f'<li class="comment" id="comment-{i}" data-author-name="{a}" data-comment-time="1700000000">'
                            f'<div class="content"><p>{b}</p></div></li>' for i, a, b in comments) + "</ol>"


def test_a_page_read_again_gives_the_same_comments_and_a_changed_page_its_own() -> None:
    """``parse_page`` keeps the pages it parsed (a poll reads a page again before each post):
    the same text gives an equal reading without parsing it again, a changed page (a new or
    edited comment) or another address its own, and a page that does not parse still raises."""
    from nomicpoker.adapters.blog.siteprofile import parse_page

    read = load_profile("wordpress").read
    url = "https://blog.example/story/"
    one = _page(("1", "alice", "HAND1 ROUND1 call"))
    first = parse_page(one, url, read)
    assert [(c.id, c.author, c.body) for c in first.comments] == [("1", "alice", "<p>HAND1 ROUND1 call</p>")]
    assert parse_page(one, url, read) == first and parse_page(one[:], url, read) == first
    two = _page(("1", "alice", "HAND1 ROUND1 fold"), ("2", "bob", "nice"))
    assert [(c.id, c.body) for c in parse_page(two, url, read).comments] == [("1", "<p>HAND1 ROUND1 fold</p>"),
                                                                           ("2", "<p>nice</p>")]
    assert parse_page(one, url + "comment-page-2/", read).comments[0].permalink == url + "comment-page-2/#comment-1"
    bad = '<ol><li class="comment" id="note-1" data-author-name="x"><div class="content">x</div></li></ol>'
    for _ in range(2):
        with pytest.raises(ForumError):
            parse_page(bad, url, read)


def test_the_comment_form_of_a_page_read_again_is_the_same_and_each_caller_gets_its_own_fields() -> None:
    """``page_form`` keeps the forms it read, as pairs: a caller filling in the comment (a dict
    of its own) cannot change what the next post of the same page finds."""
    from nomicpoker.adapters.blog.siteprofile import form_fields, page_form, soup

    html = ('<form id="commentform" action="/wp-comments-post.php"><input type="hidden" name="comment_post_ID" '
            'value="7"><textarea name="comment"></textarea><input type="submit" name="submit" value="Post">'
            '<input type="checkbox" name="notify"></form>')
    action, fields = page_form(html, "form#commentform")
    assert (action, dict(fields)) == form_fields(soup(html), "form#commentform")
    assert dict(fields) == {"comment_post_ID": "7", "comment": "", "submit": "Post"}
    mine = dict(fields)
    mine["comment"] = "HAND1 ROUND1 call"
    assert page_form(html, "form#commentform") == (action, fields) and dict(fields)["comment"] == ""
    assert page_form(html, "form#other") is None
