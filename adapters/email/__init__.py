"""Play by e-mail, as WRGPT does (adapter, seed ``000_…``): the Forum port over IMAP and SMTP
(:mod:`.forum`) and the e-mail table's settings, secrets and roster (:mod:`.config`). May
import the core and the ports.
"""
