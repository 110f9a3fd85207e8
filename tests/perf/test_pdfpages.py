"""PDFs drawn in page groups on several cores and joined: same pages, same order, cached."""

from __future__ import annotations

import io

import pikepdf

from builder import cache, parallel, pdfpages
from builder.cache import Cache
from builder.render.convert import Layer, Page


def _svg(n: int, w: float = 60, h: float = 40) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"><rect x="2" y="2" width="{10 + n}" height="8" fill="#{n:06x}"/>'
            f'<text x="5" y="30" font-size="6">page {n}</text></svg>')


def _pages() -> list[Page]:
    tiled = _svg(99, 120, 80)  # one large drawing tiled over pages 2 and 3
    # a small decoration on every page does not tie pages together
    frame = ('<svg xmlns="http://www.w3.org/2000/svg" width="5mm" height="5mm" viewBox="0 0 5 5">'
             '<rect width="5" height="5"/></svg>')
    pages = []
    for i in range(8):
        main = Layer(tiled, -50 * (i == 3)) if i in (2, 3) else Layer(_svg(i))
        pages.append(Page(100 + i, 150, (Layer(frame), main), label=f"p{i}"))
    return pages


def _sizes(data: bytes) -> list[int]:
    pdf = pikepdf.open(io.BytesIO(data))
    return [round(float(p.mediabox[2]) * 25.4 / 72) for p in pdf.pages]


def test_groups_keep_shared_drawings_together():
    assert pdfpages.groups(_pages()) == [[0], [1], [2, 3], [4], [5], [6], [7]]


def test_pages_come_out_in_order_and_the_same_bytes_on_any_number_of_cores(monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 1)
    serial = pdfpages.pdf_document(_pages(), title="T", author="A")
    monkeypatch.setattr(parallel, "JOBS", 2)
    pooled = pdfpages.pdf_document(_pages(), title="T", author="A")
    assert pooled == serial
    assert _sizes(serial) == [100 + i for i in range(8)]
    pdf = pikepdf.open(io.BytesIO(serial))
    info = pdf.docinfo
    assert (str(info["/Title"]), str(info["/Author"])) == ("T", "A")
    assert "20000101" in str(info["/CreationDate"])  # the fixed date survives the join


def test_one_changed_page_is_the_only_one_drawn_again(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "JOBS", 2)
    store = Cache(tmp_path)
    pages = _pages()
    with cache.using(store):
        first = pdfpages.pdf_document(pages)
        changed = list(pages)
        changed[5] = Page(105, 150, (Layer(_svg(555)),), label="p5")
        store.stats = cache.Stats()
        second = pdfpages.pdf_document(changed)
    # six groups read back; the changed group and the new whole document written
    assert (store.stats.hits, store.stats.written) == (6, 2)
    assert second != first and _sizes(second) == _sizes(first)


def test_an_unchanged_document_is_read_whole(tmp_path):
    store = Cache(tmp_path)
    pages = _pages()
    with cache.using(store):
        first = pdfpages.pdf_document(pages)
        store.stats = cache.Stats()
        again = pdfpages.pdf_document(list(pages))
    assert again == first
    assert (store.stats.hits, store.stats.written) == (1, 0)  # not joined from its groups again


def test_a_single_group_is_the_drawn_document_itself():
    from builder.render.convert import pdf_document

    pages = [Page(100, 150, (Layer(_svg(1)),))]
    assert pdfpages.pdf_document(pages, title="x") == pdf_document(pages, title="x")
