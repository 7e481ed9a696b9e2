"""Small color arithmetic shared by the terminal board and the SVG picture.

Engines give colors as ``"#rrggbb"``; the display needs a readable text color on each
fill and tints for highlights, so both renderers agree on the same few formulas here.
"""

from __future__ import annotations

from functools import lru_cache

RGB = tuple[int, int, int]


def parse(color: str, default: RGB = (192, 192, 192)) -> RGB:
    """``"#rrggbb"`` (or ``"#rgb"``) to a triple; anything else gives ``default``.

    Forgiving on purpose: a bad color in scenario data should draw grey, not crash the
    replay of a game in progress.
    """
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        return default
    try:
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    except ValueError:
        return default


def hex_of(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, v)) for v in rgb))


def normalize(color: str) -> str:
    """The canonical lowercase ``#rrggbb`` spelling (what a renderer reports back)."""
    return hex_of(parse(color))


@lru_cache(maxsize=4096)
def mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    ra, rb = parse(a), parse(b)
    return hex_of(tuple(round(x + (y - x) * t) for x, y in zip(ra, rb, strict=True)))  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def luminance(color: str) -> float:
    """Relative luminance (sRGB, WCAG formula), 0 for black to 1 for white."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = parse(color)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(color: str) -> str:
    """Black or white, whichever reads better on ``color``."""
    return "#000000" if luminance(color) > 0.179 else "#ffffff"
