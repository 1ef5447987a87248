"""Forum adapters, installed as ``nomicpoker.adapters``: one module or package per forum behind
the small protocol in :mod:`nomicpoker.ports`: :mod:`.local` (the embedded forum), :mod:`.blog`
(BlogNomic and other blogs by site profile), :mod:`.reddit`, :mod:`.irc`, :mod:`.email`; and
:mod:`.registry`, which opens a table's forum. An adapter may import the core and the ports,
never the shell or the CLI (an adapter's defaults, such as where a state folder keeps its
files, are its own); the core never imports this package, and of the shell only the
composition root :mod:`nomicpoker.shell.cycle.forums` does (tests/unit/house/test_rooms.py).
"""
