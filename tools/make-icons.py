#!/usr/bin/env python3
"""Draws the app icons (a 3x3 contribution grid on matte purple) as PNGs for the web app
manifest, with no imaging library: run it after changing the design, commit the files."""
import struct, sys, zlib
from pathlib import Path

BACKGROUND = (0x27, 0x1F, 0x33)
CELL_ON = (0xA7, 0x8B, 0xFA)
CELL_OFF = (0x3D, 0x31, 0x50)
PATTERN = [1, 0, 1, 1, 1, 0, 0, 1, 1]


def inside_rounded(x, y, left, top, size, radius):
    cx = min(max(x, left + radius), left + size - radius)
    cy = min(max(y, top + radius), top + size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def pixel(x, y, size):
    # Full-bleed background: "maskable" icons are cropped by the platform.
    cell = size * 0.2
    gap = size * 0.06
    origin = (size - (3 * cell + 2 * gap)) / 2
    for index, on in enumerate(PATTERN):
        left = origin + (index % 3) * (cell + gap)
        top = origin + (index // 3) * (cell + gap)
        if inside_rounded(x + 0.5, y + 0.5, left, top, cell, cell * 0.22):
            return CELL_ON if on else CELL_OFF
    return BACKGROUND


def png(size):
    rows = b"".join(b"\x00" + bytes(c for x in range(size) for c in pixel(x, y, size)) for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/TallyWeb/Resources/web")
    for size in (192, 512):
        (folder / f"icon-{size}.png").write_bytes(png(size))
