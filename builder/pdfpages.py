"""Multi-page PDFs drawn in groups of pages on several cores, cached, then joined in order.

``pdf_document(pages, title, author)`` has the contract of builder.render.convert.pdf_document
and draws with it, but one group of pages at a time: pages that share a drawing (a map sheet
tiled over six pages) stay in one group so it is drawn once; other groups go to other cores
(builder.parallel) and into the cache (builder.cache) under the text of their SVG layers, so
after one counter changes only the pages that show it are drawn again. pikepdf (qpdf) joins
the groups, keeps the document information of the first and writes a deterministic file ID.
"""

from __future__ import annotations

import io

from builder import parallel


def _layer_key(layer) -> tuple:
    return (layer.svg, layer.x, layer.y, layer.clip)


def _page_key(page) -> tuple:
    return (page.width, page.height, page.label, tuple(_layer_key(x) for x in page.layers))


def groups(pages) -> list[list[int]]:
    """Page indexes grouped so that pages sharing an SVG layer are in one group, in page order."""
    parent = list(range(len(pages)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_with: dict[str, int] = {}
    for i, page in enumerate(pages):
        for layer in page.layers:
            j = first_with.setdefault(layer.svg, i)
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    out: dict[int, list[int]] = {}
    for i in range(len(pages)):
        out.setdefault(root(i), []).append(i)
    return list(out.values())


def _draw_group(context, g: int) -> bytes:
    from builder.render.convert import pdf_document

    pages, grouped, title, author = context
    return pdf_document([pages[i] for i in grouped[g]], title=title, author=author)


def pdf_document(pages, title: str = "", author: str = "", desc: str = "PDF pages") -> bytes:
    """A multi-page vector PDF of placed SVG layers (see builder.render.convert.pdf_document)."""
    pages = list(pages)
    grouped = groups(pages)
    context = (pages, grouped, title, author)
    parts = parallel.cached_map(
        _draw_group, range(len(grouped)),
        lambda g: ("pdf-pages", title, author, tuple(_page_key(pages[i]) for i in grouped[g])),
        context, desc=desc)
    if len(parts) == 1:
        return parts[0]
    return join(parts, grouped)


def join(parts: list[bytes], grouped: list[list[int]]) -> bytes:
    """One PDF of the groups' pages in page order; the first group's document information."""
    import pikepdf

    sources = [pikepdf.open(io.BytesIO(data)) for data in parts]
    where = {i: (g, n) for g, members in enumerate(grouped) for n, i in enumerate(members)}
    out = pikepdf.new()
    for i in range(len(where)):
        g, n = where[i]
        out.pages.append(sources[g].pages[n])
    out.docinfo = out.copy_foreign(sources[0].docinfo)
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, compress_streams=True)
    for s in sources:
        s.close()
    return buf.getvalue()

