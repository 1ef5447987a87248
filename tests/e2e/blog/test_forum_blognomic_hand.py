"""A complete hand of Dealing and Play through a fake BlogNomic site on loopback.

The real poll cycle (:func:`nomicpoker.shell.jobs.poll.poll`, :func:`nomicpoker.shell.dealer.service.start_hand`) with
the adapter the registry builds from the table's config, against the stateful fake sites of
``fixtures/blog_sites.py`` (WordPress theme markup with nested replies and WordPress's comment
text filters; ExpressionEngine's comment loop). Players' comments are put on the page between
polls; the site's own dice roller writes their DICE52 results into the comment. BlogNomic has
no private messages, so players bring their own decks (stated checksums): each player here
holds a known deck, so their reveals are their real cards.

Expected Money, pots and sentences are worked out by hand in the comments, never copied from
output.
"""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer
from sqlmodel import Session

from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs import poll
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit
from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.fairness.dealing import deck_checksum
from nomicpoker.core.words.render import find_tag
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import fixed_secrets
from kits.references.fair_dealing import REF
from fixtures.blog_sites import EE_ENTRY, PAGED_PROFILE, PASSWORD, THREAD, USER, Site, dice_html, serve_ee, serve_wordpress

PLAYERS = ("Kevan", "Josh", "Zoë")
#: Own decks: Kevan and Zoë hold a deck in FULL_DECK order (2s 2h 2d 2c 3s ... As Ah Ad Ac), so
#: position p is FULL_DECK[p - 1]; Josh's deck is the same cards in reverse (position 1 is Ac).
ORDERED = tuple(FULL_DECK)
REVERSED = tuple(reversed(FULL_DECK))
DECKS = {"Kevan": ORDERED, "Josh": REVERSED, "Zoë": ORDERED}


