"""The files that run nomicpoker on a schedule, shipped with the package (data, no code): the
crontab line and the systemd units, with ``{placeholders}`` that ``nomicpoker cron`` and
``nomicpoker systemd`` (:mod:`nomicpoker.cli.setup.deploy_cmd`) fill in with this install's script
and the game's state folder."""
