"""The shell's error base: a stable ``code`` for callers and tests, a one-line ``message``
for people.

WHY one base: every Dealer command turns a failure into one line naming what is wrong; the
CLI catches :class:`CodedError` once instead of each module's own exception. Rule
violations in the core are not errors at all (they are ``Rejection`` values).
"""

from __future__ import annotations

from typing import Iterable


class CodedError(Exception):
    """A failure with a stable ``code`` and a one-line ``message``; ``str()`` is the message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class FileError(CodedError):
    """One problem in a file a person wrote (a ruleset, a tournament structure): a stable
    ``code``, the ``file``, the ``key`` (a dotted path such as ``params.deck.value`` or
    ``levels[2].big_blind``; empty for the whole file) and a ``message`` saying what is allowed.
    ``str()`` is ``FILE: KEY: MESSAGE`` (``FILE: MESSAGE`` without a key), the line the CLI prints.

    WHY shared: the rulesets and the structure files report the same way (every problem at
    once, each named by its key); each kind subclasses this with its own codes
    (:class:`nomicpoker.core.rules.validate.RulesetError`,
    :class:`nomicpoker.core.tournament.structure_file.StructureError`)."""

    def __init__(self, code: str, file: str, key: str, message: str) -> None:
        super().__init__(code, message)
        self.args = (code, file, key, message)  # so a pickled or copied error rebuilds
        self.file = file
        self.key = key

    @property
    def errors(self) -> tuple["FileError", ...]:
        """Every problem this exception stands for: just itself (see :class:`FileErrors`)."""
        return (self,)

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


class FileErrors(FileError):
    """Every problem found in one file, raised together: iterate ``.errors``; ``str()`` is one
    line per problem. A kind's aggregate derives from this and from its own one-problem class
    (``class RulesetErrors(FileErrors, RulesetError)``), so catching the one-problem class
    handles both, and sets :attr:`ALL_CODE`, the aggregate's own code."""

    #: the aggregate's ``code`` (``invalid_ruleset``, ``invalid_structure``)
    ALL_CODE = "invalid_file"

    def __init__(self, errors: Iterable[FileError]) -> None:
        errs = tuple(errors)
        if not errs:
            raise ValueError(f"{type(self).__name__} needs at least one error")
        FileError.__init__(self, self.ALL_CODE, errs[0].file, "", f"{len(errs)} error(s)")
        self.args = (errs,)  # a pickled or copied aggregate rebuilds with its problems
        self._errors = errs

    @property
    def errors(self) -> tuple[FileError, ...]:
        return self._errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self._errors)
