"""Forum adapters, installed as ``nomicpoker.adapters``: one module or package per forum behind
the small protocol in :mod:`nomicpoker.ports`: :mod:`.local` (the embedded forum), :mod:`.blog`
(BlogNomic and other blogs by site profile), :mod:`.reddit`, :mod:`.irc`, :mod:`.email`; and
:mod:`.registry`, which opens a table's forum. An adapter may import the core, the ports and
:mod:`nomicpoker.shell.storage.paths`; the core never imports this package.
"""
