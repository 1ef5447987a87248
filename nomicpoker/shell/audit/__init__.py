"""Checking and publishing the record (shell): ``audit`` (rebuild and compare, verify hands),
each comment's verdict, the auditors' site and its data, the public copy of the ledger, and PHH
files. May import :mod:`nomicpoker.shell.cycle` (an audit replays as the poll does),
:mod:`nomicpoker.shell.storage`, the shared shell modules and the core; never
:mod:`nomicpoker.shell.dealer` or :mod:`nomicpoker.shell.jobs`.
"""
