"""The drand quicknet beacon over HTTP (shell): fetch the round a hand's deal waits for.

WHY only here: the core checks a round (:func:`nomicpoker.core.fairness.entropy.verify_beacon`), the
shell fetches it. A table asks for the beacon with ``entropy = players+beacon``; ``hand start``
then fetches the round due just after the entropy window closed from a drand HTTP relay
(``GET <relay>/<chain hash>/public/<round>``, drand's public API), or the Dealer pastes it
(``nomicpoker hand beacon``) from any relay or a drand client when the machine cannot reach
one. Either way the round is verified against quicknet's public key before it is used, so a
relay cannot feed the Dealer a round of its choosing. Off by default: nothing here runs, and
nothing needs the internet, unless a table asks.
"""

from __future__ import annotations

import os

from nomicpoker.core.fairness.entropy import QUICKNET, BeaconRound, Chain, verify_beacon
from nomicpoker.core.errors import CodedError

#: The League of Entropy's HTTP relay; ``NOMICPOKER_DRAND_URL`` or ``--beacon-url`` replace it.
DEFAULT_RELAY = "https://api.drand.sh"
TIMEOUT = 10.0


class BeaconError(CodedError):
    """A beacon round that cannot be used. ``code``: ``not_yet`` (the relay has not published
    it: try after its time), ``unavailable`` (the relay cannot be reached or answered with
    something else), ``forged`` (it does not verify under the chain's key), ``bad_round``."""


def relay_url(given: str | None = None) -> str:
    """The relay to ask: ``given``, else ``NOMICPOKER_DRAND_URL``, else drand's own."""
    return (given or os.environ.get("NOMICPOKER_DRAND_URL") or DEFAULT_RELAY).rstrip("/")


def checked(beacon: BeaconRound, expected_round: int, chain: Chain = QUICKNET) -> BeaconRound:
    """``beacon`` if it is round ``expected_round`` of ``chain`` with a valid signature."""
    if beacon.round != expected_round:
        raise BeaconError("bad_round", f"round {beacon.round} is not the round this hand waits for "
                          f"({expected_round}, the first after its entropy window closed)")
    why = verify_beacon(beacon, chain)
    if why is not None:
        raise BeaconError("forged", f"drand round {beacon.round} refused: {why}")
    return beacon


def fetch(round_number: int, relay: str | None = None, chain: Chain = QUICKNET) -> BeaconRound:
    """Round ``round_number`` of ``chain`` from an HTTP relay, verified."""
    import requests

    url = f"{relay_url(relay)}/{chain.hash}/public/{round_number}"
    try:
        resp = requests.get(url, timeout=TIMEOUT, headers={"Accept": "application/json"})
    except requests.RequestException as exc:
        raise BeaconError("unavailable", f"cannot reach the drand relay {relay_url(relay)}: {exc}; "
                          "paste the round with nomicpoker hand beacon") from exc
    if resp.status_code in (404, 425):
        raise BeaconError("not_yet", f"drand round {round_number} is not published yet at "
                          f"{relay_url(relay)} (HTTP {resp.status_code}): try again after its time")
    if resp.status_code != 200:
        raise BeaconError("unavailable", f"the drand relay {relay_url(relay)} answered HTTP "
                          f"{resp.status_code} for round {round_number}")
    try:
        data = resp.json()
        beacon = BeaconRound(int(data["round"]), str(data["randomness"]), str(data["signature"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise BeaconError("unavailable", f"the drand relay's answer for round {round_number} is not "
                          f"a beacon: {exc!r}") from exc
    return checked(beacon, round_number, chain)
