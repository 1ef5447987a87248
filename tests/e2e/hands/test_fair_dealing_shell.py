"""Fair dealing in the shell: secrets kept, committed, published at the end; draws and reveals
checked; records verify; tampering fails; no secret leaks before its hand ends."""

from __future__ import annotations

import json
import stat

from sqlmodel import Session
from typer.testing import CliRunner

from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.cli import app
from nomicpoker.core.poker.cards import format_cards
from nomicpoker.core.fairness.dealing import hole_cards, issue_deck, roll
from nomicpoker.shell.storage.secrets_store import HandSecrets

from kits.tables.bot import Table, fixed_secrets
from kits.references.fair_dealing import REF


def to_showdown(t: Table, who=("alice", "bob")) -> None:
    """alice and bob check it down after alice raises 10 and bob calls (two players)."""
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    for r in (2, 3, 4):
        t.act("alice", f"HAND1 ROUND{r} check")
        t.act("bob", f"HAND1 ROUND{r} check")


def scan_for(secrets: HandSecrets, texts: list[str]) -> list[str]:
    """Every spelling a 32-byte secret could leak in: hex (either case), base64 (standard and
    URL-safe, padded or not) and the raw bytes (the binary files are read as latin-1)."""
    import base64

    needles = []
    for v in secrets.by_name().values():
        needles += [v.hex(), v.hex().upper(), base64.b64encode(v).decode().rstrip("="),
                    base64.urlsafe_b64encode(v).decode().rstrip("="), v.decode("latin-1")]
    return [n for n in needles for x in texts if n in x]


def everything_public_and_stored(t: Table, outputs: list[str]) -> list[str]:
    texts = [c.body for c in t.comments()]
    for p in t.players:
        texts += [m.body + m.subject for m in t.forum.inbox(p)]
    texts += outputs
    with Session(t.engine) as s:
        for kind in ledger.MODELS:
            texts += [json.dumps(r.model_dump()) for r in ledger.stored_rows(s, t.name, kind)]
        texts += [json.dumps(h.model_dump()) for h in ledger.hand_rows(s, t.name)]
    texts.append((t.state / "ledger.db").read_bytes().decode("latin-1"))
    texts.append(t.forum.path.read_bytes().decode("latin-1"))
    for wal in list(t.state.glob("ledger.db-wal")) + list(t.state.glob("forum.db-wal")):
        texts.append(wal.read_bytes().decode("latin-1"))
    return texts


