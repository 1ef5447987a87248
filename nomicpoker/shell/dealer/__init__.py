"""The Dealer's commands (shell): ``table create`` and ``hand start`` (:mod:`.service`), the next
hand's entropy window (``hand open``, :mod:`.entropy_window`), rule
amendments and pinning, the Dealer's controls (pause, void, fold, seat, settings), and names as
the forum shows them. Each runs the cycle's steps on its table; may import
:mod:`nomicpoker.shell.cycle`, :mod:`nomicpoker.shell.storage`, the shared shell modules, the
core and the ports; never :mod:`nomicpoker.shell.audit` or :mod:`nomicpoker.shell.jobs`.
"""
