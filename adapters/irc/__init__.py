"""The IRC forum (adapter), as pokprot plays poker (seed ``003_…``): the Forum port over the
channel's log (:mod:`.forum`, :mod:`.log`), the dealer bot's live connection run by
``nomicpoker serve`` (:mod:`.bridge`, :mod:`.client`), its ``@`` commands (:mod:`.commands`) and
IRC messages on the wire (:mod:`.wire`). May import the core and the ports.
"""
