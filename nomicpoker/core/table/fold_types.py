"""The values the table fold reads and writes (pure, no I/O).

The fold (:mod:`nomicpoker.core.fold.adjudicator`) turns *inputs* (the table's configuration, the
hand-start records, the comment archive and recorded dealer events) into *derived rows*
(verdicts, ledger entries, outbox messages, dice, decks, draws, reveals, boards, hand ends).
The shell stores both; ``nomicpoker audit`` re-runs the fold and compares. Derived rows are
plain mappings whose keys are exactly the columns of the matching ``store`` model, so storing
and comparing them needs no translation.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping

from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.fairness.dealing import HandSecrets
from nomicpoker.core.fairness.entropy import Entropy, mix
from nomicpoker.core.errors import CodedError
from nomicpoker.core.reading.lookalike import account_skeleton, case_skeleton
from nomicpoker.core.table.table_settings import TableSettings


class FoldError(CodedError):
    """The inputs cannot be folded (a running hand whose secrets are missing, an archive out
    of order, a dealer event of an unknown kind). ``code``: ``missing_secrets``,
    ``bad_input``, ``bad_event``."""


@dataclass(frozen=True)
class TableConfig:
    name: str
    players: tuple[str, ...]  # GNDT order
    money: int  # starting Money
    dealer: str
    ruleset: Ruleset
    ruleset_name: str
    issue_decks: bool = True
    forum_roller: bool = False  # the forum rolls dice itself (BlogNomic)
    deadline_hours: int | None = None
    #: play over days: the settings at creation (changes are dealer events), whether the
    #: forum has private messages, and how it mentions a user (``u/{name}``)
    settings: TableSettings = field(default_factory=TableSettings)
    private: bool = False
    mention: str = "{name}"
    #: players read the thread themselves (every forum but e-mail, where they see only what
    #: the Dealer sends them): else an answer meant for one player (an advance action's
    #: confirmation, a refusal, a reminder) goes to that player privately, not to the table
    players_see_thread: bool = True

    def answers_privately(self) -> bool:
        """Whether an answer to one player goes privately rather than in the thread."""
        return self.private and not self.players_see_thread

    def is_dealer(self, author: str) -> bool:
        """Whether ``author`` is the Dealer's account. Case-insensitive, as Reddit and
        BlogNomic account names are (and as their adapters compare them): a table configured
        with ``pokerdealer`` must not adjudicate the comments of the account PokerDealer."""
        return same_account(author, self.dealer)

    def seat_name(self, author: str) -> str:
        """The table's spelling of a player's account (Reddit signs comments with its own
        spelling: ``Alice`` for a player seated as ``alice``); other authors as they are."""
        if author in self.players:
            return author
        return next((p for p in self.players if same_account(p, author)), author)

    def lookalike_seat(self, author: str) -> str | None:
        """The seat (or the Dealer) whose account ``author`` only *looks* like: one skeleton
        (:func:`looks_alike`) but not the same account. Such an author never acts for it."""
        for p in (*self.players, self.dealer):
            if not same_account(p, author) and looks_alike(p, author):
                return p
        return None


def same_account(a: str, b: str) -> bool:
    """Whether two forum account names are one account: equal, or differing only in the case of
    plain letters (Reddit and WordPress logins ignore case: ``Alice`` is ``alice``).

    WHY not ``str.casefold``: folding makes ``\u212aevan`` (KELVIN SIGN), ``\u017fam`` (long s)
    and ``\ufb01ona`` (fi ligature) equal to ``kevan``, ``sam`` and ``fiona``: different accounts
    that only look the same. A name that NFKC would change is never a case variant."""
    if a == b:
        return True
    return (a.lower() == b.lower() and unicodedata.normalize("NFKC", a) == a
            and unicodedata.normalize("NFKC", b) == b)


def looks_alike(a: str, b: str) -> bool:
    """Whether two account names look the same on the page: one UTS #39 skeleton after NFKC
    and casefolding (``kevan`` / ``\u212aevan``, ``rn`` / ``m``, ``bob0`` / ``bobO``), or with
    the prototypes taken before case is folded (``will`` / ``wiII``, capital i as l)."""
    return account_skeleton(a) == account_skeleton(b) or case_skeleton(a) == case_skeleton(b)


@dataclass(frozen=True)
class HandStart:
    number: int
    thread: str
    button: str
    ante: int
    blinds: tuple[int, ...]
    seats: tuple[tuple[str, int], ...]
    after: int  # archive position the hand starts after
    started_at: str
    commitments: Mapping[str, str]
    secrets: HandSecrets | None = field(default=None, repr=False)
    #: the pinned ruleset the hand is played under (``None``: the table's, ``TableConfig.ruleset``)
    ruleset: Ruleset | None = field(default=None, repr=False)
    #: the players' entropy (and beacon round) mixed into the secrets (``None``: dealt from
    #: the committed secrets, as every hand before the ``entropy`` setting; core/fairness/entropy.py)
    entropy: Entropy | None = None
    #: a tournament table's positions (Robert's dead button): who posts each blind, "" for a
    #: small blind nobody posts, and the seats of the button and the blinds (``np_hand.positions``);
    #: empty: the blinds go clockwise from the button, as at every other table
    blind_posters: tuple[str, ...] = ()
    positions: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dealt_from(self) -> HandSecrets | None:
        """The secrets the cards, dice and decks come from: the committed ones with the
        hand's entropy mixed in. The committed ones (``secrets``) are what the payout
        publishes and the commitments hash."""
        return None if self.secrets is None else mix(self.secrets, self.number, self.entropy)


@dataclass(frozen=True)
class Revision:
    archive_id: int
    thread: str
    forum_id: str
    revision: int
    author: str
    created: str
    body: str
    body_format: str = "markdown"
    deleted: bool = False
    dice: tuple[int, ...] = ()
    permalink: str = ""


#: dealer (clock) event kinds the fold knows: a passed turn deadline (betting or reveal) ...
TURN_TIMEOUT = "timeout"
#: ... and a passed Hole Card Draw deadline
DRAW_TIMEOUT = "draw_timeout"
#: ... and a deadline that passed with nothing the rule lets the Dealer apply (a Hole Card Draw
#: deadline while no seated player has drawn: nobody can be folded out): said once in the
#: thread, and the poll tells the Dealer (a warning, exit code 3)
STALLED = "stalled"
#: The dealer event of a rule amendment: the ruleset ``DealerEvent.ruleset_hash`` applies from
#: the next hand on (``nomicpoker table amend``).
AMEND = "amend"


@dataclass(frozen=True)
class DealerEvent:
    after: int
    hand: int  # for AMEND: the last hand before it (0 when no hand has started)
    kind: str  # TURN_TIMEOUT | DRAW_TIMEOUT | AMEND; any other kind is a FoldError('bad_event')
    player: str
    at: str
    ruleset_hash: str = ""  # AMEND: the content hash of the ruleset that applies next
    #: the Dealer's note: which proposal enacted an AMEND, the reason for a control
    note: str = ""
    #: what the event carries (a reminder's number, the settings changed)
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Alarm:
    """A moment the shell must act at (play over days, :mod:`nomicpoker.core.table.days_state`):
    send reminder ``n`` or apply a deadline; ``kind`` is the dealer event to record
    (``reminder``, ``timeout`` or ``draw_timeout``)."""

    at: str
    kind: str
    hand: int
    player: str
    n: int = 0

    def data(self) -> dict[str, Any]:
        return {"n": self.n} if self.kind == "reminder" else {}


@dataclass(frozen=True)
class CurrentHand:
    """Where the table's latest hand stands, for the shell (deadlines, ``table show``)."""

    number: int
    thread: str
    phase: str  # draw | betting | reveal | complete
    to_act: str | None
    waiting: tuple[str, ...]
    since: str  # time of the last change (a comment's created time or the hand start)
    button: str
    #: draw phase: ``(player, since)`` for each player the Hole Card Draw deadline may fold out
    #: now, with the time their hours began (see :func:`nomicpoker.core.fold.draws.draw_clock`)
    draw_clock: tuple[tuple[str, str], ...] = ()
    #: the reminders and deadlines still to come in the current wait (none while frozen)
    alarms: tuple[Alarm, ...] = ()


