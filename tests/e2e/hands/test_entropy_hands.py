"""Players' entropy end to end (issue 26): ``hand open`` commits and opens the window on the
real local forum, players comment, ``hand start`` deals from the mixed secrets once the window
has closed, and ``audit verify --record`` recomputes every card from the public record alone.

The cards are cross-checked against the reference implementations in docs/fair-dealing.md
(the dealing block and the entropy block, both executed as written)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session
from typer.testing import CliRunner

from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.shell.dealer import entropy_window, service
from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.jobs.demo import Player
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table, fixed_secrets
from kits.references.fair_dealing import REF
from kits.tables.entropy import REAL_ROUNDS, REF as EREF

T0 = datetime(2023, 9, 15, 10, 0, 0, tzinfo=timezone.utc)  # the window closes at 11:00:00: round 657413 is due


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


def entropy_table(tmp_path, mode="players", ruleset="blognomic-2008", players=("alice", "bob"), **kw) -> Table:
    t = Table(tmp_path, players=players, ruleset=ruleset, settings={"reminders": 0, "entropy": mode}, **kw)
    t.clock = Clock(T0)
    t.forum = LocalForum(forum_db_path(t.state), clock=t.clock)  # the players' comments carry its times
    return t


def open_window(t: Table, relay=None, minutes=60):
    with Session(t.engine) as s:
        number = len(ledger.hand_rows(s, t.name)) + 1
    value = fixed_secrets(f"{t.seed}:{number}")
    secrets_store.write(t.state, t.name, number, value)
    t.hands[number] = value
    return entropy_window.open_window(t.engine, t.state, t.name, minutes, relay=relay, now=t.clock)


def post(t: Table, w, who: str, text: str, minutes: float = 5) -> str:
    t.clock.at += timedelta(minutes=minutes)
    return t.forum.post_as(who, w.thread, text)


def start(t: Table, w, ante=5, blinds=()):
    close = datetime.fromisoformat(w.close_at)
    t.clock.at = close + timedelta(seconds=5)
    started = service.start_hand(t.engine, t.state, t.name, ante, blinds=blinds, now=t.clock)
    assert not started.report.error, started.report.error
    t.thread, t.seen = started.thread, 0
    t.p = {n: Player(n, t.forum, started.thread) for n in t.players}
    return started


def record(t: Table, hand: int = 1, ended: bool = True) -> dict:
    res = CliRunner().invoke(app, ["audit", "export", "--table", t.name, "--hand", str(hand), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output)
    assert (rec["secrets"] is not None) == ended, "the hand should have ended" if ended else "still running"
    return rec


def verify_file(tmp_path, rec: dict):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec), "utf-8")
    return CliRunner().invoke(app, ["audit", "verify", "--record", str(path)])


def checkdown(t: Table, hand: int = 1, first="alice", second="bob") -> None:
    t.act(first, f"HAND{hand} ROUND1 raise 10")
    t.act(second, f"HAND{hand} ROUND1 call")
    for r in (2, 3, 4):
        t.act(first, f"HAND{hand} ROUND{r} check")
        t.act(second, f"HAND{hand} ROUND{r} check")
    # the players reveal what the decks they were sent give at their drawn positions
    t.act(first, f"HAND{hand} reveal " + " ".join(t.p[first].hole()))
    t.act(second, f"HAND{hand} reveal " + " ".join(t.p[second].hole()))


def window_comments(rec):
    return [(c["comment_id"], c["author"], c["text"]) for c in rec["entropy"]["contributions"]]


# --------------------------------------------------------------------------- blognomic-2008


def test_a_blognomic_hand_deals_from_the_players_entropy_and_verifies_from_its_record(tmp_path):
    t = entropy_table(tmp_path)
    w = open_window(t)
    commit = [c for c in t.forum.list_comments(w.thread) if c.id == w.opened_by][0]
    secrets = t.hands[1]
    for name, value in secrets.commitments().items():
        assert value in commit.body  # the commitments are posted before any entropy exists
    assert w.close_at in commit.body
    a = post(t, w, "alice", "my lucky number is 7")
    b = post(t, w, "bob", "HAND#1 SEED wobble")
    started = start(t, w)
    assert started.thread == w.thread
    said = [x for x in t.dealer_bodies() if "Dealt from the commitments above mixed with" in x]
    assert len(said) == 1 and f"{a} (alice), {b} (bob)" in said[0]  # the hand-start comment names them
    t.draw(1)
    checkdown(t)
    rec = record(t)
    assert rec["entropy"]["mode"] == "players"
    assert window_comments(rec) == [(a, "alice", "my lucky number is 7"), (b, "bob", "HAND#1 SEED wobble")]
    # the board and each issued deck are the reference construction on the mixed secrets
    comments = window_comments(rec)
    deck_key = EREF["mixed"](secrets.deck, "deck", 1, comments)
    decks_key = EREF["mixed"](secrets.decks, "decks", 1, comments)
    dice_key = EREF["mixed"](secrets.dice, "dice", 1, comments)
    assert rec["board"] == REF["board"](deck_key, 1)
    assert rec["board"] != REF["board"](secrets.deck, 1)
    for d in rec["decks"]:
        cards = REF["deck"](decks_key, 1, d["player"])
        assert d["checksum"] == REF["checksum"](cards, *_words())
    for d in rec["dice"]:
        assert d["result"] == REF["die"](dice_key, d["comment_id"], d["index"], d["sides"])
    assert len(rec["board"]) == 5 and len(rec["reveals"]) == 2
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 0, res.output
    assert "PASS T hand 1: reveal alice" in res.output and "PASS T hand 1: board card 5 (river)" in res.output
    assert f"PASS T hand 1: entropy comment {a} (alice)" in res.output
    assert "PASS T hand 1: entropy: mode players: 2 comments" in res.output
    # the ledger's own audit replays the hand byte for byte
    res = CliRunner().invoke(app, ["audit", "--state", str(t.state)])
    assert res.exit_code == 0, res.output


def _words():
    from nomicpoker.core.fairness import printers
    return (printers.INITIALS, printers.SURNAMES, printers.TRADES, printers.TOWNS)


def test_changing_one_entropy_comment_in_the_record_is_named_by_verify(tmp_path):
    t = entropy_table(tmp_path)
    w = open_window(t)
    post(t, w, "alice", "first")
    b = post(t, w, "bob", "second")
    start(t, w)
    t.draw(1)
    checkdown(t)
    rec = record(t)
    rec["entropy"]["contributions"][1]["text"] = "second, as the Dealer would have liked it"
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 1
    assert f"FAIL T hand 1: entropy comment {b} (bob): expected sha256" in res.output
    assert "FAIL T hand 1: board card 1 (flop)" in res.output or "FAIL T hand 1: deck" in res.output
    # the comment and its hash changed together: the window digest published with the deal names it
    leaf = EREF["leaf"](b, "bob", rec["entropy"]["contributions"][1]["text"]).hex()
    rec["entropy"]["contributions"][1]["sha256"] = leaf
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 1
    assert "FAIL T hand 1: entropy window: expected" in res.output


def test_a_silent_player_delays_nothing_and_comments_after_the_close_or_by_the_dealer_are_not_mixed(tmp_path):
    t = entropy_table(tmp_path)
    w = open_window(t)
    a = post(t, w, "alice", "only alice speaks")
    t.clock.at = datetime.fromisoformat(w.close_at)
    t.forum.post_as("bob", w.thread, "at the close: too late")
    started = start(t, w)  # bob said nothing in time: the hand is dealt all the same
    assert started.number == 1
    with Session(t.engine) as s:
        row = ledger.hand_rows(s, t.name)[0]
    assert [c["comment_id"] for c in json.loads(row.entropy)["contributions"]] == [a]


def test_hand_start_refuses_before_the_window_closes_and_without_an_open_window(tmp_path):
    t = entropy_table(tmp_path)
    with pytest.raises(service.ServiceError) as err:
        service.start_hand(t.engine, t.state, t.name, 5, now=t.clock)
    assert err.value.code == "no_window" and "hand open" in err.value.message
    w = open_window(t)
    t.clock.at = datetime.fromisoformat(w.close_at) - timedelta(seconds=1)
    with pytest.raises(service.ServiceError) as err:
        service.start_hand(t.engine, t.state, t.name, 5, now=t.clock)
    assert err.value.code == "window_open" and w.close_at in err.value.message
    with Session(t.engine) as s:
        assert ledger.hand_rows(s, t.name) == []  # nothing was recorded


def test_opening_twice_keeps_the_commitments_and_the_comment(tmp_path):
    t = entropy_table(tmp_path)
    w1 = open_window(t)
    w2 = entropy_window.open_window(t.engine, t.state, t.name, 60, now=t.clock)
    assert (w2.thread, w2.opened_by, w2.close_at) == (w1.thread, w1.opened_by, w1.close_at)
    dealer = [c for c in t.forum.list_comments(w1.thread) if c.author == "Dealer"]
    assert len(dealer) == 1


def test_a_table_without_entropy_deals_as_before_and_its_record_has_no_entropy(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    with pytest.raises(entropy_window.WindowError) as err:
        entropy_window.open_window(t.engine, t.state, t.name, 60)
    assert err.value.code == "entropy_off"
    t.start()
    t.draw(1)
    checkdown(t)
    rec = record(t)
    assert "entropy" not in rec
    assert rec["board"] == REF["board"](t.hands[1].deck, 1)


def test_the_story_key_is_the_one_hand_start_uses():
    assert entropy_window.story_key("T", 3) == service.story_key("T", 3)


# --------------------------------------------------------------------------- roberts-nlhe


def test_a_roberts_hand_deals_hole_cards_after_the_window_closes_and_verifies(tmp_path):
    t = entropy_table(tmp_path, ruleset="roberts-nlhe", players=("alice", "bob", "carol"), issue_decks=False)
    w = open_window(t)
    c1 = post(t, w, "carol", "shuffle up")
    c2 = post(t, w, "alice", "and deal")
    start(t, w, ante=0, blinds=(1, 2))
    # every hole card went out privately after the close, from the mixed deck secret
    comments = [(c1, "carol", "shuffle up"), (c2, "alice", "and deal")]
    key = EREF["mixed"](t.hands[1].deck, "deck", 1, sorted(comments))
    with Session(t.engine) as s:
        order = json.loads(ledger.hand_rows(s, t.name)[0].seats)
    rec = record(t, ended=False)
    holes = REF["holes"](key, 1, rec["deal_order"])
    for p in t.players:
        sent = [m.body for m in t.forum.inbox(p) if "hole cards" in m.subject.lower() or "hole cards" in m.body.lower()]
        assert sent and all(c in sent[-1] or _pretty(c) in sent[-1] for c in holes[p])
    assert order
    # fold to the end: everyone folds to the big blind
    for _ in range(2):
        to_act = _to_act(t)
        if to_act is None:
            break
        t.act(to_act, "HAND1 ROUND1 fold")
    rec = record(t)
    assert rec["secrets"] is not None
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 0, res.output
    assert "PASS T hand 1: entropy: mode players: 2 comments" in res.output


def _pretty(card: str) -> str:
    from nomicpoker.core.poker.cards import pretty
    return pretty(card)


def _to_act(t: Table):
    g = t.gndt()
    for p, (_money, turn, _pot) in g.items():
        if turn == "x":
            return p
    return None


# --------------------------------------------------------------------------- the beacon


@pytest.fixture
def relay(httpserver):
    """A loopback drand relay serving real quicknet rounds as drand's HTTP API does."""
    from nomicpoker.core.fairness.entropy import QUICKNET

    for r, rnd, sig in REAL_ROUNDS:
        httpserver.expect_request(f"/{QUICKNET.hash}/public/{r}").respond_with_json(
            {"round": r, "randomness": rnd, "signature": sig})
    return httpserver


