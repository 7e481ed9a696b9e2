"""Terrain and feature names in players' words, for legends.

Scenario data names things for code (``partial_lake``, ``major_river``); a legend speaks
to players, so it says "partial lake hexside" and "major river".  Game-agnostic: the
words come from the names themselves, with hexsides said to be hexsides (a slope drawn on
a hex edge is not a hex of slope).
"""

from __future__ import annotations

#: features whose own name already says what they are on a map edge
_EDGE_WORDS = ("river", "strait", "bridge", "creek", "stream", "canal", "border", "ford")


def spoken(name: str) -> str:
    """``"high_mountain"`` -> ``"High mountain"``: separators to spaces, first letter up."""
    words = " ".join(name.replace("_", " ").replace("-", " ").split())
    return words[:1].upper() + words[1:]


def hexside(feature: str) -> str:
    """A hexside feature as a legend names it: ``"partial_lake"`` -> ``"Partial lake
    hexside"``, ``"major_river"`` -> ``"Major river"``."""
    text = spoken(feature)
    if any(w in text.lower() for w in _EDGE_WORDS) or "hexside" in text.lower():
        return text
    return f"{text} hexside"

