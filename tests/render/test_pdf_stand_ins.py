"""A drawing tiled over several pages of a PDF is painted through stand-ins swapped for it
afterwards (convert._stand_ins, render.pdf_stand_ins): the pages must print exactly as when the
drawing is painted on each page itself."""

from __future__ import annotations

import subprocess

import numpy as np
import pikepdf
from PIL import Image

from builder.render import convert, pdf_stand_ins
from builder.render import svg as S
from builder.render.convert import Layer, Page


def _big_drawing() -> str:
    """A 300 x 200 mm drawing past SHARED_MIN_CHARS: cells, numbers, a translucent wash."""
    cells = []
    for i in range(30):
        for j in range(20):
            cells.append(S.rect(i * 10, j * 10, 9, 9, fill="#e8dcc0" if (i + j) % 2 else "#b8d0a8",
                                stroke="#444444", stroke_width=0.3))
            cells.append(S.text(i * 10 + 4.5, j * 10 + 5, f"{i:02d}{j:02d}", 2.2))
    cells.append(S.rect(40, 40, 120, 80, fill="#3060c0", opacity=0.35))
    svg = S.document(300, 200, "".join(cells))
    assert len(svg) >= convert.SHARED_MIN_CHARS
    return svg


def _pages(drawing: str) -> list[Page]:
    pages = []
    for n, (x, y) in enumerate([(0, 0), (-120, 0), (0, -90), (-120, -90)]):
        title = S.document(210, 297, S.text(10, 12, f"Tile {n + 1}", 5, anchor="start"))
        marks = S.document(210, 297, S.circle(30, 40, 3, fill="none", stroke="#c8102e"))
        pages.append(Page(210, 297, (Layer(title), Layer(drawing, 10 + x, 20 + y,
                                                          clip=(10, 20, 190, 260), alone=True),
                                     Layer(marks)), label=f"tile {n + 1}"))
    return pages


def _rendered(pdf: bytes, tmp_path, name: str) -> list[np.ndarray]:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(tmp_path / name)], check=True)
    return [np.asarray(Image.open(p).convert("RGB"))
            for p in sorted(tmp_path.glob(f"{name}-*.png"))]


def _groups(pdf: bytes) -> list[list[bool]]:
    """Per page, which of its forms are transparency groups (cairo makes a form holding the
    translucent drawing one; a viewer composites a group apart, which shifts anti-aliasing)."""
    import io

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [["/Group" in form for form in page.Resources.XObject.values()]
                for page in doc.pages]


def test_tiled_drawing_prints_as_if_painted_on_every_page(tmp_path, monkeypatch):
    pages = _pages(_big_drawing())
    swapped = []
    put = pdf_stand_ins.put_in_place
    monkeypatch.setattr(pdf_stand_ins, "put_in_place",
                        lambda *a: swapped.append(put(*a)) or swapped[-1])
    fast = convert.pdf_document(pages, title="T")
    assert swapped and swapped[0] is not None  # the stand-ins were used and swapped
    plain = convert.pdf_document(pages, title="T", _stand_ins_allowed=False)
    ours, theirs = _rendered(fast, tmp_path, "fast"), _rendered(plain, tmp_path, "plain")
    assert len(ours) == len(theirs) == 4
    for a, b in zip(ours, theirs):
        assert np.array_equal(a, b)
    assert _groups(fast) == _groups(plain) == [[True]] * 4
    assert convert.pdf_document(pages, title="T") == fast  # the same bytes every build
    with pikepdf.open(tmp_path / "fast.pdf") as pdf:
        assert len(pdf.pages) == 4  # the extra page holding the drawing is gone
        assert str(pdf.docinfo["/Title"]) == "T"
        big = {obj.objgen for obj in pdf.objects if isinstance(obj, pikepdf.Stream)
               and obj.get("/Subtype") == "/Form" and len(obj.read_bytes()) > 50_000}
        assert len(big) == 1  # the drawing is stored once


def test_a_stand_in_left_in_place_falls_back_to_painting_each_page(monkeypatch):
    pages = _pages(_big_drawing())
    monkeypatch.setattr(pdf_stand_ins, "put_in_place", lambda *a: None)
    assert convert.pdf_document(pages) == convert.pdf_document(pages, _stand_ins_allowed=False)


def test_a_drawing_on_one_page_only_has_no_stand_in():
    assert convert._stand_ins(_pages(_big_drawing())[:1]) == {}
