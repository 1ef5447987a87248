"""PHH, the Poker Hand History format (core): reading, writing and replaying hands through the
hand engine (:mod:`.phh`), the fast reader for the TOML subset they use (:mod:`.toml_subset`),
and a played hand exported from its public record (:mod:`.export`). May import
:mod:`nomicpoker.core.fairness`, :mod:`nomicpoker.core.poker`, :mod:`nomicpoker.core.rules`
and :mod:`nomicpoker.core.errors`.
"""
