"""A generated table for the fold's properties (hypothesis): a blognomic-2008 table of three
with fixed secrets, every player's valid draws, then generated comments (actions, reveals,
edits, timeouts, chat, noise). Used by tests/unit/fold/test_poll_fold_properties.py,
test_snapshot.py, test_fold_memo.py and test_rooms.py."""

from __future__ import annotations

import hashlib

from hypothesis import strategies as st

from nomicpoker.core.fairness.dealing import hole_cards, issue_deck, roll
from nomicpoker.core.table.fold_types import DealerEvent, HandStart, Revision, TableConfig
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("blognomic-2008")
CONFIG = TableConfig("T", PLAYERS, 100, "Dealer", RULES, "blognomic-2008")
START = HandStart(1, "1", "carol", 5, (), tuple((p, 100) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS)

FORMS = ["HAND1 ROUND{r} call", "HAND1 ROUND{r} check", "HAND1 ROUND{r} raise {n}",
         "HAND1 ROUND{r} all in", "HAND1 ROUND{r} folds", "HAND1 ROUND{r} call {n}", "REVEAL",
         "HAND1 reveal 7h 2s", "HAND#1 DICE52 DICE52", "cards 3, 4, Cards printed by: X", "chat",
         "HAND2 ROUND{r} raise {n}", "> HAND1 ROUND{r} folds", "EDIT", "TIMEOUT"]

step = st.tuples(st.sampled_from(PLAYERS + ("erin", "Dealer")), st.sampled_from(FORMS),
                 st.integers(1, 4), st.sampled_from([0, 1, 5, 10, 20, 50, 95, 500]))


def build(steps):
    """Valid draws for everyone, then the generated comments (edits and timeouts included)."""
    revs: list[Revision] = []
    events: list[DealerEvent] = []
    pos = {}

    def add(author, body, forum_id=None, revision=1):
        n = len(revs) + 1
        revs.append(Revision(n, "1", forum_id or str(n), revision, author,
                             f"2026-01-01T00:00:{n:02d}+00:00" if n < 60 else "2026-01-02T00:00:00+00:00", body))

    for p in PLAYERS:
        while True:
            add(p, "HAND#1 DICE52 DICE52")
            a, b = (roll(SECRETS.dice, str(len(revs)), i, 52) for i in (0, 1))
            if a != b:
                pos[p] = (a, b)
                break
    for p in PLAYERS:
        add(p, f"cards {pos[p][0]}, {pos[p][1]}, {issue_deck(SECRETS.decks, 1, p).checksum}")
    for who, form, r, n in steps:
        if form == "REVEAL" and who in pos:
            add(who, "HAND1 reveal " + " ".join(hole_cards(issue_deck(SECRETS.decks, 1, who).cards, pos[who])))
        elif form == "EDIT" and revs:
            last = revs[-1]
            add(last.author, last.body + " (edited)", forum_id=last.forum_id, revision=last.revision + 1)
        elif form == "TIMEOUT":
            events.append(DealerEvent(len(revs), 1, "timeout", who, "2026-01-03T00:00:00+00:00"))
        else:
            add(who, form.format(r=r, n=n))
    return revs, events
