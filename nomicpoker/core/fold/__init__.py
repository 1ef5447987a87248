"""The table fold (core): everything the Dealer knows as a pure function of its inputs. The
fold and its input order (:mod:`.adjudicator`, :mod:`.fold_run`), whose action a comment is,
the Hole Card Draw, play over days, the Dealer's controls, advance actions (public and
private) and ``SCORE``. The top layer of the core: it may import every other core package.
"""
