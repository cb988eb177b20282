"""Render ``resources/icon.svg`` into the icon files the packages need.

Writes (run from anywhere: ``python packaging/render_icons.py``):

* ``packaging/linux/icons/hicolor/<N>x<N>/apps/io.github.dpgui.png`` for the freedesktop sizes, plus the
  SVG itself under ``scalable/apps/`` (an installable hicolor theme tree);
* ``packaging/icons/dpgui.ico`` (Windows) and ``packaging/icons/dpgui.icns`` (macOS), both holding PNGs,
  which every supported Windows and macOS version reads.

Rendering uses PySide6's QSvgRenderer, so the output does not depend on a system SVG tool.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "resources" / "icon.svg"
APP_ID = "io.github.dpgui"
HICOLOR = ROOT / "packaging" / "linux" / "icons" / "hicolor"
PLATFORM_ICONS = ROOT / "packaging" / "icons"
LINUX_SIZES = (16, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = ((b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512))


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """The SVG drawn on a transparent ``size`` x ``size`` canvas, as PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError(f"could not encode the {size}px icon as PNG")
    return bytes(data.data())


def ico_file(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNG images (ICONDIR, one ICONDIRENTRY per size, then the data)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in pngs.items():
        side = size % 256  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(images))
        images += png
    return header + entries + images


def icns_file(pngs: dict[bytes, bytes]) -> bytes:
    """A macOS .icns: the magic and total length, then (type, length including its 8-byte header, PNG)."""
    body = b"".join(kind + struct.pack(">I", 8 + len(png)) + png for kind, png in pngs.items())
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    _app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SOURCE}")
    sizes = sorted({*LINUX_SIZES, *ICO_SIZES, *(size for _, size in ICNS_TYPES)})
    pngs = {size: render_png(renderer, size) for size in sizes}

    for size in LINUX_SIZES:
        target = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pngs[size])
    scalable = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, scalable)

    PLATFORM_ICONS.mkdir(parents=True, exist_ok=True)
    (PLATFORM_ICONS / "dpgui.ico").write_bytes(ico_file({size: pngs[size] for size in ICO_SIZES}))
    (PLATFORM_ICONS / "dpgui.icns").write_bytes(icns_file({kind: pngs[size] for kind, size in ICNS_TYPES}))
    print(f"icons written under {HICOLOR} and {PLATFORM_ICONS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