def test_no_secret_appears_anywhere_before_its_hand_ends(tmp_path, caplog):
    t = Table(tmp_path, players=("alice", "bob"))
    caplog.set_level("DEBUG")
    t.start(ante=5)
    t.draw(1)
    outputs = []
    for args in (["ledger", "--table", "T", "--format", "json", "--log"], ["audit"],
                 ["audit", "export", "--table", "T", "--hand", "1"], ["table", "show", "--table", "T"],
                 ["poll"], ["poll", "--dry-run"], ["audit", "verify", "--table", "T"],
                 ["deck", "issue", "--table", "T"], ["verdicts", "--table", "T"],
                 ["phh", "export", "--table", "T", "--hand", "1"],
                 ["site", "build", "--out", str(tmp_path / "www")],
                 ["export", "public-db", "-o", str(tmp_path / "public.db")]):
        res = CliRunner().invoke(app, args + ["--state", str(t.state)])
        assert res.exit_code == 0, res.output
        outputs.append(res.output)
    to_showdown(t)
    res = CliRunner().invoke(app, ["site", "build", "--out", str(tmp_path / "www2"), "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    outputs.append(caplog.text)
    # the site (pages, records, PHH), mid-hand and at the showdown, and the public database
    exported = [p for d in ("www", "www2") for p in (tmp_path / d).rglob("*") if p.is_file()]
    assert any(p.suffix == ".json" for p in exported) and any(p.suffix == ".phh" for p in exported)
    outputs += [p.read_bytes().decode("latin-1") for p in exported]
    outputs.append((tmp_path / "public.db").read_bytes().decode("latin-1"))
    assert scan_for(t.hands[1], everything_public_and_stored(t, outputs)) == []
    # nor the decks sent privately: no card line of a player's deck in anything exported
    for p in t.players:
        deck_lines = [ln.strip() for ln in t.forum.inbox(p)[0].body.splitlines() if "♠" in ln or "♥" in ln]
        assert deck_lines
        for text in outputs[-len(exported) - 1:]:
            utf8 = text.encode("latin-1").decode("utf-8", "replace")
            assert not [ln for ln in deck_lines if ln in utf8]
    # The secrets file is owner-only.
    path = secrets_store.secret_path(t.state, "T", 1)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "HandSecrets()" == repr(t.hands[1])
    # After the reveals the hand ends and the secrets are published.
    t.act("alice", "HAND1 reveal " + " ".join(t.p["alice"].hole()))
    t.act("bob", "HAND1 reveal " + " ".join(t.p["bob"].hole()))
    payout = t.dealer_bodies()[-1]
    assert "is over" in payout
    assert all(v.hex() in payout for v in t.hands[1].by_name().values())
    # the scanner itself can fail: after the end it finds the published secrets
    assert len(scan_for(t.hands[1], [payout])) >= 3


def test_the_hand_verifies_and_a_tampered_record_fails_naming_the_item(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    t.draw(1)
    to_showdown(t)
    t.act("alice", "HAND1 reveal " + " ".join(t.p["alice"].hole()))
    t.act("bob", "HAND1 reveal " + " ".join(t.p["bob"].hole()))
    run = CliRunner().invoke
    res = run(app, ["audit", "verify", "--table", "T", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert "FAIL" not in res.output and "PASS T hand 1: reveal alice" in res.output
    out = tmp_path / "rec.json"
    assert run(app, ["audit", "export", "--table", "T", "--hand", "1", "-o", str(out),
                     "--state", str(t.state)]).exit_code == 0
    rec = json.loads(out.read_text())
    assert rec["secrets"]["deck"] == t.hands[1].deck.hex()
    assert len(rec["board"]) == 5 and len(rec["draws"]) == 2 and len(rec["reveals"]) == 2
    # the dice in the record are the bot's, from the committed dice secret and the comment id
    d = rec["dice"][0]
    assert d["result"] == roll(t.hands[1].dice, d["comment_id"], d["index"], 52)

    def tampered(change):
        bad = json.loads(json.dumps(rec))
        change(bad)
        p = tmp_path / "bad.json"
        p.write_text(json.dumps(bad))
        return run(app, ["audit", "verify", "--record", str(p)])

    flips = {
        "board": lambda r: r["board"].__setitem__(0, "2s" if r["board"][0] != "2s" else "3s"),
        "secret": lambda r: r["secrets"].__setitem__("deck", "00" * 32),
        "checksum": lambda r: r["decks"][0].__setitem__("checksum", "Cards printed by: A. B. Nobody Press, Nowhere (00000000)"),
        "dice": lambda r: r["dice"][0].__setitem__("result", r["dice"][0]["result"] % 52 + 1),
    }
    # the item each tampering must fail, by the names verify gives its checks
    d0 = rec["dice"][0]
    named = {
        "board": "board card 1 (flop)",
        "secret": "commitment deck",
        "checksum": f"deck {rec['decks'][0]['player']}",
        "dice": f"die comment {d0['comment_id']} #{d0['index'] + 1}",
    }
    for what, change in flips.items():
        res = tampered(change)
        assert res.exit_code == 1, what
        failed = [ln for ln in res.output.splitlines() if ln.startswith("FAIL")]
        assert any(named[what] in ln for ln in failed), (what, failed)
    untouched = tampered(lambda r: None)  # the same file path, unchanged: passes
    assert untouched.exit_code == 0 and "FAIL" not in untouched.output, untouched.output


def test_a_draw_statement_that_does_not_match_is_rejected_with_the_reason(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    for p in t.p.values():
        p.read_deck(1)
    cid = t.p["alice"].say("HAND#1 DICE52 DICE52")
    t.run()
    t.new_dealer()
    a, b = t.p["alice"].dice_results(cid)
    assert a != b  # (fixed secrets: this draw is usable)
    wrong = a % 52 + 1 if a % 52 + 1 != b else (a + 1) % 52 + 1
    out = t.act("alice", f"cards {wrong}, {b}, {t.p['alice'].checksum}")
    assert "`draw_mismatch`" in out[0] and f"the dice gave {a}, {b}" in out[0]
    out = t.act("alice", f"cards {a}, {b}, Cards printed by: Z. Z. Nobody Press, Nowhere")
    assert "`draw_mismatch`" in out[0] and "checksum" in out[0]
    out = t.act("alice", f"cards {a}, {b}, {t.p['alice'].checksum}")
    assert "Hole Card Draw is recorded" in out[0] and "Still to state a Hole Card Draw: bob" in out[0]


def _identical_dice_secrets(comment_id: str) -> HandSecrets:
    base = fixed_secrets("identical")
    for i in range(5000):
        dice = bytes([i % 256, i // 256]) * 16
        if roll(dice, comment_id, 0, 52) == roll(dice, comment_id, 1, 52):
            return HandSecrets(base.deck, dice, base.decks)
    raise AssertionError("no secret found")


def test_identical_dice_are_drawn_again(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    # Comment ids on a fresh local forum: story post is a thread, the hand-start comment is 1.
    t.start(ante=5, secrets=_identical_dice_secrets("2"))
    cid = t.p["alice"].say("HAND#1 DICE52 DICE52")
    assert cid == "2"
    t.run()
    body = t.new_dealer()[-1]
    assert "Both results are the same number" in body and "make another Hole Card Draw" in body
    out = t.act("alice", "HAND#1 DICE52 DICE52")
    assert "Your hole cards are cards" in out[-1]


def test_a_false_reveal_is_rejected_and_the_deck_is_told_only_at_the_end(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    t.draw(1)
    to_showdown(t)
    real = t.p["alice"].hole()
    fake = [c for c in ("As", "Ah", "Ad", "Ac") if c not in real][:2]
    out = t.act("alice", "HAND1 reveal " + " ".join(fake))
    assert "`false_reveal`" in out[0]
    assert not any(c in out[0] for c in real)  # not told before the end
    t.act("alice", "HAND1 reveal " + " ".join(real))
    t.act("bob", "HAND1 reveal " + " ".join(t.p["bob"].hole()))
    payout = t.dealer_bodies()[-1]
    # the cards at alice's drawn positions, by the docs' reference implementation (independent
    # of nomicpoker.core.fairness.dealing), are what she really revealed and what the payout now states
    ref_deck = REF["deck"](t.hands[1].decks, 1, "alice")
    held = tuple(ref_deck[k - 1] for k in t.p["alice"].positions)
    assert held == real
    assert "is over" in payout
    assert f"alice's issued deck held {format_cards(held)} at the drawn positions" in payout
    deck = issue_deck(t.hands[1].decks, 1, "alice")
    assert hole_cards(deck.cards, t.p["alice"].positions) == real


def test_own_decks_record_the_stated_checksum_and_say_reveals_are_unchecked(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), issue_decks=False)
    t.start(ante=5)
    assert all(t.forum.inbox(p) == [] for p in t.players)  # nothing issued
    ids = {p: t.p[p].say("HAND#1 DICE52 DICE52") for p in t.players}
    t.run()
    t.new_dealer()
    for p in t.players:
        a, b = t.p[p].dice_results(ids[p])
        out = t.act(p, f"cards {a}, {b}, Cards printed by: J. J. Grimes Printing, Elko")
        assert "own deck" in out[0]
    to_showdown(t)
    t.act("alice", "HAND1 reveal 7h 2s")
    t.act("bob", "HAND1 reveal Kd Kc")
    payout = t.dealer_bodies()[-1]
    assert "is over" in payout and "could not be checked against a deck" in payout
    with Session(t.engine) as s:
        rec = ledger.hand_record(s, ledger.get_table(s, "T"), 1)
    assert [d["source"] for d in rec["decks"]] == ["own", "own"]


def test_deck_issue_resends_the_decks_privately(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    res = CliRunner().invoke(app, ["deck", "issue", "--table", "T", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert [len(t.forum.inbox(p)) for p in t.players] == [2, 2]
    assert t.forum.inbox("alice")[0].body == t.forum.inbox("alice")[1].body
