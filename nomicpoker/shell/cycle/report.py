"""What one table's cycle did (shell): the counts and notes a poll, a ``hand start`` or a
Dealer's control reports for a table, and its one line for cron's log.

WHY here and not in the poll job: the Dealer's commands (:mod:`nomicpoker.shell.dealer`) run
the same steps on one table and report them the same way, without importing the poll job.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TableReport:
    table: str
    archived: int = 0
    verdicts: int = 0
    queued: int = 0
    sent: int = 0
    already: int = 0
    held: int = 0
    waiting: int = 0
    parked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str = ""
    would_post: list[str] = field(default_factory=list)
    #: protests filed this run, for the Dealer (``PROTEST by alice: <text>``): always printed
    protests: list[str] = field(default_factory=list)
    #: how the fold ran: "resumed" from the table's snapshot, else why it replayed from the start
    folded: str = ""
    #: the forum ids this run's listings held: marked read once stored (``Abilities.mark_read``)
    listed: list[str] = field(default_factory=list)
    #: the threads this run listed (the idle check reads the same ones, :mod:`~nomicpoker.shell.cycle.idle`)
    threads: list[str] = field(default_factory=list)
    #: deadlines that passed this run with nothing the rule lets the Dealer apply (a stalled
    #: hand, said once in its thread): a warning for the Dealer and exit code 3 (STALLED_EXIT)
    stalled: list[str] = field(default_factory=list)
    #: a dry run: ``would_post`` is what it would have sent (nothing was stored or sent)
    dry_run: bool = False

    def line(self) -> str:
        if self.error:
            return f"{self.table}: FAILED: {self.error}"
        if not (self.archived or self.verdicts or self.sent or self.already or self.would_post
                or self.held or self.parked or self.notes):
            return f"{self.table}: nothing new"
        def n(count: int, word: str) -> str:
            return f"{count} {word}{'' if count == 1 else 's'}"

        bits = [n(self.archived, "new comment revision"), n(self.verdicts, "verdict"),
                n(len(self.would_post), "dealer message") + " would be posted" if self.dry_run else n(self.sent, "dealer message") + " sent"]
        if self.already:
            bits.append(f"{self.already} found already posted")
        if self.held:
            bits.append(f"{n(self.held, 'dealer comment')} held for moderation"
                        + (f" ({self.waiting} more waiting)" if self.waiting else ""))
        if self.parked:
            bits.append(f"{n(len(self.parked), 'message')} refused for good and parked")
        # one line, as cron logs it: the details after the counts, separated by semicolons
        details = [f"parked {p}" for p in self.parked] + self.notes
        return f"{self.table}: " + "; ".join([", ".join(bits)] + details)
