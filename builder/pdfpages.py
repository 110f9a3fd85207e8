"""Multi-page PDFs drawn in groups of pages on several cores, cached, then joined in order.

``pdf_document(pages, title, author)`` has the contract of builder.render.convert.pdf_document
and draws with it, but one group of pages at a time: consecutive pages showing the same main
drawing (a map sheet tiled over six pages) stay in one group so it is drawn once; groups go to
other cores (builder.parallel) and into the cache (builder.cache) under the text of their SVG
layers, so after one counter changes only the pages that show it are drawn again. Planned
pages (counter sheets: builder.render.pages.PlannedPage) are one group each, found by their key
without being composed. pikepdf (qpdf) joins the groups, keeps the document information of the
first and writes a deterministic file ID.
"""

from __future__ import annotations

import io

from builder import parallel


def groups(pages) -> list[list[int]]:
    """Page indexes in runs of consecutive pages whose largest drawing is the same (a map sheet
    tiled over six pages): each run is drawn together, so that drawing is recorded once."""
    out: list[list[int]] = []
    last = None
    for i, page in enumerate(pages):
        main = max((layer.svg for layer in page.layers), key=len, default=None)
        if out and main is not None and main == last:
            out[-1].append(i)
        else:
            out.append([i])
        last = main
    return out


# Set while the PNG previews of the same pages follow (outputs.print.previews_with_pdf): run
# in the worker that drew a group, with its pages, it rasterises their previews from the
# recordings just made, instead of a later worker recording every page again.
PREVIEWS = None


def _draw_group(context, g: int) -> bytes:
    from builder.render.convert import pdf_document

    pages, grouped, title, author = context
    group = [pages[i] for i in grouped[g]]
    data = pdf_document(group, title=title, author=author)
    if PREVIEWS is not None:
        PREVIEWS(group)
    return data


def pdf_document(pages, title: str = "", author: str = "", desc: str = "PDF pages") -> bytes:
    """A multi-page vector PDF of placed SVG layers (see builder.render.convert.pdf_document).
    Pages may all be planned (builder.render.pages.PlannedPage): each is then its own group,
    known by its key, and composed only when its PDF is not in the cache."""
    from builder import cache
    from builder.render.pages import PlannedPage

    pages = list(pages)
    if pages and all(isinstance(p, PlannedPage) for p in pages):
        return _planned_document(pages, title, author, desc)
    grouped = groups(pages)
    group_keys = _group_keys(pages, grouped, title, author)

    def drawn() -> bytes:
        parts = _drawn_groups(pages, grouped, group_keys, title, author, desc)
        return parts[0] if len(parts) == 1 else join(parts, grouped)

    # the whole document too: a map PDF of 80 pages is not joined again when a counter changes
    return cache.cached(("pdf-document", *group_keys), drawn)


def _group_keys(pages, grouped, title: str, author: str) -> list[tuple]:
    from builder.render.pages import page_key

    digests: dict[int, str] = {}  # id of an SVG text (alive while pages is) -> its sha256
    return [("pdf-pages", title, author, tuple(page_key(pages[i], digests) for i in g))
            for g in grouped]


def _drawn_groups(pages, grouped, group_keys, title: str, author: str, desc: str) -> list[bytes]:
    """Each group's PDF: from the cache under its pages' SVG text, else drawn on the cores."""
    context = (pages, grouped, title, author)
    return parallel.cached_map(_draw_group, range(len(grouped)), group_keys.__getitem__,
                               context, desc=desc)


def _planned_document(pages, title: str, author: str, desc: str) -> bytes:
    """pdf_document of planned pages, one page per group: a page whose key is known is taken
    from the cache uncomposed; the others are composed and drawn (or found under their SVG
    text: the back of a counter whose front factors changed is the same drawing)."""
    from builder import cache
    from builder.render.pages import planned_cached

    def parts(page) -> tuple:
        return ("pdf-planned-page", title, author, page.key)

    def drawn(composed: list) -> list[bytes]:
        alone = [[k] for k in range(len(composed))]
        return _drawn_groups(composed, alone, _group_keys(composed, alone, title, author),
                             title, author, desc)

    def document() -> bytes:
        found = planned_cached(pages, parts, drawn)
        return found[0] if len(found) == 1 else join(found, [[i] for i in range(len(found))])

    return cache.cached(("pdf-document", *(parts(p) for p in pages)), document)


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