def test_the_beacon_round_due_after_the_close_is_fetched_verified_and_mixed_in(tmp_path, relay):
    t = entropy_table(tmp_path, mode="players+beacon")
    w = open_window(t, relay=relay.url_for("/"))
    assert w.beacon_round == 657413
    body = [c.body for c in t.forum.list_comments(w.thread) if c.id == w.opened_by][0]
    assert "round 657413" in body
    a = post(t, w, "alice", "beacon or not, here I am")
    start(t, w)
    t.draw(1)
    checkdown(t)
    rec = record(t)
    r, rnd, sig = REAL_ROUNDS[2]
    assert rec["entropy"]["beacon"]["round"] == r and rec["entropy"]["beacon"]["signature"] == sig
    comments = [(a, "alice", "beacon or not, here I am")]
    assert rec["board"] == REF["board"](EREF["mixed"](t.hands[1].deck, "deck", 1, comments, (r, rnd)), 1)
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 0, res.output
    assert "PASS T hand 1: beacon round 657413: drand quicknet round due after" in res.output
    # a record whose beacon was swapped for another real round fails, naming the round
    r2, rnd2, sig2 = REAL_ROUNDS[1]
    rec["entropy"]["beacon"].update(round=r2, randomness=rnd2, signature=sig2)
    res = verify_file(tmp_path, rec)
    assert res.exit_code == 1 and "FAIL T hand 1: beacon round 3: expected round 657413" in res.output


