"""The commands that run the game: tables and hands (`table`, `hand`, `deck`), days and
deadlines, players' entropy, `score` and tournaments.

May import: :mod:`nomicpoker.cli.options` and :mod:`nomicpoker.cli.hints`, the shell, the
composition root, and :mod:`nomicpoker.cli.setup.bot_cmd` (the shared options, ``opened``
and the ``table``/``hand``/``audit`` command groups); nothing else of another ``cli`` package."""
