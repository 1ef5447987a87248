"""The Dealer's words (core): every dealer comment and private message as pure functions of
values (:mod:`.render`, :mod:`.notices`, :mod:`.days_notices`), the GNDT views and table views,
reference tags, the public money record in words (:mod:`.hand_log`), who won and why
(:mod:`.hand_summary`), an all-in's chances and when they are said (:mod:`.chances`, :mod:`.runout`), standings, the chip chart,
how due messages become posts (:mod:`.delivery`) and each forum's markup (:mod:`.dialects`).
May import every core package below it (:mod:`~nomicpoker.core.table`,
:mod:`~nomicpoker.core.phh`, :mod:`~nomicpoker.core.reading`, :mod:`~nomicpoker.core.fairness`,
:mod:`~nomicpoker.core.poker`, :mod:`~nomicpoker.core.rules`); never :mod:`nomicpoker.core.fold`.
"""
