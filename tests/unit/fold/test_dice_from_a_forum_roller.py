"""Forums with their own dice roller (BlogNomic): the fold records the forum's results as given,
asks for another draw on identical results, never rolls itself, and verify says those dice
are the forum's (it cannot recompute them). Pure: the fold and verify, no forum."""

from __future__ import annotations

import hashlib

from nomicpoker.core.fold.fold_run import fold_table
from nomicpoker.core.table.fold_types import HandStart, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets
from nomicpoker.core.fairness.verify import verify_record

PLAYERS = ("alice", "bob")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
CONFIG = TableConfig("B", PLAYERS, 100, "Dealer", load_ruleset("blognomic-2008"), "blognomic-2008",
                     issue_decks=False, forum_roller=True)
START = HandStart(1, "post-1", "bob", 5, (), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS)


def rev(n: int, author: str, body: str, dice: tuple[int, ...] = ()) -> Revision:
    return Revision(n, "post-1", str(n), 1, author, f"2026-01-01T00:0{n}:00+00:00", body, dice=dice,
                    permalink=f"https://blog.example/post-1#comment-{n}")


def test_the_forums_dice_are_recorded_as_given_and_identical_ones_drawn_again():
    revs = [rev(1, "alice", "HAND#1 DICE52 DICE52", dice=(14, 14)),   # identical: draw again
            rev(2, "alice", "HAND#1 DICE52 DICE52", dice=(14, 26)),
            rev(3, "bob", "HAND#1 DICE52 DICE52", dice=(3, 52)),
            rev(4, "alice", "alice cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko"),
            rev(5, "bob", "cards 52, 3, Cards printed by: Kitchen Table Press, Elko")]
    out = fold_table(CONFIG, [START], revs, [])
    dice = [(d["comment_id"], d["index"], d["result"], d["source"]) for d in out.rows["dice"]]
    assert dice == [("1", 0, 14, "forum"), ("1", 1, 14, "forum"), ("2", 0, 14, "forum"),
                    ("2", 1, 26, "forum"), ("3", 0, 3, "forum"), ("3", 1, 52, "forum")]
    verdicts = [(v["forum_id"], v["status"], v["code"]) for v in out.rows["verdict"]]
    assert verdicts[0] == ("1", "rejected", "identical_dice")
    assert [v[1] for v in verdicts[1:]] == ["accepted"] * 4
    # The draws are the forum's numbers; own decks: the stated checksums are recorded.
    draws = [(d["player"], d["positions"]) for d in out.rows["draw"]]
    assert draws == [("alice", [14, 26]), ("bob", [52, 3])]
    assert out.current.phase == "betting" and out.current.to_act == "alice"  # first after bob
    # The dealer's reply to the identical roll asks for another draw.
    reply = [o["body"] for o in out.rows["outbox"] if o["reply_to"] == "1"]
    assert len(reply) == 1 and "14" in reply[0] and "draw" in reply[0].lower()


def test_a_roll_the_forum_gave_no_results_for_is_rejected():
    out = fold_table(CONFIG, [START], [rev(1, "alice", "HAND#1 DICE52 DICE52")], [])
    assert out.rows["dice"] == ()
    v = out.rows["verdict"][0]
    assert v["status"] == "rejected" and "gave no results" in v["message"]


def test_verify_passes_forum_dice_as_the_forums_and_names_them():
    revs = [rev(1, "alice", "HAND#1 DICE52 DICE52", dice=(14, 26))]
    out = fold_table(CONFIG, [START], revs, [])
    record = {"format": "nomicpoker-hand-record/1", "table": "B", "hand": 1, "ruleset": "blognomic-2008",
              "ruleset_hash": CONFIG.ruleset.content_hash, "commitments": dict(SECRETS.commitments()),
              "secrets": dict(SECRETS.published()), **out.records[1]}
    record["secrets"] = dict(SECRETS.published())
    checks = [c for c in verify_record(record) if "die" in c.item]
    assert len(checks) == 2 and all(c.ok for c in checks)
    assert all("forum's own roller" in c.detail for c in checks)
