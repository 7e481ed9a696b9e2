"""For the Motherland! names every module of the engine shares: the sides, the hexes the
rules name, the words that end a waiting task and the hexside features that block."""

from __future__ import annotations

AXIS, SOVIET = "axis", "soviet"
SIDES = (AXIS, SOVIET)
MOSCOW, LENINGRAD, KONIGSBERG, SEVASTOPOL, HELSINKI = "2113", "1705", "0507", "0926", "1402"
# ports the sea-supply rules name (9.6.1-9.6.3); the map's places must agree
# (``pbem scenario check`` compares them: ENGINE_HEXES in engines/motherland/__init__.py)
DANZIG, ODESSA, NOVOROSSIYSK, TUAPSE = "0307", "0722", "1428", "1530"
BAKU_ENTRY = "2434"
TURKEY_ENTRY = "1735"
DONE = {  # the words that end each waiting task
    "move": "end movement", "exploit": "end exploitation", "combat": "end combat",
    "reinf": "end reinforcements", "advance": "end advance", "generals": "end generals",
    "expend": "end expending", "airsupply": "end air supply", "partisan_place": "end partisans",
    "convert": "end conversions", "combine": "end combining", "replace": "end replacements",
    "evacuate": "end evacuation",
}
BLOCKING_SIDES = frozenset({"sea", "lake", "out_of_play", "rail_bridge"})
_NO_STRATEGIC = frozenset({"sea", "lake", "out_of_play", "frozen_access"})


def other(side: str) -> str:
    return SOVIET if side == AXIS else AXIS
