"""White Death's actions: one small frozen value per thing a player does, with its text.

Every action is a :class:`WDAction` whose ``kind`` picks the notation; ``parse`` accepts
exactly the text ``notation()`` writes (``move 1188/357 2405 2404``, ``impulse 4``,
``assault 1305 with 1188/357``, ``fire 12 at I/277``, ``done firing``...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pbem.engine import Action
from pbem.errors import ActionSyntaxError

_U = r"(?P<unit>[A-Za-z0-9/._-]+)"
_H = r"(?P<hex>\d{4})"
_F = r"(?P<frm>\d{4})"
_N = r"(?P<n>\d+(?:/\d+)?)"

#: kind -> (notation template, parse pattern)
FORMS: dict[str, tuple[str, str]] = {
    "place": ("place {unit} {hex}", rf"place {_U} {_H}"),
    "auto-setup": ("auto setup", r"auto setup"),
    "impulse": ("impulse {n}", rf"impulse {_N}"),
    "vl-supply": ("spend vl supply", r"spend vl supply"),
    "vl-keep": ("keep vl supply", r"keep vl supply"),
    "move": ("move {unit} {frm} {hex}", rf"move {_U} {_F} {_H}"),
    "lead": ("lead {unit} {frm} {hex}", rf"lead {_U} {_F} {_H}"),
    "enter": ("enter {unit} {hex}", rf"enter {_U} {_H}"),
    "deploy": ("deploy {unit}", rf"deploy {_U}"),
    "entrain": ("entrain {unit}", rf"entrain {_U}"),
    "rail": ("rail {unit} {hex}", rf"rail {_U} {_H}"),
    "assault": ("assault {hex} with {unit}", rf"assault {_H} with {_U}"),
    "build": ("build bridge {unit}", rf"build bridge {_U}"),
    "demolish": ("demolish bridge {unit}", rf"demolish bridge {_U}"),
    "replace": ("replace {unit}", rf"replace {_U}"),
    "repair": ("repair {unit}", rf"repair {_U}"),
    "refit": ("refit {unit}", rf"refit {_U}"),
    "end-movement": ("end movement", r"end movement"),
    "barrage": ("barrage {hex} with {unit}", rf"barrage {_H} with {_U}"),
    "fire-barrage": ("fire barrage", r"fire barrage"),
    "fire-barrage-half": ("fire barrage rockets at half", r"fire barrage rockets at half"),
    "end-barrage": ("end barrage", r"end barrage"),
    "hq": ("hq {unit}", rf"hq {_U}"),
    "high": ("high intensity", r"high intensity"),
    "support": ("support with {unit}", rf"support with {_U}"),
    "fire": ("fire {n} at {unit}", rf"fire {_N} at {_U}"),
    "fire-at": ("fire antitank {n} at {unit}", rf"fire antitank {_N} at {_U}"),
    "done": ("done firing", r"done firing"),
    "advance": ("advance {unit} {hex}", rf"advance {_U} {_H}"),
    "end-advance": ("end advance", r"end advance"),
}
_PATTERNS = [(kind, re.compile(pat + r"$")) for kind, (_, pat) in FORMS.items()]


def fmt_amount(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class WDAction(Action):
    kind: str
    unit: str = ""
    hex: str = ""
    frm: str = ""
    n: str = ""

    def notation(self) -> str:
        return FORMS[self.kind][0].format(unit=self.unit, hex=self.hex, frm=self.frm, n=self.n)

    @property
    def amount(self) -> Fraction:
        return Fraction(self.n)


def act(kind: str, unit: str = "", hex: str = "", frm: str = "",
        n: int | Fraction | str = "") -> WDAction:
    text = fmt_amount(n) if isinstance(n, Fraction) else str(n)
    return WDAction(kind, unit, hex, frm, text)


def parse(text: str) -> WDAction:
    for kind, pat in _PATTERNS:
        m = pat.match(text)
        if m:
            g = m.groupdict()
            n = g.get("n") or ""
            if n:
                try:
                    value = Fraction(n)
                except (ValueError, ZeroDivisionError):
                    raise ActionSyntaxError(f"bad amount {n!r} in {text!r}") from None
                if value <= 0:
                    raise ActionSyntaxError(f"the amount in {text!r} must be positive")
                n = fmt_amount(value)
            return WDAction(kind, g.get("unit") or "", g.get("hex") or "", g.get("frm") or "", n)
    raise ActionSyntaxError(f"{text!r} is not a White Death action (e.g. 'impulse 4', "
                            "'move 1188/357 2405 2404', 'end movement', 'done firing')")