@dataclass(frozen=True)
class FoldResult:
    #: model name -> rows (mappings of column -> value), each with a table-wide ``seq``
    rows: Mapping[str, tuple[Mapping[str, Any], ...]]
    #: the GNDT now: player -> (money, turn, pot)
    gndt: Mapping[str, tuple[int, str, int]]
    current: CurrentHand | None
    #: hands by number -> public record fields derived so far (board, dice, decks, ...)
    records: Mapping[int, Mapping[str, Any]]
    #: the fold's state after its last input (a ``nomicpoker.core.table.fold_state.TableState``),
    #: from which a later fold may resume
    state: Any = field(default=None, compare=False, repr=False)
    #: play over days: the freeze ("", "protest", "pause"), who sits out the next hand, and
    #: the settings in force (the alarms are in ``current``)
    frozen: str = ""
    sitting_out: tuple[str, ...] = ()
    settings: Any = None
    #: outbox key -> body of each private message the fold queued: the ledger stores a seal
    #: (:mod:`nomicpoker.core.fairness.sealed`), the shell keeps these in the owner-only secrets folder
    private: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: the comment revisions (thread, forum id, revision) whose reading raised, each with its
    #: exception: answered ``internal_error``, for the shell to log with the traceback
    failures: tuple[tuple[tuple[str, str, int], BaseException], ...] = field(default=(), compare=False, repr=False)