# BlogNomic's WordPress is tests/e2e/blog/test_blognomic_real_theme_hand.py (its real theme, bot dice);
# this one keeps ExpressionEngine, whose profile reads a dice roller's results in comments.
@pytest.mark.parametrize("profile", ["expressionengine"])
def test_a_complete_hand_plays_through_the_blog(profile, httpserver: HTTPServer, tmp_path, monkeypatch) -> None:
    site = Site(per_page=8)  # top-level comments on pages of 8: the thread soon spans several
    if profile == "wordpress":
        base, path = serve_wordpress(httpserver, site), THREAD
    else:
        base, path = serve_ee(httpserver, site), EE_ENTRY
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_USER", USER)
    monkeypatch.setenv("NOMICPOKER_BLOGNOMIC_PASSWORD", PASSWORD)
    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    config = {"base_url": base + "/", "profile": PAGED_PROFILE if profile == "wordpress" else profile,
              "delay": 0, "dealer": USER}
    service.create_table(engine, state, "T", list(PLAYERS), 100, forum="blognomic", forum_config=config)
    secrets_store.write(state, "T", 1, fixed_secrets("blognomic-hand"))
    started = service.start_hand(engine, state, "T", 5, thread=base + path)
    assert not started.report.error, started.report.error

    # Hand start: 3 antes of 5, pot 15, Money 95 each; the Button is the last player (Zoë),
    # so Kevan acts first. The own-deck table tells players to bring a deck.
    (start,) = [p["comment"] for p in site.posts]
    assert "Hand #1 has commenced" in start and "the pot is 15" in start
    assert "The Button: Zoë" in start and "First to act in round 1: Kevan." in start

    nested = profile == "wordpress"  # EE's comment loop has no threaded replies

    def say(who: str, body: str, parent: int = 0) -> int:
        return site.add(who, body, parent if nested else 0).id

    def run() -> list[str]:
        before = len(site.posts)
        report = poll.poll(engine, state)
        assert report.ok, [t.error for t in report.tables]
        return [p["comment"] for p in site.posts[before:]]

    def act(who: str, body: str, parent: int = 0) -> list[str]:
        say(who, body, parent)
        return run()

    # Hole Card Draws; the site's roller shows the results in the comment. Josh's first roll
    # is a pair (23, 23): drawn again. Positions: Kevan 49, 50 of FULL_DECK order = As Ah;
    # Josh 22, 23 of the reversed deck = FULL_DECK[30], FULL_DECK[29] = 9d 9h; Zoë 1, 2 = 2s 2h.
    checksum = {p: deck_checksum(d) for p, d in DECKS.items()}
    k1 = say("Kevan", "<p>HAND#1 DICE52 DICE52</p>" + dice_html(49, 50))
    j1 = say("Josh", "<p>HAND#1 DICE52 DICE52</p>" + dice_html(23, 23))
    z1 = say("Zoë", "<p>HAND#1 DICE52 DICE52</p>" + dice_html(1, 2))
    dice = run()
    assert len(dice) == 3 and all(d.startswith("Dice for ") for d in dice)
    assert "DICE52: 49, DICE52: 50." in dice[0] and "cards 49 and 50 of your deck" in dice[0]
    assert "DICE52: 23, DICE52: 23." in dice[1] and "make another Hole Card Draw" in dice[1]
    if nested:  # each dice note answers its comment
        assert [p["comment_parent"] for p in site.posts[1:4]] == [str(k1), str(j1), str(z1)]
    j2 = say("Josh", "<p>Again: HAND#1 DICE52 DICE52</p>" + dice_html(22, 23))
    (again,) = run()
    assert "DICE52: 22, DICE52: 23." in again
    say("Kevan", f"<p>cards 49, 50, {checksum['Kevan']}</p>", parent=k1)
    say("Josh", f"<p>cards 23, 22, {checksum['Josh'].replace('&', '&amp;')}</p>", parent=j2)
    say("Zoë", f"<p>cards 1, 2, {checksum['Zoë']}</p>", parent=z1)
    drawn = run()
    assert len(drawn) == 4  # three draws recorded, then the first turn notice
    assert all("own deck" in d for d in drawn[:3])
    assert f'"{checksum["Josh"]}"' in drawn[1]  # the entity-encoded "&" read back as "&"
    assert "Every seated player has drawn: round 1 opens." in drawn[2]
    assert "Kevan to act, nothing to call. Pot: 15." in drawn[3]

    # Round 1. Josh out of turn: one rejection. Kevan raises 10 (85, pot 25). Zoë quotes the
    # raise in a nested reply (entities, a blockquote): chat, no answer. Josh calls (85, pot
    # 35), Zoë folds: the flop, and Kevan first in round 2 (pot 35: the edit changed nothing).
    (rejected,) = act("Josh", "<p>HAND1 ROUND1 check</p>")
    assert "not_your_turn" in rejected and "it is Kevan's turn" in rejected
    kr = say("Kevan", "<p>HAND1 ROUND1 raise 10</p>")
    assert "Josh to act, 10 to call. Pot: 25." in run()[0]
    chat = site.add("Zoë", "<blockquote><p>HAND1 ROUND1 raise 10</p></blockquote>"
                    "<p>Bold &amp; brave, Kevan&#8217;s raise&#8230;</p>", kr if nested else 0)
    assert run() == []
    assert "Zoë to act, 10 to call. Pot: 35." in act("Josh", "<p>HAND1 ROUND1 call</p>")[0]
    # Kevan edits his raise to 50 and Zoë deletes her chat: the first reading binds (one note,
    # the raise stays 10), and a deleted comment simply leaves the page.
    next(c for c in site.comments if c.id == kr).html = "<p>HAND1 ROUND1 raise 50</p>"
    site.comments.remove(chat)
    site.version += 1
    (noted,) = run()
    assert "Kevan edited a comment" in noted and "the first reading stands" in noted
    flop, notice = act("Zoë", "<p>HAND1 ROUND1 folds</p>")
    # The board is what the fixed deck secret deals (recomputable by `nomicpoker audit verify`).
    assert flop.startswith("Zoë folds. Flop: A♦ 9♣ 4♣") and "Pot: 35." in flop
    # ... and so does the docs' reference implementation, independently of nomicpoker
    assert REF["board"](fixed_secrets("blognomic-hand").deck, 1) == ["Ad", "9c", "4c", "9s", "4s"]
    assert "Kevan to act, nothing to call. Pot: 35." in notice
    # Round 2: Kevan checks, Josh raises 20 (65, pot 55), Kevan calls (65, pot 75): the turn.
    assert "Josh to act, nothing to call." in act("Kevan", "<p>HAND1 ROUND2 check</p>")[0]
    assert "Kevan to act, 20 to call. Pot: 55." in act("Josh", "<p>HAND1 ROUND2 raise 20</p>")[0]
    turn, _ = act("Kevan", "<p>HAND1 ROUND2 call</p>")
    assert turn.startswith("Kevan calls. Turn: 9♠") and "Pot: 75." in turn
    act("Kevan", "<p>HAND1 ROUND3 check</p>")
    river, _ = act("Josh", "<p>HAND1 ROUND3 check</p>")
    assert river.startswith("Josh checks. River: 4♠")
    act("Kevan", "<p>HAND1 ROUND4 check</p>")
    (call,) = act("Josh", "<p>HAND1 ROUND4 check</p>")
    assert "betting is over" in call and "pot 75" in call and "1. Kevan\n2. Josh" in call

    # Showdown on A♦ 9♣ 4♣ 9♠ 4♠: Kevan's As Ah make aces full of nines; Josh's 9h 9d make
    # four nines, which beat a full house. Josh wins the whole pot of 75: 65 + 75 = 140.
    (shown,) = act("Kevan", "<p>HAND1 reveal As Ah</p>")
    assert "Kevan shows A♠ A♥" in shown and "Still to reveal: Josh." in shown
    (pay,) = act("Josh", "<p>HAND1 reveal 9 of hearts, 9 of diamonds</p>")
    assert "Hand #1 is over." in pay
    assert "- Josh: 9♥ 9♦, Four of a Kind" in pay and "- Kevan: A♠ A♥, Full House" in pay
    assert "- Pot 75: Josh wins 75." in pay
    assert "Josh: put in 35, receives 75 (+40)" in pay and "Kevan: put in 35, receives 0 (-35)" in pay
    assert "Own decks (Josh, Kevan, Zoë)" in pay

    # Every dealer comment reached the page once, in order, each ending with its own tag:
    # start, 4 dice notes, 3 draws, 1 turn notice, 1 rejection, 2 round-1 notices, the edit
    # note, flop + notice, 2 round-2 notices, turn + notice, 1 notice, river + notice, 1
    # notice, the call for reveals, 1 reveal note, the payout = 26.
    on_page = [c for c in site.comments if c.author == USER]
    assert [find_tag(c.html) for c in on_page] == [f"T-h1-{n:03d}" for n in range(1, 27)]
    assert len(site.posts) == 26

    with Session(engine) as s:
        table = ledger.get_table(s, "T")
        assert {r.player: (r.money, r.turn, r.pot) for r in ledger.gndt(s, table)} == {
            "Kevan": (65, "o", 0), "Josh": (140, "o", 0), "Zoë": (95, "o", 0)}
        rolls = [(d.player, d.result, d.source) for d in ledger.stored_rows(s, "T", "dice")]
    assert rolls == [("Kevan", 49, "forum"), ("Kevan", 50, "forum"), ("Josh", 23, "forum"),
                     ("Josh", 23, "forum"), ("Zoë", 1, "forum"), ("Zoë", 2, "forum"),
                     ("Josh", 22, "forum"), ("Josh", 23, "forum")]

    assert run() == []  # a second poll posts nothing
    names, diffs = audit(engine, state)
    assert names == ["T"] and diffs == []
