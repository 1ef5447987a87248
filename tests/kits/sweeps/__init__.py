"""Kits of the long sweeps: network faults on every request (sweep, sweep_hands), a crash at every crash point (crash), the comment fuzz (fuzz), the comment safety net (safety_net)."""
