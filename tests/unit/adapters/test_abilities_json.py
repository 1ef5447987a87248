"""The abilities a table was created with are stored as JSON (``np_table.abilities``,
``Abilities.as_json``) and read back (``Abilities.from_mapping``) to the same value, for every
adapter's abilities; ``{}`` is the documented default (tests/e2e/cycle/test_table_abilities.py
stores and replays them)."""

from __future__ import annotations

import json

import pytest

from nomicpoker.adapters.blog.forum import blog_abilities
from nomicpoker.adapters.blog.siteprofile import load_profile
from nomicpoker.adapters.email.forum import EmailForum
from nomicpoker.adapters.irc.forum import IRC_ABILITIES
from nomicpoker.adapters.local import LocalForum
from nomicpoker.adapters.reddit import RedditForum
from nomicpoker.ports import Abilities


@pytest.mark.parametrize("abilities", [LocalForum.abilities, RedditForum.abilities, IRC_ABILITIES,
                                       EmailForum.abilities, blog_abilities(load_profile("wordpress")),
                                       blog_abilities(load_profile("expressionengine")), Abilities()])
def test_stored_abilities_read_back_equal(abilities):
    assert Abilities.from_mapping(json.loads(abilities.as_json())) == abilities


def test_an_empty_or_older_mapping_is_the_documented_default_and_an_unknown_key_is_left_out():
    assert Abilities.from_mapping({}) == Abilities()
    default = Abilities()
    assert (default.dice, default.private_send, default.markup, default.players_see_thread) == ("bot", False, "markdown", True)
    assert Abilities.from_mapping({"private_send": True, "teleport": True}) == Abilities(private_send=True)
