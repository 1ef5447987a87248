"""The public copy's description for datasette (``export public-db`` writes it beside the copy).

WHY: auditors browse the public copy with datasette (``datasette poker.db -m
poker.metadata.json``), and a table of ``np_entry`` rows with columns ``old``, ``new`` and
``cause`` says nothing to a reader who has not read the source. datasette's metadata file
(https://docs.datasette.io/en/stable/metadata.html) gives each table a title and a
description and each column a description, shown above the table and under each column's
name; it also carries the copy's source, its license line and a link to what the game is.

Every column the allow-list publishes (:data:`nomicpoker.shell.audit.public_record.ALLOW`) must be
described here: a test fails on a column with no description, so a column added to the ledger
cannot reach readers unexplained. Only the standard library: this is words, not code.
"""

from __future__ import annotations

from typing import Any, Mapping

#: what datasette shows above each table: (title, description)
TABLES: dict[str, tuple[str, str]] = {
    "np_table": ("Tables", "One row per poker table the Dealer runs: its ruleset, forum, players and "
                 "starting Money. The forum's configuration is not published (shown as {})."),
    "np_ruleset": ("Rulesets", "Each ruleset a table was played under, pinned as it was when the table was "
                   "created or an amendment applied: the TOML and the rule text, verbatim."),
    "np_hand": ("Hands", "The hand-start record: what the Dealer decided when each hand began (button, "
                "forced bets, seats) and the commitments to the hand's secrets."),
    "np_comment": ("Comments", "The archive: every revision of every forum comment the Dealer read, in the "
                   "order read. A player's private message to the Dealer is shown when its hand ends."),
    "np_dealer_event": ("Dealer events", "What happened that is not a comment: a deadline that passed, a rule "
                        "amendment, a Dealer's control (pause, void, seat), each with its time."),
    "np_verdict": ("Verdicts", "The Dealer's reading of each comment: accepted, rejected (with the rule "
                   "sentence), chat, noted or ignored."),
    "np_entry": ("Change log", "Every change of every GNDT cell (Money, Turn, Pot), old and new value, and its "
                 "cause: the GNDT change log."),
    "np_outbox": ("Dealer's messages", "Every comment the Dealer posted, and each private message as its seal "
                  "(an HMAC that the hand's published secrets let anyone check)."),
    "np_dice": ("Dice", "Every die rolled for a Hole Card Draw (blognomic-2008), by the bot or the forum's roller."),
    "np_deck": ("Decks", "The deck each player draws from in a hand: issued by the Dealer or the player's own, "
                "named by its checksum."),
    "np_draw": ("Draws", "Each player's stated draw: the deck positions drawn and the deck's checksum."),
    "np_reveal": ("Reveals", "Cards shown at showdown, checked against the deck at the drawn positions."),
    "np_board": ("Board", "The community cards dealt on each street."),
    "np_hand_end": ("Hand results", "Each hand's end: the payouts and the published secrets, from which anyone "
                    "can recompute every card and die (nomicpoker audit verify)."),
    "np_action": ("Actions", "Every public step of each hand in order, with the chips it put into the pot: "
                  "with the hand-start record and the result, the hand's money."),
    "np_unsealed": ("Private messages, published", "The text of each player's private message to the Dealer, "
                    "published when its hand ended; its Comments row held only a commitment to it while the "
                    "hand ran: SHA-256 of the nonce then the text."),
    "np_tournament": ("Tournaments", "Each tournament: its structure file verbatim, the ruleset its tables play, "
                      "the commitment to its seed and, once it started, the seed (docs/tournaments.md)."),
    "np_tournament_event": ("Tournament events", "The tournament director's decisions in order: entrants, the "
                            "start with its seat draw, pauses, disqualifications."),
}

_ID = "Row number (its place in this table)."
_TABLE = "The poker table (Tables.name) the row belongs to."
_SEQ = "The row's place in the Dealer's output for its table (audit lines rows up by it)."
_HAND = "The hand's number at its table."

