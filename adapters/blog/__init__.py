"""Blog forums (adapter): BlogNomic and any blog whose comment markup a site profile describes
(:mod:`.forum`), the site profiles and their bundled files (:mod:`.siteprofile`, ``profiles/``),
and the polite HTTP client they share (:mod:`.http`). May import the core and the ports.
"""
