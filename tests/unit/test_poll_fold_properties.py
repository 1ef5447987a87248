"""Properties of the table fold the poll cycle and the audit rest on (hypothesis).

- It never raises on any sequence of comments (a crash would stall the table forever).
- Money is conserved: Money + Pot + chips destroyed by rounding = the starting Money.
- Prefix stability: folding the first k comments gives exactly the first rows of folding all
  of them. The poll stores only the new suffix and the audit compares, both on this basis.
- Determinism: the same inputs give the same rows.
"""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nomicpoker.core.fold.fold_run import fold_table
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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, max_size=60), st.integers(0, 60))
def test_the_fold_never_raises_conserves_money_and_is_prefix_stable(steps, cut):
    revs, events = build(steps)
    full = fold_table(CONFIG, [START], revs, events)
    assert full == fold_table(CONFIG, [START], revs, events)
    destroyed = sum(r["destroyed"] for r in full.rows["hand_end"])
    assert sum(m + pot for m, _turn, pot in full.gndt.values()) + destroyed == 300
    k = min(cut, len(revs))
    last = revs[k - 1].archive_id if k else 0
    part = fold_table(CONFIG, [START], revs[:k], [e for e in events if e.after <= last])
    for kind, rows in part.rows.items():
        assert list(full.rows[kind][:len(rows)]) == list(rows), kind
