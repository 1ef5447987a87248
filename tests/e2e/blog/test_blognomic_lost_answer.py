"""A comment WordPress stored but whose answer was lost is never posted twice, whatever the
table is called: the issue's ``Nomic--Poker`` lost its tag to wptexturize's en dash, and a lost
502 then posted the hand start twice. On the real-theme site the tag is ``<code>`` (never
texturized), so the next run finds it and records the comment instead of posting it again."""

from __future__ import annotations

from nomicpoker.shell.jobs import poll
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.dealer import service
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.sweeps.sweep_hands import blog  # noqa: F401 (fixture)
from fixtures.wp_theme_site import BASE, THREAD


def test_a_lost_502_after_wordpress_stored_the_comment_does_not_post_it_twice(blog, tmp_path) -> None:
    site, base = blog  # the sweeps' BlogNomic: no moderation, pokerbot, kevan and josh
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    service.create_table(engine, state, "Nomic--Poker", ["Kevan", "Josh"], 100, forum="blognomic",
                         forum_config={"base_url": base, "delay": 0, "backoff": 0})
    secrets_store.write(state, "Nomic--Poker", 1, fixed_secrets("lost-answer"))
    site.lose_answer_once = True
    started = service.start_hand(engine, state, "Nomic--Poker", 5, thread=BASE + THREAD)
    assert started.report.error and "502" in started.report.error  # the answer was lost ...
    assert len([c for c in site.comments if c.user.login == "pokerbot"]) == 1  # ... not the comment
    first, second = poll.poll(engine, state), poll.poll(engine, state)
    assert first.ok and second.ok, [t.error for t in first.tables + second.tables]
    assert first.tables[0].already == 1 and first.tables[0].sent == 0  # found by its tag
    assert second.tables[0].line() == "Nomic--Poker: nothing new"
    mine = [c for c in site.comments if c.user.login == "pokerbot"]
    assert len(mine) == 1 and len(site.posts) == 1
