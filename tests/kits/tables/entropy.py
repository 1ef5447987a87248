"""Players' entropy (issue 26): the reference implementation of docs/fair-dealing.md, executed as
written, and real drand quicknet rounds; shared by tests/unit/fairness/test_entropy.py and
tests/e2e/hands/test_entropy_hands.py (no test module imports another)."""

from __future__ import annotations

import re

from nomicpoker.core.fairness.dealing import HandSecrets

from _paths import ROOT

DOC = ROOT / "docs" / "fair-dealing.md"


def _reference() -> dict:
    after = DOC.read_text("utf-8").split("<!-- reference-entropy -->", 1)[1]
    code = re.search(r"```python\n(.*?)```", after, re.DOTALL).group(1)
    ns: dict = {}
    exec(compile(code, str(DOC), "exec"), ns)
    return ns


REF = _reference()
SECRETS = HandSecrets(deck=bytes(range(32)), dice=bytes(range(1, 33)), decks=bytes(range(2, 34)))

#: Real drand quicknet rounds as the League of Entropy published them (round, randomness,
#: signature). Rounds 2 and 3 as quoted in ChainSafe forest's beacon tests, round 657413 as
#: quoted in the drand-verify package's documentation; each verifies under the quicknet key.
REAL_ROUNDS = [
    (2, "5782d6987841c654515a0e72b2d1ebb4e741234042c37cb19608ae50d93fb60c",
     "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807"),
    (3, "7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21",
     "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64"),
    (657413, "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587",
     "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"),
]
