"""cairocffi loaded from the FFIs builder.render.cairo_lib generated draws what the usual import
draws, and a damaged generated module falls back to the usual import."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from repo_paths import ROOT

DRAW = """
import hashlib, json, sys
from builder.render.cairo_lib import cairo
from builder.render import convert
surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 120, 40)
ctx = cairo.Context(surface)
ctx.set_source_rgb(0.2, 0.4, 0.6)
ctx.rectangle(2, 2, 60, 30)
ctx.fill()
ctx.select_font_face("DejaVu Sans")
ctx.set_font_size(14)
ctx.move_to(5, 25)
ctx.show_text("0827 Town")
surface.flush()
svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'
       '<rect x="1" y="1" width="8" height="8" fill="#c00"/>'
       '<text x="10" y="7" font-family="DejaVu Sans" font-size="4">1A</text></svg>')
print(json.dumps({
    "parsed_ahead": "builder" in (sys.modules["cairocffi.ffi"].__doc__ or ""),
    "pixels": hashlib.sha256(bytes(surface.get_data())).hexdigest(),
    "pdf": hashlib.sha256(convert.svg_to_pdf(svg)).hexdigest(),
}))
"""


def _run(cache_dir) -> dict:
    env = {**os.environ, "BUILDER_CACHE_DIR": str(cache_dir), "SOURCE_DATE_EPOCH": "0"}
    out = subprocess.run([sys.executable, "-c", DRAW], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def test_generated_ffis_draw_the_same_and_survive_damage(tmp_path):
    stale = tmp_path / "cffi" / "_builder_cairo_ffi_0123456789abcdef01234567.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("raise ImportError('another cairocffi')\n")
    first = _run(tmp_path)  # the usual import, which then writes the modules
    assert not stale.exists()
    generated = sorted((tmp_path / "cffi").glob("*.py"))
    assert [p.name.split("_ffi_")[0] for p in generated] == ["_builder_cairo", "_builder_pixbuf"]
    second = _run(tmp_path)
    assert not first["parsed_ahead"] and second["parsed_ahead"]
    assert second["pixels"] == first["pixels"] and second["pdf"] == first["pdf"]

    generated[0].write_text("raise ImportError('damaged')\n")
    third = _run(tmp_path)
    assert not third["parsed_ahead"]
    assert third["pixels"] == first["pixels"] and third["pdf"] == first["pdf"]
    assert _run(tmp_path)["parsed_ahead"]  # written again by the import that fell back
