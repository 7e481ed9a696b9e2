"""White Death (Velikiye Luki, November 1942) as the ``white-death`` engine.

Register with ``PBEM_ENGINES=engines.white_death:ENGINE`` (or the ``pbem.engines`` entry
point ``white-death = "engines.white_death:ENGINE"``).
"""

from engines.white_death.engine import WhiteDeath

ENGINE = WhiteDeath()

__all__ = ["ENGINE", "WhiteDeath"]
