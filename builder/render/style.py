"""Colours, fonts, line weights and sizes of every printed component, in one place (mm)."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

# --- fonts -----------------------------------------------------------------------------------
# Only the faces of Debian's fonts-dejavu-core, so a fresh machine renders the same glyphs.
SANS = "DejaVu Sans"
SERIF = "DejaVu Serif"
MONO = "DejaVu Sans Mono"
_FONT_FILES = {
    (SANS, False): "DejaVuSans.ttf",
    (SANS, True): "DejaVuSans-Bold.ttf",
    (SERIF, False): "DejaVuSerif.ttf",
    (SERIF, True): "DejaVuSerif-Bold.ttf",
    (MONO, False): "DejaVuSansMono.ttf",
    (MONO, True): "DejaVuSansMono-Bold.ttf",
}
_FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/Library/Fonts",
)
ASCENT = 0.93  # DejaVu ascent and descent as a share of the font size (what PDF readers box)
DESCENT = 0.24
CAP_HEIGHT = 0.73


class FontMissing(RuntimeError):
    """The DejaVu fonts are not installed."""


@cache
def font_file(family: str = SANS, bold: bool = False) -> Path:
    """Path of a DejaVu font file (install Debian's fonts-dejavu-core when missing)."""
    name = _FONT_FILES[(family, bold)]
    for folder in _FONT_DIRS:
        p = Path(folder) / name
        if p.is_file():
            return p
    if shutil.which("fc-match"):
        out = subprocess.run(
            ["fc-match", "-f", "%{file}", f"{family}:{'bold' if bold else ''}"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if out.endswith(name):
            return Path(out)
    raise FontMissing(
        f"font {name} not found: install the DejaVu fonts (Debian: fonts-dejavu-core)"
    )


@cache
def _advances(family: str, bold: bool):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_file(family, bold)), 1000), {}, {}


def text_width(text: str, size: float, bold: bool = False, family: str = SANS) -> float:
    """Advance width in mm of text at font size `size` mm, letter by letter as cairo sets it."""
    font, letters, texts = _advances(family, bold)
    total = texts.get(text)
    if total is None:  # a layout measures the same cells again at each type size it tries
        total = 0.0
        for ch in text:
            w = letters.get(ch)
            if w is None:
                w = letters[ch] = font.getlength(ch) / 1000.0
            total += w
        if len(texts) > 200_000:
            texts.clear()
        texts[text] = total
    return total * size


# --- paper -----------------------------------------------------------------------------------
PAPER = {  # portrait width, height in mm
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
    "11x17": (279.4, 431.8),
    "a3": (297.0, 420.0),
    "22x34": (558.8, 863.6),
}
PAGE_MARGIN = 10.0  # most home printers cannot print the outer 5 mm
PAGE_TITLE_SIZE = 4.2
PAGE_SMALL = 2.4
PT = 25.4 / 72  # mm per point
CARD_BODY = 2.65  # mm (7.5 pt): aid-card table text, the smallest a published aid card prints
CARD_NOTE = 2.48  # mm (7 pt): aid-card notes under a table
BLEED = 1.0  # each counter's background runs this far past its cut line
CROP_MARK = 3.0
CROP_GAP = 1.0
TILE_OVERLAP = 12.0

# --- ink -------------------------------------------------------------------------------------
INK = "#1d1b18"
PAPER_WHITE = "#ffffff"
MARGIN_FILL = "#f4efe1"
GRID_LINE = "#3b3a36"
CUT_LINE = "#6b6b6b"
NIGHT = "#2c3550"
NIGHT_TEXT = "#e8e6f0"
RED_FACTOR = "#c8102e"
MUTED = "#6f6a60"
TABLE_HEAD = "#ded5bd"
TABLE_STRIPE = "#f3eee0"
TABLE_RULE = "#8c8472"
CARD_BORDER = "#5a5446"
HALO = "#fffdf5"

# --- map -------------------------------------------------------------------------------------
MAP_MARGIN = 14.0  # around the hex grid; the sheet id and edge marks live here
MAP_TITLE_BAND = 22.0
HEX_LINE_WIDTH = 0.16
HEX_NUMBER_SIZE = 0.085  # share of the hex height
HEX_NUMBER_MIN = 1.8  # mm (5.1 pt): a hex number is never smaller, whatever the hex
PLACE_NAME_MIN = 2.15  # mm (6.1 pt): nor is a place name
LABEL_SIZE = {
    "city": 0.15,
    "town": 0.125,
    "village": 0.105,
    "water": 0.12,
    "feature": 0.105,
    "region": 0.17,
}
HEXSIDE_WIDTH = {
    "river": 0.9,
    "major-river": 1.5,
    "minor-river": 0.55,
    "canal": 0.8,
    "trench": 0.55,
    "causeway": 1.2,
    "sea": 1.6,
    "fortified": 0.7,
    "border": 0.5,
    "escarpment": 0.5,
}
LINE_WIDTH = {
    "road": 0.9,
    "minor-road": 0.55,
    "railway": 0.5,
    "ferry": 0.5,
    "boundary": 0.5,
    "track": 0.4,
}
SIDE_FALLBACK = "#bbbbbb"


def darker(colour: str, factor: float = 0.7) -> str:
    """The colour with each channel scaled down (for outlines and shadows)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"#{int(r * factor):02x}{int(g * factor):02x}{int(b * factor):02x}"


def lighter(colour: str, factor: float = 0.5) -> str:
    """The colour mixed with white (factor 1 = white)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * factor) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


@cache  # a game has a few colours; a campaign's set-up cards ask of one 4,000 times
def luminance(colour: str) -> float:
    """Relative luminance 0..1 (to choose dark or light text on a fill)."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on the fill."""
    return INK if luminance(colour) > 0.45 else "#ffffff"