#: the rejection code and message of a comment the reader failed on (see :meth:`_Folder.comment`)
INTERNAL_ERROR = "internal_error"
UNREADABLE = ("the Dealer's program failed while reading this comment (a fault in nomicpoker, "
              "logged for the Dealer), so it does not act; post your action again in plain words")


#: The dealer event that records an ``internal_error`` answer. ``data`` names the revision
#: (``thread``, ``forum_id``, ``revision``), the release that answered it (``release``) and the
#: exception's type (``error``: never its text, which may quote a private message). A fold
#: answers a recorded revision ``internal_error`` without reading it (:func:`fold_stream`
#: collects them first), wherever the event sits among the inputs.
#:
#: WHY recorded and not worked out again at each replay: the answer rests on a fault of the
#: software, not on the rule text, so a release that fixes the fault would read the comment
#: for real and derive another history than the one the table played: the poll would stop the
#: table ("verdict row differs") and ``audit`` would disagree. Recorded, it is history.
INTERNAL_ERROR_EVENT = INTERNAL_ERROR


def failure_data(key: tuple[str, str, int], release: str, error: str) -> dict[str, Any]:
    """The ``data`` of the :data:`INTERNAL_ERROR_EVENT` that records revision ``key``."""
    thread, forum_id, revision = key
    return {"thread": thread, "forum_id": forum_id, "revision": revision, "release": release, "error": error}


def recorded_failure(ev: DealerEvent) -> tuple[str, str, int]:
    """The revision (thread, forum id, revision) an :data:`INTERNAL_ERROR_EVENT` answers; a
    malformed one is ``FoldError('bad_event')`` (one line, never a guessed revision)."""
    d = ev.data
    try:
        key = (d["thread"], d["forum_id"], d["revision"])
    except (KeyError, TypeError) as exc:
        raise FoldError("bad_event", f"an {INTERNAL_ERROR_EVENT} dealer event (hand {ev.hand}) does not name "
                        f"the revision it answers (thread, forum_id, revision): {dict(d)!r}") from exc
    if not (isinstance(key[0], str) and isinstance(key[1], str) and type(key[2]) is int):
        raise FoldError("bad_event", f"an {INTERNAL_ERROR_EVENT} dealer event (hand {ev.hand}) names a "
                        f"revision of the wrong types: {dict(d)!r}")
    return key


class CommentFailed(Exception):
    """Reading or adjudicating one comment revision raised: ``key`` (thread, forum id,
    revision) and the exception. Raised out of a resumed fold (the caller replays from the
    first input); a fold from the first input answers the revision ``internal_error``."""

    def __init__(self, key: tuple[str, str, int], exc: BaseException):
        super().__init__(f"comment {key[0]}#{key[1]} revision {key[2]}: {type(exc).__name__}: {exc}")
        self.key, self.exc = key, exc
