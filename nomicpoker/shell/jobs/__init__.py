"""What the Dealer runs (shell): the cron ``poll`` over every table, ``serve`` for live chats,
the ``demo``, and ``db upgrade`` / ``db version`` (:mod:`.schema`, which replays every table to
fill new derived rows). The top layer of the shell: it may import every shell package.
"""
