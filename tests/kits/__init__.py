"""The tests' shared kits, by what they do (docs/testing.md): ``tables`` (tables, games and
commands), ``servers`` (real servers on loopback), ``sweeps`` (the long sweeps' machinery) and
``references`` (independent implementations to compare with). ``tests/`` is on ``sys.path``
(pyproject.toml), so ``from kits.tables.bot import Table`` works at every depth; a test module
never imports another test module."""
