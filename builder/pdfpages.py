"""Multi-page PDFs drawn in groups of pages on several cores, cached, then joined in order.

``pdf_document(pages, title, author)`` has the contract of builder.render.convert.pdf_document
and draws with it, but one group of pages at a time: consecutive pages showing the same main drawing (a map
sheet tiled over six pages) stay in one group so it is drawn once; groups go to other cores
(builder.parallel) and into the cache (builder.cache) under the text of their SVG layers, so
after one counter changes only the pages that show it are drawn again. pikepdf (qpdf) joins
the groups, keeps the document information of the first and writes a deterministic file ID.
"""

from __future__ import annotations

import hashlib
import io

from builder import parallel


def page_key(page, digests: dict[int, str]) -> tuple:
    """A page as key parts; each distinct SVG is hashed once however many pages show it."""
    layers = []
    for layer in page.layers:
        d = digests.get(id(layer.svg))
        if d is None:
            d = digests[id(layer.svg)] = hashlib.sha256(layer.svg.encode("utf-8")).hexdigest()
        layers.append((d, layer.x, layer.y, layer.clip))
    return (page.width, page.height, page.label, tuple(layers))


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


def _draw_group(context, g: int) -> bytes:
    from builder.render.convert import pdf_document

    pages, grouped, title, author = context
    return pdf_document([pages[i] for i in grouped[g]], title=title, author=author)


def pdf_document(pages, title: str = "", author: str = "", desc: str = "PDF pages") -> bytes:
    """A multi-page vector PDF of placed SVG layers (see builder.render.convert.pdf_document)."""
    from builder import cache

    pages = list(pages)
    grouped = groups(pages)
    context = (pages, grouped, title, author)
    digests: dict[int, str] = {}  # id of an SVG text (alive while pages is) -> its sha256
    group_keys = [("pdf-pages", title, author,
                   tuple(page_key(pages[i], digests) for i in grouped[g]))
                  for g in range(len(grouped))]

    def drawn() -> bytes:
        parts = parallel.cached_map(_draw_group, range(len(grouped)), group_keys.__getitem__,
                                    context, desc=desc)
        return parts[0] if len(parts) == 1 else join(parts, grouped)

    # the whole document too: a map PDF of 80 pages is not joined again when a counter changes
    return cache.cached(("pdf-document", *group_keys), drawn)


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

