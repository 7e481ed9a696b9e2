"""Game engines for pbem, one package per game, plus the shared hex-wargame kit.

Engines depend on ``pbem.engine`` (the contract) and never the other way round.
"""