def test_a_forged_round_from_the_relay_is_refused_and_nothing_is_dealt(tmp_path, httpserver):
    from nomicpoker.core.fairness.entropy import QUICKNET

    r, rnd, sig = REAL_ROUNDS[2]
    forged = bytearray.fromhex(sig)
    forged[5] ^= 0x10
    import hashlib
    httpserver.expect_request(f"/{QUICKNET.hash}/public/{r}").respond_with_json(
        {"round": r, "randomness": hashlib.sha256(forged).hexdigest(), "signature": forged.hex()})
    t = entropy_table(tmp_path, mode="players+beacon")
    w = open_window(t, relay=httpserver.url_for("/"))
    t.clock.at = datetime.fromisoformat(w.close_at) + timedelta(seconds=5)
    with pytest.raises(Exception) as err:
        service.start_hand(t.engine, t.state, t.name, 5, now=t.clock)
    assert getattr(err.value, "code", None) == "forged"
    with Session(t.engine) as s:
        assert ledger.hand_rows(s, t.name) == []


def test_a_round_not_yet_published_says_so_and_the_dealer_can_paste_it(tmp_path, httpserver):
    from nomicpoker.core.fairness.entropy import QUICKNET

    r, rnd, sig = REAL_ROUNDS[2]
    httpserver.expect_request(f"/{QUICKNET.hash}/public/{r}").respond_with_data("", status=425)
    t = entropy_table(tmp_path, mode="players+beacon")
    w = open_window(t, relay=httpserver.url_for("/"))
    t.clock.at = datetime.fromisoformat(w.close_at) + timedelta(seconds=5)
    with pytest.raises(Exception) as err:
        service.start_hand(t.engine, t.state, t.name, 5, now=t.clock)
    assert getattr(err.value, "code", None) == "not_yet"
    # the Dealer pastes it (a forged paste is refused first)
    res = CliRunner().invoke(app, ["hand", "beacon", "--table", "T", "--round", str(r), "--signature",
                                   REAL_ROUNDS[1][2], "--state", str(t.state)])
    assert res.exit_code == 1 and "does not verify" in res.output
    res = CliRunner().invoke(app, ["hand", "beacon", "--table", "T", "--round", str(r), "--signature", sig,
                                   "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert rnd in res.output
    start(t, w)
    assert record(t, ended=False)["entropy"]["beacon"]["randomness"] == rnd


# --------------------------------------------------------------------------- the Dealer's commands


def test_the_dealer_turns_entropy_on_with_table_set_and_opens_with_the_cli(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    run = lambda *args: CliRunner().invoke(app, [*args, "--state", str(t.state)])  # noqa: E731
    res = run("table", "set", "--table", "T", "entropy=everyone")
    assert res.exit_code == 2 and "entropy = 'everyone': one of off, players, players+beacon" in res.output
    res = run("hand", "open", "--table", "T")
    assert res.exit_code == 1 and "entropy = off" in res.output
    res = run("table", "set", "--table", "T", "entropy=players")
    assert res.exit_code == 0, res.output
    res = run("hand", "open", "--table", "T", "--minutes", "0")
    assert res.exit_code == 1 and "--minutes must be from 1" in res.output
    res = run("hand", "open", "--table", "T", "--minutes", "30")
    assert res.exit_code == 0, res.output
    assert "entropy window open until" in res.output and "nomicpoker hand start --table T" in res.output
    res = run("hand", "start", "--table", "T", "--ante", "5")
    assert res.exit_code == 1 and "closes at" in res.output and "start the hand after that" in res.output


def test_verify_from_the_ledger_checks_the_window_against_the_archive(tmp_path):
    t = entropy_table(tmp_path)
    w = open_window(t)
    a = post(t, w, "alice", "one")
    b = post(t, w, "bob", "two")
    start(t, w)
    run = lambda: CliRunner().invoke(app, ["audit", "verify", "--table", "T", "--state", str(t.state)])  # noqa: E731
    res = run()
    assert res.exit_code == 0, res.output
    assert "PASS T hand 1: entropy window complete: the archive of thread" in res.output
    # a Dealer who drops bob's comment from the hand row (and rehashes) is caught by the archive
    with Session(t.engine) as s:
        row = ledger.hand_rows(s, t.name)[0]
        data = json.loads(row.entropy)
    data["contributions"] = [c for c in data["contributions"] if c["comment_id"] != b]
    sql = t.sql()
    sql.execute("UPDATE np_hand SET entropy = ? WHERE number = 1", (json.dumps(data),))
    sql.commit()
    sql.close()
    res = run()
    assert res.exit_code == 1
    assert f"FAIL T hand 1: entropy window complete: comment {b} (bob) was posted in the window but is not mixed in" in res.output
    assert a


def test_the_relay_client_says_why_a_round_cannot_be_had(httpserver):
    import socket

    from nomicpoker.core.fairness.entropy import QUICKNET
    from nomicpoker.shell.cycle import beacon

    r, rnd, sig = REAL_ROUNDS[0]
    path = f"/{QUICKNET.hash}/public/{r}"
    httpserver.expect_request(path).respond_with_data("oops", status=500)
    with pytest.raises(beacon.BeaconError) as err:
        beacon.fetch(r, httpserver.url_for("/"))
    assert err.value.code == "unavailable" and "HTTP 500" in err.value.message
    httpserver.clear()
    httpserver.expect_request(path).respond_with_data("not json", content_type="text/plain")
    with pytest.raises(beacon.BeaconError) as err:
        beacon.fetch(r, httpserver.url_for("/"))
    assert err.value.code == "unavailable" and "not a beacon" in err.value.message
    httpserver.clear()
    # a relay answering another round than the one asked for
    httpserver.expect_request(path).respond_with_json({"round": r + 1, "randomness": rnd, "signature": sig})
    with pytest.raises(beacon.BeaconError) as err:
        beacon.fetch(r, httpserver.url_for("/"))
    assert err.value.code == "bad_round"
    httpserver.clear()
    httpserver.expect_request(path).respond_with_json({"round": r, "randomness": rnd, "signature": sig})
    assert beacon.fetch(r, httpserver.url_for("/")).randomness == rnd
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(beacon.BeaconError) as err:
        beacon.fetch(r, f"http://127.0.0.1:{port}")
    assert err.value.code == "unavailable" and "hand beacon" in err.value.message


# --------------------------------------------------------------------------- the auditors' site


def _entropy_section(t: Table, tmp_path, hand: int = 1):
    from bs4 import BeautifulSoup

    from nomicpoker.shell.audit.site import build_site

    site = tmp_path / "site"
    build_site(t.engine, site, state=t.state)
    page = BeautifulSoup((site / t.name / f"hand-{hand}.html").read_text("utf-8"), "html.parser")
    return page, page.find(id="entropy")


def test_the_hand_page_shows_what_the_deal_mixed_in_each_comment_with_its_hash(tmp_path):
    """The auditors' site shows the entropy object of docs/fair-dealing.md on the hand page:
    each comment of the window with the SHA-256 of its leaf and the window digest, so a reader
    can check them by hand with the reference block, not only with ``audit verify``."""
    t = entropy_table(tmp_path)
    w = open_window(t)
    a = post(t, w, "alice", "my lucky number is 7")
    b = post(t, w, "bob", "<b>HAND#1</b> SEED wobble")
    start(t, w)
    t.draw(1)
    checkdown(t)
    page, section = _entropy_section(t, tmp_path)
    assert section is not None, "the hand page has no entropy section"
    comments = [(a, "alice", "my lucky number is 7"), (b, "bob", "<b>HAND#1</b> SEED wobble")]
    lead = section.find_next("p").get_text(" ", strip=True)
    assert "mixed with 2 comments posted in the entropy window" in lead and f"opened by comment {w.opened_by}" in lead
    for cid, author, text in comments:
        row = page.find(id=f"entropy-{cid}")
        cells = [td.get_text(strip=True) for td in row.find_all("td")]
        assert cells[0] == cid and cells[1] == author and cells[2] == text  # the text as text, escaped
        assert cells[3] == EREF["leaf"](cid, author, text).hex()
    assert row.find("b") is None  # a player's markup is shown, never obeyed
    assert EREF["window"](comments).hex() in section.find_next("table").get_text()
    assert page.find(id="entropy-beacon") is None


def test_the_hand_page_names_the_beacon_round_and_a_table_without_entropy_has_no_section(tmp_path, relay):
    t = entropy_table(tmp_path, mode="players+beacon")
    w = open_window(t, relay=relay.url_for("/"))
    start(t, w)  # nobody commented: the window is empty, the beacon alone is mixed in
    t.draw(1)
    checkdown(t)
    page, section = _entropy_section(t, tmp_path)
    r, rnd, _ = REAL_ROUNDS[2]
    lead = section.find_next("p").get_text(" ", strip=True)
    assert "where nobody commented" in lead and f"drand quicknet round {r}" in lead
    beacon = page.find(id="entropy-beacon")
    assert rnd in beacon.get_text() and beacon.a["href"].endswith(f"/public/{r}")
    assert EREF["window"]([]).hex() in section.find_next("table").get_text()

    plain = Table(tmp_path / "plain", players=("alice", "bob"), settings={"reminders": 0})
    plain.start()
    plain.draw(1)
    plain.act("alice", "HAND1 ROUND1 fold")
    page, section = _entropy_section(plain, tmp_path / "plain")
    assert section is None and page.find(id="fair") is not None
