"""The Dealer's set-up commands: the bot's configuration files and `init`/`bot`, the ledger's
`db` commands, `deploy` (cron and systemd units), `serve` (the long-running listener) and
`forum` (post to and read the local forum).

May import: :mod:`nomicpoker.cli.options` and :mod:`nomicpoker.cli.hints`, the shell, the
composition root (:mod:`nomicpoker.shell.cycle.forums`); never the ``play`` or
``record`` package. :mod:`.bot_cmd` holds what the other packages share (the ``--state`` and
``--db`` options, ``opened``, the ``table``/``hand``/``audit`` command groups)."""
