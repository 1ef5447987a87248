"""Players' entropy and the drand beacon mixed into the committed secrets (issue 26, core).

Expected values come from the reference implementation in docs/fair-dealing.md, executed as
written (standard-library hashlib/hmac, no nomicpoker code), and from real drand quicknet
rounds whose BLS signatures only the League of Entropy could have made.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from nomicpoker.core.fairness.dealing import HandSecrets, board_cards, issue_deck, roll, shared_holes
from nomicpoker.core.fairness.entropy import (
    QUICKNET, BeaconRound, Contribution, Entropy, EntropyError, Posted, from_json, mix,
    round_due_after, round_time, select_window, verify_beacon, window_digest,
)

from kits.tables.entropy import DOC, REAL_ROUNDS, REF, SECRETS

def entropy(comments, mode="players", beacon=None) -> Entropy:
    return Entropy(mode=mode, thread="t1", opened_by="10", close_at="2023-09-15T11:00:00+00:00",
                   contributions=tuple(Contribution(*c) for c in comments), beacon=beacon)


COMMENTS = [("12", "alice", "lucky 7"), ("15", "bob", "HAND#4 SEED x"), ("101", "carol", "ça va")]


# --------------------------------------------------------------------------- the construction


def test_mixing_equals_the_documented_reference_for_each_secret():
    e = entropy(COMMENTS)
    got = mix(SECRETS, 4, e)
    for name, secret in SECRETS.by_name().items():
        assert getattr(got, name) == REF["mixed"](secret, name, 4, list(COMMENTS))


def test_mixing_with_the_beacon_equals_the_reference():
    r, rnd, sig = REAL_ROUNDS[2]
    e = entropy(COMMENTS, mode="players+beacon", beacon=BeaconRound(r, rnd, sig))
    got = mix(SECRETS, 4, e)
    assert got.deck == REF["mixed"](SECRETS.deck, "deck", 4, list(COMMENTS), (r, rnd))
    assert got.deck != mix(SECRETS, 4, entropy(COMMENTS)).deck


def test_comments_are_hashed_in_forum_order_whatever_order_they_are_given():
    shuffled = [COMMENTS[2], COMMENTS[0], COMMENTS[1]]
    assert window_digest(Contribution(*c) for c in shuffled) == REF["window"](list(COMMENTS))
    # forum order: "101" comes after "15" (shorter ids first), not before it as text would
    leaves = [Contribution(*c).leaf() for c in (COMMENTS[0], COMMENTS[2], COMMENTS[1])]
    import hashlib
    text_order = hashlib.sha256(b"nomicpoker/entropy/window/1" + (3).to_bytes(4, "big") + b"".join(leaves)).digest()
    assert window_digest(Contribution(*c) for c in COMMENTS) != text_order


def test_no_entropy_deals_from_the_committed_secrets_as_before():
    assert mix(SECRETS, 4, None) is SECRETS


def test_the_three_secrets_mix_under_their_own_names_and_the_hand_number():
    e = entropy(COMMENTS)
    same = HandSecrets(deck=bytes(32), dice=bytes(32), decks=bytes(32))
    m = mix(same, 4, e)
    assert len({m.deck, m.dice, m.decks}) == 3  # equal secrets still give three different keys
    assert mix(SECRETS, 5, e).deck != mix(SECRETS, 4, e).deck


def test_an_empty_window_still_changes_nothing_but_is_well_defined():
    e = entropy([])
    assert mix(SECRETS, 4, e).deck == REF["mixed"](SECRETS.deck, "deck", 4, [])


def test_the_beacon_mode_without_a_round_is_refused():
    with pytest.raises(EntropyError) as err:
        mix(SECRETS, 4, entropy(COMMENTS, mode="players+beacon"))
    assert err.value.code == "bad_beacon"


def test_off_and_unknown_modes_are_not_entropy():
    for mode in ("off", "dealer", ""):
        with pytest.raises(EntropyError) as err:
            entropy(COMMENTS, mode=mode)
        assert err.value.code == "bad_mode"


def test_the_record_form_round_trips_and_carries_each_hash():
    r, rnd, sig = REAL_ROUNDS[0]
    e = entropy(COMMENTS, mode="players+beacon", beacon=BeaconRound(r, rnd, sig))
    data = e.as_json()
    assert [c["comment_id"] for c in data["contributions"]] == ["12", "15", "101"]
    assert data["contributions"][2]["sha256"] == REF["leaf"]("101", "carol", "ça va").hex()
    assert data["window"] == REF["window"](list(COMMENTS)).hex()
    assert from_json(data) == e


# --------------------------------------------------------------------------- properties

_text = st.text(max_size=40)
_comments = st.lists(st.tuples(st.integers(1, 10**6).map(str), st.sampled_from(["alice", "bob", "carol", "dan"]),
                               _text), min_size=1, max_size=6, unique_by=lambda c: c[0])


@settings(max_examples=60, deadline=None)
@given(comments=_comments, i=st.integers(0, 5), new_text=_text)
def test_changing_any_entropy_comment_changes_the_deal(comments, i, new_text):
    i %= len(comments)
    cid, author, text = comments[i]
    if new_text == text:
        new_text += "!"
    changed = list(comments)
    changed[i] = (cid, author, new_text)
    a, b = mix(SECRETS, 3, entropy(comments)), mix(SECRETS, 3, entropy(changed))
    assert board_cards(a.deck, 3) != board_cards(b.deck, 3)
    assert issue_deck(a.decks, 3, "alice").cards != issue_deck(b.decks, 3, "alice").cards
    assert [roll(a.dice, "99", k, 52) for k in range(6)] != [roll(b.dice, "99", k, 52) for k in range(6)]


@settings(max_examples=60, deadline=None)
@given(comments=_comments, silent=st.sampled_from(["alice", "bob", "carol", "dan"]))
def test_a_silent_player_changes_nothing_but_his_own_contribution(comments, silent):
    """The deal without a player's comments is the deal of the others' comments alone: his
    silence takes out his own leaves and nothing else (no one waits, no other leaf moves)."""
    spoke = entropy(comments)
    quiet = entropy([c for c in comments if c[1] != silent])
    others = [Contribution(*c).leaf() for c in comments if c[1] != silent]
    assert {c.leaf() for c in quiet.contributions} == set(others)
    assert quiet.window() == REF["window"]([c for c in comments if c[1] != silent])
    if any(c[1] == silent for c in comments):
        assert mix(SECRETS, 3, spoke).deck != mix(SECRETS, 3, quiet).deck
    else:
        assert mix(SECRETS, 3, spoke) == mix(SECRETS, 3, quiet)


def test_shared_holes_are_dealt_from_the_mixed_deck_secret():
    m = mix(SECRETS, 3, entropy(COMMENTS))
    assert shared_holes(m.deck, 3, ["a", "b"]) != shared_holes(SECRETS.deck, 3, ["a", "b"])


# --------------------------------------------------------------------------- the window


def posted(cid, author, created, text="x", revision=0):
    return Posted(cid, revision, author, created, text)


def test_the_window_takes_comments_after_the_commitment_before_the_close_not_the_dealers():
    rows = [
        posted("9", "alice", "2023-09-15T10:00:00+00:00", "before the commitment"),
        posted("10", "Dealer", "2023-09-15T10:00:01+00:00", "commitments"),
        posted("11", "bob", "2023-09-15T10:10:00+00:00", "first"),
        posted("11", "bob", "2023-09-15T10:20:00+00:00", "edited later", revision=1),
        posted("12", "Dealer", "2023-09-15T10:30:00+00:00", "a dealer notice"),
        posted("13", "carol", "2023-09-15T10:59:59+00:00", "just in time"),
        posted("14", "dan", "2023-09-15T11:00:00+00:00", "too late"),
    ]
    got = select_window(rows, "10", "2023-09-15T11:00:00+00:00", lambda a: a == "Dealer")
    assert got == (Contribution("11", "bob", "first"), Contribution("13", "carol", "just in time"))


def test_times_without_a_zone_are_refused():
    with pytest.raises(EntropyError) as err:
        select_window([], "1", "2023-09-15T11:00:00", lambda a: False)
    assert err.value.code == "bad_time"


# --------------------------------------------------------------------------- the beacon


def test_the_round_due_is_the_first_published_strictly_after_the_close():
    assert round_due_after("2023-09-15T11:00:00+00:00") == 657413
    assert round_time(657413) == 1694775603  # 11:00:03 UTC
    assert round_due_after("2023-09-15T11:00:03+00:00") == 657414  # a round published at the close is too early
    for t in (1692803367, 1694775600, 1694775601, 1694775603, 1800000000):
        from datetime import datetime, timezone
        iso = datetime.fromtimestamp(t, timezone.utc).isoformat()
        assert round_due_after(iso) == REF["round_due_after"](t)
        assert round_time(round_due_after(iso)) > t >= round_time(round_due_after(iso) - 1)


@pytest.mark.parametrize("r,rnd,sig", REAL_ROUNDS)
def test_real_quicknet_rounds_verify(r, rnd, sig):
    assert verify_beacon(BeaconRound(r, rnd, sig)) is None
    assert QUICKNET.public_key.startswith("83cf0f2896ad")


@pytest.mark.parametrize("r,rnd,sig", REAL_ROUNDS)
def test_a_forged_or_misplaced_round_is_refused(r, rnd, sig):
    # another round's number
    assert "does not verify" in verify_beacon(BeaconRound(r + 1, rnd, sig))
    # a signature with one bit flipped, its randomness recomputed to match
    import hashlib
    forged = bytearray.fromhex(sig)
    forged[-1] ^= 1
    fsig = forged.hex()
    why = verify_beacon(BeaconRound(r, hashlib.sha256(forged).hexdigest(), fsig))
    assert why and "does not verify" in why
    # randomness that is not the signature's hash
    assert "not SHA-256" in verify_beacon(BeaconRound(r, "00" * 32, sig))
    # not hex at all
    assert "hex" in verify_beacon(BeaconRound(r, rnd, "zz" * 48))


def test_another_rounds_real_signature_is_refused_for_this_round():
    (r2, _, s2), (r3, rnd3, s3) = REAL_ROUNDS[0], REAL_ROUNDS[1]
    import hashlib
    assert verify_beacon(BeaconRound(r3, hashlib.sha256(bytes.fromhex(s2)).hexdigest(), s2)) is not None
    assert dataclasses.replace(BeaconRound(r3, rnd3, s3)).round == 3


# --------------------------------------------------------------------------- the worked example


def test_the_worked_example_in_the_docs_is_what_the_package_computes():
    """docs/fair-dealing.md, "Worked example": the numbers a third party checks a port against."""
    from kits.references.fair_dealing import REF as DEAL

    text = DOC.read_text("utf-8").split("### Worked example", 1)[1].split("###", 1)[0]
    secrets = HandSecrets(deck=bytes(range(32)), dice=bytes(range(1, 33)), decks=bytes(range(2, 34)))
    comments = [("12", "alice", "lucky 7"), ("15", "bob", "HAND#3 SEED x")]
    e = entropy(comments)
    for c in e.contributions:
        assert c.leaf().hex() in text
    assert e.window().hex() in text
    assert secrets.commitments()["deck"] in text
    plain = mix(secrets, 3, e)
    assert plain.deck.hex() in text and " ".join(board_cards(plain.deck, 3)[:5]) in text
    assert " ".join(DEAL["board"](secrets.deck, 3)) in text
    r, rnd, sig = REAL_ROUNDS[2]
    assert round_due_after("2023-09-15T11:00:00+00:00") == r and str(r) in text and rnd in text and sig in text
    beacon = mix(secrets, 3, entropy(comments, mode="players+beacon", beacon=BeaconRound(r, rnd, sig)))
    assert beacon.deck.hex() in text and " ".join(board_cards(beacon.deck, 3)[:5]) in text
    assert f"is `{roll(beacon.dice, '21', 0, 52)}`" in text
