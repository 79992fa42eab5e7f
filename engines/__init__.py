"""Pure game engines: synchronous, deterministic given an injected RNG, no I/O.

See `engines.base` for the surface every game exposes and `engines.registry`
for the list of games.
"""
