"""Draw a map.toml as a PNG to eyeball it (needs matplotlib; offline, optional).

    python tools/maps/render_preview.py scenarios/for-the-motherland/map.toml /tmp/ftm.png
"""

from __future__ import annotations

import math
import sys
import tomllib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import RegularPolygon

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hexgeo as H


def main(src: str, dst: str) -> None:
    data = tomllib.loads(Path(src).read_text())
    m = data["map"]
    parity = m["offset"]
    legend = {ch: spec for ch, spec in m["legend"].items()}
    colors: dict[str, str] = {s["name"]: s["color"] for s in legend.values() if "name" in s}
    terrain: dict[str, str] = {}
    c0, c1 = m["cols"]
    for line in m["terrain"]["grid"].strip("\n").split("\n"):
        label, chars = line.split(" ", 1)
        r = int(label)
        for k, ch in enumerate(chars.replace(" ", "")):
            spec = legend[ch]
            if "name" in spec:
                terrain[f"{c0 + k:02d}{r:02d}"] = spec["name"]
    ncols = c1 - c0 + 1
    fig, ax = plt.subplots(figsize=(ncols * 0.45 + 2, (m["rows"][1]) * 0.5 + 2))

    def xy(h: str) -> tuple[float, float]:
        x, y = H.center(int(h[:2]), int(h[2:]), parity)
        return x, -y

    for h, t in terrain.items():
        x, y = xy(h)
        ax.add_patch(RegularPolygon((x, y), 6, radius=H.SIDE, orientation=math.pi / 6,
                                    facecolor=colors.get(t, "#ffffff"), edgecolor="#999999",
                                    linewidth=0.3))
        ax.text(x, y - 0.35, h, fontsize=3, ha="center", color="#555555")
    feats = m.get("hex_features", {})
    for name, style in (("river", "#3060d0"), ("creek", "#80b0f0")):
        for h in feats.get(name, []):
            x, y = xy(h)
            ax.plot([x], [y], "o", color=style, markersize=4)
    for name, color in (("major_river", "#1040c0"), ("minor_river", "#60a0ff"),
                        ("lake", "#3080ff"), ("partial_lake", "#a0c0ff"),
                        ("strait", "#ff00ff"), ("rail_bridge", "#000000"),
                        ("out_of_play", "#8a6a40"), ("frozen_access", "#ff2020"),
                        ("slope", "#8a6a40")):
        for e in m.get("hexsides", {}).get(name, []):
            a, b = e.replace("->", "/").split("/")
            (xa, ya), (xb, yb) = xy(a), xy(b)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            dx, dy = xb - xa, yb - ya
            L = math.hypot(dx, dy)
            px, py = -dy / L * H.SIDE / 2, dx / L * H.SIDE / 2
            ax.plot([mx - px, mx + px], [my - py, my + py], color=color,
                    linewidth=2.2 if name != "slope" else 1)
    for net, color, lw in (("railroad", "#202020", 1.2), ("road", "#a0a0a0", 0.8)):
        for path in m.get("networks", {}).get(net, []):
            hs = path.split()
            ax.plot([xy(h)[0] for h in hs], [xy(h)[1] for h in hs], color=color, linewidth=lw)
    for name, hexes in m.get("places", {}).items():
        hexes = [hexes] if isinstance(hexes, str) else hexes
        x, y = xy(hexes[0])
        ax.plot([x], [y], "s", color="#c00000", markersize=3)
        ax.text(x, y + 0.15, name, fontsize=4.5, ha="center", color="#800000")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    fig.savefig(dst, dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
