"""PNG previews made by the PDF's workers (outputs.print.previews_with_pdf) are the ones the PNG
builder would make: the same bytes, and the PNG builder then draws none of them."""

from __future__ import annotations

from builder.cache import Cache
from builder.load import load_game
from builder.outputs import build_game
from builder.outputs import print as print_out
from builder.render import convert


def _build(game_dir, out, formats, cache_dir, monkeypatch) -> list[str]:
    """The labels of the previews the PNG builder drew itself."""
    print_out._CACHE.clear()
    drawn: list[str] = []
    png = print_out._png
    monkeypatch.setattr(print_out, "_png", lambda pages, i: drawn.append(pages[i].label)
                        or png(pages, i))
    build_game(load_game(game_dir), formats, out, cache=Cache(cache_dir))
    return drawn


def test_previews_from_the_pdf_workers_equal_the_png_builders(mini, tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDER_JOBS", "1")
    calls = []
    real = convert.page_to_png
    monkeypatch.setattr(convert, "page_to_png", lambda p, s: calls.append(p.label) or real(p, s))
    drawn = _build(mini, tmp_path / "both", ("pdf", "png"), tmp_path / "c1", monkeypatch)
    assert drawn == [] and calls  # made beside the PDF pages, none by the PNG builder
    # a map's preview is its drawing, made once; the pages it is printed on get none (their
    # previews were made and never used: 180 pages of the Europa-scale game, 15 CPU seconds)
    assert calls.count("") == 1 and not [c for c in calls if c.startswith("map")]
    alone = _build(mini, tmp_path / "alone", ("png",), tmp_path / "c2", monkeypatch)
    assert alone  # without the PDF, the PNG builder draws them
    both = sorted((tmp_path / "both" / "mini" / "print").glob("*.png"))
    assert both and [p.name for p in both] == sorted(
        p.name for p in (tmp_path / "alone" / "mini" / "print").glob("*.png"))
    for p in both:
        assert p.read_bytes() == (tmp_path / "alone" / "mini" / "print" / p.name).read_bytes(), p.name
