"""The commands that read and publish the record: `rules` (export, amend, diff), `phh`
export, the auditors' `site`.

May import: :mod:`nomicpoker.cli.options` and :mod:`nomicpoker.cli.hints`, the shell, and
:mod:`nomicpoker.cli.setup.bot_cmd` (the shared options, ``opened``, ``fail``); nothing else
of another ``cli`` package."""
