"""The shell's error base: a stable ``code`` for callers and tests, a one-line ``message``
for people.

WHY one base: every Dealer command turns a failure into one line naming what is wrong; the
CLI catches :class:`CodedError` once instead of each module's own exception. Rule
violations in the core are not errors at all (they are ``Rejection`` values).
"""

from __future__ import annotations


class CodedError(Exception):
    """A failure with a stable ``code`` and a one-line ``message``; ``str()`` is the message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message
