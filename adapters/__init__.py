"""Forum adapters, installed as ``nomicpoker.adapters``: one module per forum behind the small
protocol in :mod:`nomicpoker.ports`. The core never imports this package."""