#: what datasette shows under each column's name
COLUMNS: dict[str, dict[str, str]] = {
    "np_table": {
        "id": _ID, "name": "The table's name, as commands and the site name it.",
        "ruleset": "The ruleset it was created with: a bundled name or the path of the Dealer's copy.",
        "ruleset_hash": "SHA-256 of the ruleset's content at creation (Rulesets.content_hash).",
        "forum_kind": "The forum the table plays on: local, blognomic, reddit, irc or email.",
        "forum_config": "The forum's configuration: not published (it may name credentials or addresses).",
        "dealer": "The Dealer's name on the forum.",
        "players": "The players at creation, in GNDT order (JSON list).",
        "money": "Every player's starting Money.",
        "button": "The button of the first hand.",
        "issue_decks": "Whether the Dealer issues each player a deck (blognomic-2008 Hole Card Draw).",
        "deadline_hours": "Hours a player has to act before the deadline passes (empty: no deadline).",
        "settings": "The table's settings for play over days at creation (JSON); later changes are Dealer events.",
        "abilities": "What the table's forum can do, as its adapter declared it at creation (JSON: who rolls the dice, "
                     "private messages, the markup, ...); the replay reads it from here.",
        "active": "Whether the table is still polled.",
        "created": "When the table was created (UTC).",
    },
    "np_ruleset": {
        "id": _ID, "table_name": _TABLE, "content_hash": "SHA-256 of the TOML and the rule text together.",
        "name": "The ruleset's own name (its TOML name).", "toml": "ruleset.toml, verbatim.",
        "text": "The rule text the ruleset cites, verbatim.",
        "origin": "Where it was read from: a bundled name or a path.", "pinned_at": "When it was pinned (UTC).",
    },
    "np_hand": {
        "id": _ID, "table_name": _TABLE, "number": _HAND, "thread": "The thread (story post) the hand is played in.",
        "ruleset_hash": "The pinned ruleset the hand is played under (Rulesets.content_hash).",
        "ruleset": "That ruleset's name.", "button": "The player on the button.", "ante": "The ante.",
        "blinds": "The blinds, smallest first (JSON list).", "seats": "The seats: [player, Money] in GNDT order (JSON).",
        "after": "The archive position (Comments.id) the hand starts after.", "started_at": "When the hand started (UTC).",
        "commitments": "SHA-256 commitments to the hand's secrets (deck, dice, decks), published before any card.",
        "entropy": "What the deal mixed into those secrets (tables with players' entropy, JSON): each comment of "
                   "the entropy window with its SHA-256, the window digest, the drand beacon round; empty: none.",
        "positions": "A tournament hand's positions (JSON): the seats of the button and the blinds and who posted each "
                     "blind (\"\" for no small blind: Robert's dead button); empty: blinds clockwise from the button.",
    },
    "np_comment": {
        "id": "The archive position: the order in which the Dealer read the comments.", "table_name": _TABLE,
        "thread": "The thread the comment is in.", "forum_id": "The forum's id of the comment.",
        "revision": "The revision (0: as first read; an edit or a deletion is a new revision).",
        "author": "Who wrote it.", "created": "When the forum says it was written (UTC).",
        "edited": "When the forum says it was edited (UTC), if it was.",
        "body": "The comment's text as archived; a private message only as its seal, a commitment to the "
                "text, whose text is published when its hand ends (Private messages, published).",
        "body_format": "The body's markup: markdown, html or text.",
        "sha256": "SHA-256 of the body (of the seal, for a private message).",
        "deleted": "Whether this revision is the comment's deletion.",
        "dice": "The forum's dice roller's results in the comment (JSON list).",
        "permalink": "The comment's address on the forum.",
        "fetched_at": "When the Dealer's archive read it (never used to decide anything).",
    },
    "np_dealer_event": {
        "id": _ID, "table_name": _TABLE, "hand": _HAND, "after": "The archive position it happened after.",
        "kind": "What happened: timeout, draw_timeout, stalled, amend, reminder, settings, pause, resume, void, "
                "fold, seat, unseat, score, internal_error, move_out, move_in.",
        "player": "The player it concerns, if any.", "at": "When it happened (UTC).",
        "ruleset_hash": "An amendment: the pinned ruleset that applies from the next hand.",
        "note": "An amendment's note (which proposal) or the Dealer's reason for a control.",
        "data": "Details (JSON): a reminder's number, the settings changed.",
    },
    "np_verdict": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "thread": "The comment's thread.",
        "forum_id": "The comment's forum id (Comments.forum_id).", "revision": "The comment's revision.",
        "author": "Who wrote the comment.",
        "status": "The verdict: accepted, rejected, chat, noted, ignored (private: withheld until the hand ends).",
        "code": "A rejection's code (e.g. not_your_turn).", "message": "The Dealer's answer in words.",
        "citation": "The rule sentence the verdict rests on.", "canonical": "The action as the Dealer read it.",
    },
    "np_entry": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "player": "Whose cell changed.",
        "column": "The GNDT column: Money, Turn or Pot.", "old": "The value before.", "new": "The value after.",
        "cause": "What changed it: the comment's permalink or the Dealer event.",
    },
    "np_outbox": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "key": "The message's reference tag: it is posted once.",
        "hand": _HAND, "kind": "comment (in the thread) or private (to one player).",
        "thread": "The thread a comment goes to.", "reply_to": "The comment it answers, if any.",
        "recipient": "A private message's recipient.", "subject": "A private message's subject.",
        "body": "A comment's text; a private message only as its seal.",
        "status": "pending, sent, held or parked.", "remote_id": "The forum's id of the posted message.",
        "sent_at": "When it was posted (UTC).",
    },
    "np_dice": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "comment_id": "The comment that rolled it.",
        "player": "Who rolled.", "index": "The die's place in the comment.", "sides": "The die's sides.",
        "result": "What it showed.", "source": "bot (from the committed secret) or forum (the forum's roller).",
    },
    "np_deck": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "player": "Whose deck.",
        "source": "issued (by the Dealer) or own (the player's).", "checksum": "The deck's checksum.",
    },
    "np_draw": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "player": "Who drew.",
        "comment_id": "The comment stating the draw.", "positions": "The deck positions drawn (JSON list).",
        "checksum": "The checksum of the deck drawn from.",
    },
    "np_reveal": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "player": "Who showed.",
        "comment_id": "The comment showing them.", "cards": "The cards shown (JSON list).",
    },
    "np_board": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND, "street": "flop, turn or river.",
        "cards": "The cards dealt (JSON list).",
    },
    "np_hand_end": {
        "id": _ID, "table_name": _TABLE, "seq": _SEQ, "hand": _HAND,
        "secrets": "The hand's secrets (deck, dice, decks; hex), published at its end: they must match the "
                   "commitments (Hands.commitments).",
        "payouts": "What each player won (JSON {player: amount}).", "destroyed": "Money taken out of the game.",
    },
    "np_action": {
        "id": _ID, "table_name": _TABLE, "seq": "The action's place among the table's actions.", "hand": _HAND,
        "n": "The step's number within its hand, from 1.", "player": "Who acted.",
        "event": "post, fold, check, call, raise, all_in, reveal, muck or fold_out.",
        "amount": "The amount as stated (a raise in the ruleset's terms).", "cards": "Cards shown (JSON list).",
        "chips": "Chips this step put into the pot.", "comment_id": "The comment that made it (empty: a Dealer event).",
        "at": "When (UTC).", "cause": "The comment's permalink or the Dealer event.",
    },
    "np_unsealed": {
        "id": _ID, "table_name": _TABLE,
        "comment_id": "The archive row (Comments.id) whose commitment this text opens.",
        "nonce": "The commitment's nonce (hex): SHA-256(nonce bytes, then the text in UTF-8) is the commitment.",
        "body": "The private message's text, exactly as archived.",
        "published_at": "When the Dealer's poll saw its hand ended and published it (UTC).",
    },
    "np_tournament": {
        "id": _ID, "name": "The tournament's name; its tables are named NAME-t1, NAME-t2, ...",
        "title": "Its title.", "structure": "The structure file (TOML), verbatim: levels, table size, breaking "
        "order, vacation limit, payouts.", "structure_hash": "SHA-256 of the structure file's bytes.",
        "ruleset": "The ruleset every table of the tournament is created under.",
        "seed_hash": "SHA-256 of the seed, published when the tournament was created, before any draw.",
        "seed": "The seed every seat draw is computed from (empty until the tournament starts).",
        "status": "registering, running, paused or finished.", "forum_kind": "The forum its tables play on.",
        "dealer": "The Dealer's name on that forum.", "created": "When it was created (UTC).",
        "started": "When it started (UTC; empty before).",
    },
    "np_tournament_event": {
        "id": _ID, "tournament": "The tournament (Tournaments.name).", "seq": "Its place in the tournament's events.",
        "kind": "enter, start, pause, resume, disqualify, rail_join, rail_leave or rail_standings (the nightly "
                "standings sent to the rail, with the day).", "player": "The player it concerns, if any.",
        "at": "When it happened (UTC).", "note": "The director's reason, as given.",
        "data": "Details (JSON): for start, the tables drawn (seats and button) and their names.",
    },
}


