"""Sealed private messages: what the ledger keeps of a deck or hole cards sent privately.

WHY: the ledger database is what a backup copies, what ``export public-db`` publishes and
what an auditor opens; a private message body in it (a player's whole issued deck, the hole
cards of a running hand) would leak the hand to whoever reads the file. So the fold stores a
*seal* in ``np_outbox.body`` instead: a line naming the recipient and the HMAC-SHA256 of the
body, keyed by the hand's three secrets (deck, dice, decks concatenated). The secrets are
published when the hand ends, so from then on anyone holding the message (its recipient) can
check it is the one the ledger sealed; before, the seal tells nothing (a hole-card message has
only 1,326 possible bodies: a plain hash could be reversed by trying them all, a keyed one
cannot). The body itself is sent from the Dealer's owner-only secrets folder
(:mod:`nomicpoker.shell.storage.secrets_store`).

Pure: values in, a string out.
"""

from __future__ import annotations

import hashlib
import hmac

from nomicpoker.core.fairness.dealing import HandSecrets

PREFIX = "[sealed private message"


def seal(secrets: HandSecrets, hand: int, recipient: str, body: str) -> str:
    """The ledger's text for a private message: readable, carrying no card."""
    key = secrets.deck + secrets.dice + secrets.decks
    mac = hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()
    return (f"{PREFIX} to {recipient}: HMAC-SHA256 {mac} keyed by the secrets of hand {hand} "
            "(deck, dice, decks), published when it ends]")


def is_sealed(body: str) -> bool:
    return body.startswith(PREFIX)


def check_seal(published: dict[str, str], sealed: str, body: str) -> bool:
    """Whether ``body`` is the message ``sealed`` stands for, given the hand's published
    hex secrets (what an auditor or the recipient runs once the hand has ended)."""
    key = b"".join(bytes.fromhex(published[n]) for n in ("deck", "dice", "decks"))
    mac = hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"HMAC-SHA256 {mac} " in sealed
