"""Account names with invisible characters (UTS #39 drops default-ignorable code points from a
skeleton): ``bo\\u200bb`` renders as "bob" on a WordPress page, so it is not bob's seat, it
looks like bob's seat, and ``table create`` refuses the two side by side."""

from __future__ import annotations

import pytest

from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.shell.dealer import service
from nomicpoker.shell.jobs.demo import Player
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import Table

#: invisible in a rendered name: zero-width space, soft hyphen, word joiner, BOM, bidi
#: override and pop, LRM, variation selector 16, combining grapheme joiner, Hangul filler,
#: a trailing space (HTML trims it)
DISGUISES = ["bo\u200bb", "b\u00adob", "bob\u2060", "\ufeffbob", "bob\u202c", "bob\u200e",
             "bo\ufe0fb", "bo\u034fb", "bob\u3164", "bob "]


@pytest.mark.parametrize("fake", DISGUISES)
def test_a_name_with_an_invisible_character_looks_like_the_seat_but_is_not_it(fake: str) -> None:
    assert not same_account(fake, "bob")
    assert looks_alike(fake, "bob")


def test_names_that_differ_visibly_do_not_look_alike() -> None:
    assert not looks_alike("bo b", "bob") and not looks_alike("bobb", "bob")


@pytest.mark.parametrize("fake", ["bo\u200bb", "bob\u202c"])
def test_table_create_refuses_a_seat_hidden_behind_an_invisible_character(tmp_path, fake) -> None:
    engine_ = open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    with pytest.raises(service.ServiceError) as e:
        service.create_table(engine_, tmp_path, "T", ["bob", fake], 100)
    assert e.value.code == "bad_players"


def test_an_invisible_impostor_never_acts_and_the_reply_names_the_character(tmp_path) -> None:
    t = Table(tmp_path, players=("kevan", "bob"))
    t.start()
    Player("ke\u200bvan", t.forum, t.thread).say("HAND#1 DICE52 DICE52")
    t.run()
    v = t.verdicts()[-1]
    assert v.status == "rejected" and v.code == "not_seated"
    assert "only looks like kevan" in v.message
    assert "an invisible U+200B ZERO WIDTH SPACE" in v.message