def metadata(database: str, version: str, tables: Mapping[str, list[str]], license_name: str | None = None,
             license_url: str | None = None, source_url: str | None = None) -> dict[str, Any]:
    """datasette's metadata for the public copy named ``database`` (its file name without
    ``.db``), describing ``tables`` (table -> its published columns)."""
    out: dict[str, Any] = {
        "title": "nomicpoker: the public record",
        "description": ("The public copy of a nomicpoker ledger: the archived comments, the Dealer's verdicts "
                        "and messages, the GNDT change log and every hand's actions and results. A running "
                        "hand's secrets are not in it; they are published when the hand ends."),
        "source": f"nomicpoker {version} (export public-db)",
        "source_url": "https://github.com/nomicpoker/nomicpoker",
        "about": "How to check it: nomicpoker audit --db sqlite:///" + database + ".db",
        "about_url": "https://github.com/nomicpoker/nomicpoker/blob/main/docs/fair-dealing.md",
    }
    if license_name:
        out["license"] = license_name
    if license_url:
        out["license_url"] = license_url
    if source_url:
        out["source_url"] = source_url
    described: dict[str, Any] = {}
    for table, columns in tables.items():
        title, text = TABLES[table]
        described[table] = {"title": title, "description": text,
                            "columns": {c: COLUMNS[table][c] for c in columns}}
    out["databases"] = {database: {"tables": described}}
    return out
