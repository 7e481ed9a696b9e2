"""A real renderer for the SVG tests: headless Chromium, and a tiny PNG reader.

Checking the SVG only as text would pass a picture no browser can draw; so the tests
render it in Chromium (Debian's ``chromium``; ``.ci/install-render.sh`` installs it) and
read the screenshot's pixels back with this stdlib-only PNG decoder (no Pillow needed).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str:
    """The browser's path; fails (never skips) the test when it is missing."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("no headless Chromium found: run .ci/install-render.sh "
                "(apt-get install -y chromium fonts-dejavu-core)", pytrace=False)


def screenshot(svg: str, width: int, height: int, directory: Path) -> Path:
    """Render ``svg`` inline in a blank page at 1:1 and return the PNG screenshot."""
    page = directory / "board.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
                    "html,body{margin:0;padding:0;background:#ffffff}svg{display:block}"
                    "</style></head><body>" + svg.split("?>", 1)[-1] + "</body></html>",
                    encoding="utf-8")
    png = directory / "board.png"
    # a Chromium helper still exiting may write into the profile as it is removed
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-",
                                     ignore_cleanup_errors=True) as profile:
        cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--hide-scrollbars",
               "--force-device-scale-factor=1", f"--user-data-dir={profile}",
               f"--screenshot={png}", f"--window-size={width},{height}",
               page.as_uri()]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if not png.exists():
        pytest.fail(f"chromium made no screenshot (exit {done.returncode}):\n"
                    f"{done.stderr[-2000:]}", pytrace=False)
    return png


@dataclass(frozen=True)
class Image:
    width: int
    height: int
    rows: list[bytes]  # RGB, 3 bytes per pixel

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        row = self.rows[int(y)]
        i = int(x) * 3
        return row[i], row[i + 1], row[i + 2]


def read_png(path: Path) -> Image:
    """Decode an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    pos, idat = 8, b""
    width = height = depth = ctype = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, color type {ctype}, "
                         f"interlace {interlace}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if filt == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filt == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xFF
        prev = line
        if bpp == 4:
            rgb = bytearray()
            for x in range(width):
                rgb += line[x * 4:x * 4 + 3]
            rows.append(bytes(rgb))
        else:
            rows.append(bytes(line))
    return Image(width, height, rows)
