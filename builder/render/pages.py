"""Printed pages: counter sheets (fronts, mirrored backs for long-edge duplex, bleed, cut lines,
crop marks), a duplex calibration sheet, maps tiled over pages or on one large sheet, and the
page furniture (titles, instructions). A page is a list of placed SVG layers (convert.Page)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from builder import cache, keys
from builder.model.game_model import Game
from builder.render import style
from builder.render import svg as S
from builder.render.convert import Layer, Page, svg_size_mm
from builder.render.counters import counter_size, counter_svg, find
from builder.render.svg import num

LARGE_SHEETS = ("11x17", "a3", "22x34")
HEADER = 9.0  # title band inside the page margin
FOOTER = 6.0


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    w, h = style.PAPER[paper]
    return (h, w) if landscape else (w, h)


def _furniture(
    w: float, h: float, title: str, right: str = "", foot: str = "", extra: str = ""
) -> str:
    m = style.PAGE_MARGIN
    body = [
        S.fitted(
            m,
            m + 4.2,
            title,
            (w - 2 * m) * 0.7,
            style.PAGE_TITLE_SIZE,
            bold=True,
            family=style.SERIF,
            anchor="start",
        ),
        S.line(m, m + HEADER - 2.5, w - m, m + HEADER - 2.5, stroke=style.INK, stroke_width=0.25),
    ]
    if right:
        body.append(
            S.fitted(w - m, m + 4.2, right, (w - 2 * m) * 0.28, 2.8, anchor="end", fill=style.MUTED)
        )
    if foot:
        body.append(S.fitted(w / 2, h - m + 1.0, foot, w - 2 * m, 2.2, fill=style.MUTED))
    body.append(extra)
    return S.document(w, h, "".join(body))


def page_svg(page: Page) -> str:
    """One page as a standalone SVG (its layers nested at their places)."""
    defs, body = [], []
    for i, layer in enumerate(page.layers):
        lw, lh = svg_size_mm(layer.svg)
        nested = S.nest(layer.svg, layer.x, layer.y, lw * layer.scale, lh * layer.scale)
        if layer.clip:
            cx, cy, cw, ch = layer.clip
            defs.append(f'<clipPath id="page-clip-{i}">{S.rect(cx, cy, cw, ch)}</clipPath>')
            nested = S.g(nested, clip_path=f"url(#page-clip-{i})")
        body.append(nested)
    return S.document(
        page.width, page.height, "\n".join(body), defs="".join(defs), title=page.label
    )


# --- counter sheets ----------------------------------------------------------------------------
@dataclass
class Placed:
    counter_id: str
    x: float  # the cut line's top-left on the front page
    y: float
    size: float
    shape: str


def counter_groups(game: Game) -> list[tuple[str, list[str]]]:
    """(heading, counter ids with copies expanded), units by side and formation, then markers."""
    groups: list[tuple[str, list[str]]] = []
    for side in game.info.sides:
        order = {f.id: i for i, f in enumerate(side.formations)}
        units = [u for u in game.units if u.side == side.id]
        units.sort(key=lambda u: order.get(u.formation, len(order)))
        ids = [u.id for u in units for _ in range(u.copies)]
        if ids:
            groups.append((f"{side.name} units", ids))
    for side in list(game.info.sides) + [None]:
        sid = side.id if side else ""
        ids = [m.id for m in game.markers if (m.side or "") == sid for _ in range(m.copies)]
        if not side:
            ids += [
                m.id
                for m in game.markers
                if m.side and m.side not in game.sides
                for _ in range(m.copies)
            ]
        if ids:
            groups.append((f"{side.name} markers" if side else "Markers", ids))
    # one grid per counter size: split a group whose counters differ in size
    out = []
    for heading, ids in groups:
        by_size: dict[tuple, list[str]] = {}
        for cid in ids:
            by_size.setdefault(counter_size(game, find(game, cid)), []).append(cid)
        for ids_of_size in by_size.values():
            out.append((heading, ids_of_size))
    return out


def _crop_marks(xs: list[float], ys: list[float], box: tuple[float, float, float, float]) -> str:
    """Short marks outside a grid's box at every cut line."""
    x0, y0, x1, y1 = box
    gap, length = style.CROP_GAP, style.CROP_MARK
    d = []
    for x in xs:
        d.append(f"M{num(x)} {num(y0 - gap)}V{num(y0 - gap - length)}")
        d.append(f"M{num(x)} {num(y1 + gap)}V{num(y1 + gap + length)}")
    for y in ys:
        d.append(f"M{num(x0 - gap)} {num(y)}H{num(x0 - gap - length)}")
        d.append(f"M{num(x1 + gap)} {num(y)}H{num(x1 + gap + length)}")
    return S.path("".join(d), fill="none", stroke=style.INK, stroke_width=0.2)


def layout_counters(
    game: Game, paper: str
) -> list[tuple[list[Placed], list[tuple[str, float, float]], str]]:
    """Counter sheets: per page (placed counters, headings (text, x, y), crop-mark SVG body).

    Each group (a side's units, its markers ...) is a grid with crop marks round it; a small
    group that fits beside the previous grid goes there instead of starting a new band."""
    w, h = paper_size(paper)
    m = style.PAGE_MARGIN
    b = style.BLEED
    clearance = style.CROP_GAP + style.CROP_MARK + 0.5  # room for crop marks around a grid
    head_h = 4.5
    left, right = m + clearance, w - m - clearance
    top, bottom = m + HEADER, h - m - FOOTER - clearance
    pages: list[tuple[list[Placed], list, str]] = []
    page: dict = {"placed": [], "heads": [], "marks": []}
    y = top
    beside: tuple[float, float, int, float] | None = (
        None  # (x, heading y, rows, cell) free on the right
    )

    def new_page() -> None:
        nonlocal page, y, beside
        if page["placed"]:
            pages.append((page["placed"], page["heads"], "".join(page["marks"])))
        page = {"placed": [], "heads": [], "marks": []}
        y, beside = top, None

    def grid(ids, heading, gx, hy, cols, c, shape) -> tuple[float, float]:
        """Place ids in a grid headed at hy; returns the right and bottom of its box."""
        cell = c + 2 * b
        gy = hy + head_h + clearance
        xs, ys = set(), set()
        for k, cid in enumerate(ids):
            cx = gx + (k % cols) * cell + b
            cy = gy + (k // cols) * cell + b
            page["placed"].append(Placed(cid, cx, cy, c, shape))
            xs.update((cx, cx + c))
            ys.update((cy, cy + c))
        rows = -(-len(ids) // cols)
        box = (gx, gy, gx + min(cols, len(ids)) * cell, gy + rows * cell)
        # a heading may run into the gap before the next group, never over its heading
        page["heads"].append((heading, gx - clearance + 0.5, hy + 3.2, box[2] - gx + 2 * clearance))
        page["marks"].append(_crop_marks(sorted(xs), sorted(ys), box))
        return box[2], box[3]

    for heading, ids in counter_groups(game):
        c, shape = counter_size(game, find(game, ids[0]))
        cell = c + 2 * b
        if beside and beside[3] == cell:
            bx, hy, rows, _ = beside
            free_cols = int((right - bx) // cell)
            label_w = style.text_width(heading, 2.8, True) + 2
            if (
                free_cols >= 1
                and -(-len(ids) // free_cols) <= rows
                and free_cols * cell >= label_w - clearance
            ):
                x1, _ = grid(ids, heading, bx, hy, free_cols, c, shape)
                beside = (x1 + 2 * clearance + 1.0, hy, rows, cell)
                continue
        cols = max(1, int((right - left) // cell))
        done, cont = 0, False
        while done < len(ids):
            rows_fit = int((bottom - (y + head_h + clearance)) // cell)
            if rows_fit < 1:
                new_page()
                continue
            chunk = ids[done : done + rows_fit * cols]
            hy = y
            x1, y1 = grid(
                chunk, heading + (" (continued)" if cont else ""), left, hy, cols, c, shape
            )
            rows = -(-len(chunk) // cols)
            beside = (
                (x1 + 2 * clearance + 1.0, hy, rows, cell)
                if len(chunk) < cols * rows or x1 + 2 * clearance + cell < right
                else None
            )
            done += len(chunk)
            y = y1 + clearance + 1.0
            cont = True
    new_page()
    return pages


@dataclass(frozen=True)
class PlannedPage:
    """A page known by a key before it is composed: the key names everything the page shows,
    so a build whose page is current keeps its file without composing it (a counter sheet
    holds 350 faces read from the cache), and make() composes it when it is needed."""

    width: float
    height: float
    label: str
    key: str
    make: Callable[[], Page]
    faces: tuple = ()  # (counter id, side) of each face shown: drawn ahead by compose()
    draw_faces: Callable[[list], None] | None = None

    @classmethod
    def of(cls, page: Page, digests: dict[int, str]) -> PlannedPage:
        """A page already composed (an aid page, the calibration sheet), keyed by its layers."""
        key = cache.key(("page", page_key(page, digests)))
        return cls(page.width, page.height, page.label, key, lambda: page)


def compose(pages: list[PlannedPage]) -> list[Page]:
    """The pages composed, the counter faces they show drawn first on all the cores (a
    campaign game's 8,000 faces took 4.8 s written one after another)."""
    drawers = [p.draw_faces for p in pages if p.draw_faces is not None]
    if drawers:  # one plan's pages share one drawer
        drawers[0]([f for p in pages for f in p.faces])
    return [p.make() for p in pages]


def _face_svg(game: Game, face: tuple[str, str]) -> bytes:
    return counter_svg(game, face[0], face[1], bleed=style.BLEED).encode("utf-8")


def planned_cached(pages: list[PlannedPage], planned_parts: Callable[[PlannedPage], tuple],
                   make: Callable[[list[Page]], list[bytes]]) -> list[bytes]:
    """Bytes made from planned pages (a PDF or a PNG each), kept in the build cache under
    planned_parts(page): a page found there is not composed; the others are composed and given
    to make, which looks them up under what they show (the back of a counter whose front
    factors changed has a new key and the same drawing: it is not drawn again)."""
    store = cache.active()
    keys = [cache.key(planned_parts(p)) for p in pages]
    out = [store.get(k) if store is not None else None for k in keys]
    todo = [i for i, data in enumerate(out) if data is None]
    for i, data in zip(todo, make(compose([pages[i] for i in todo])) if todo else []):
        out[i] = data
        if store is not None:
            store.put(keys[i], data)
    return out  # type: ignore[return-value]


def counter_page_plan(game: Game, paper: str) -> list[PlannedPage]:
    """Calibration front/back, then each counter sheet's front and its mirrored back, each page
    keyed by the sheet's layout and the faces on it (composed by make() when needed)."""
    w, h = paper_size(paper)
    title = game.info.title
    digests: dict[int, str] = {}
    plan = [PlannedPage.of(p, digests) for p in calibration_pages(game, paper)]
    sheets = layout_counters(game, paper)
    svgs: dict[tuple[str, str], str] = {}

    def item(cid: str):
        return game.unit_by_id.get(cid) or game.marker_by_id[cid]

    def face_parts(k: tuple[str, str]) -> tuple:
        """The cache key parts of one face's SVG, for face() and draw_faces() alike."""
        return ("counter-face-svg", keys.counter_parts(game, item(k[0]), k[1]), style.BLEED)

    def face(cid: str, f: str) -> str:
        k = (cid, f)
        if k not in svgs:
            # from the build cache when its row and game.toml are unchanged: 8,000 faces of a
            # campaign game take 2 s to write again after one counter changes
            svgs[k] = cache.cached(face_parts(k), lambda: _face_svg(game, k)).decode("utf-8")
        return svgs[k]

    def draw_faces(wanted: list) -> None:
        """The faces not drawn yet, on the cores, into the cache where face() finds them."""
        from builder import parallel

        todo = [k for k in dict.fromkeys(wanted) if k not in svgs]
        if cache.active() is None or len(todo) < 2:
            return  # face() draws them as the page needs them
        texts = parallel.cached_map(_face_svg, todo, face_parts, game, desc="counter faces",
                                    min_batch=64)  # 0.4 ms a face: a few are not worth a worker
        svgs.update((k, text.decode("utf-8")) for k, text in zip(todo, texts))

    n = len(sheets)
    for i, (placed, heads, marks) in enumerate(sheets, 1):
        for side in ("front", "back"):
            label = f"counters sheet {i} {side}"
            shown = repr((w, h, title, i, n, side, style.BLEED, heads, marks, [
                (keys.counter_parts(game, item(p.counter_id), side), p.x, p.y, p.size, p.shape)
                for p in placed]))
            plan.append(PlannedPage(w, h, label, cache.key(("counter-sheet-page", label, shown)),
                                    lambda placed=placed, heads=heads, marks=marks, i=i,
                                    side=side: _sheet_page(game, paper, face, placed, heads,
                                                           marks, i, n, side),
                                    tuple((p.counter_id, side) for p in placed), draw_faces))
    return plan


def _sheet_page(game: Game, paper: str, face, placed: list[Placed], heads, marks: str, i: int,
                n: int, side: str) -> Page:
    """One counter sheet's front, or its back mirrored for long-edge duplex."""
    w, h = paper_size(paper)
    title = game.info.title
    layers = []
    cut = []
    for p in placed:
        x = p.x if side == "front" else w - p.x - p.size
        layers.append(Layer(face(p.counter_id, side), x - style.BLEED, p.y - style.BLEED))
        if side == "front":
            cut.append(
                S.circle(
                    x + p.size / 2,
                    p.y + p.size / 2,
                    p.size / 2,
                    fill="none",
                    stroke=style.CUT_LINE,
                    stroke_width=0.1,
                )
                if p.shape == "round"
                else S.rect(
                    x,
                    p.y,
                    p.size,
                    p.size,
                    fill="none",
                    stroke=style.CUT_LINE,
                    stroke_width=0.1,
                )
            )
    extra = (
        marks
        if side == "front"
        else S.g(marks, transform=f"translate({num(w)} 0) scale(-1 1)")
    )
    head_svg = "".join(
        S.fitted(
            hx if side == "front" else w - hx,
            hy,
            text,
            width,
            2.8,
            bold=True,
            anchor="start" if side == "front" else "end",
            fill=style.MUTED,
        )
        for text, hx, hy, width in heads
    )
    foot = (
        "Print at 100 % (actual size), double-sided, flipping on the long edge; "
        "check alignment with the calibration sheet first."
    )
    right = f"Counters sheet {i} of {n}: {'fronts' if side == 'front' else 'backs (mirrored)'}"
    furniture = _furniture(w, h, f"{title}: counters", right, foot, extra + head_svg)
    cut_layer = S.document(w, h, "".join(cut)) if cut else ""
    all_layers = [Layer(furniture)] + layers + ([Layer(cut_layer)] if cut_layer else [])
    return Page(w, h, tuple(all_layers), f"counters sheet {i} {side}")


def page_key(page: Page, digests: dict[int, str]) -> tuple:
    """A composed page as cache key parts; each distinct SVG is hashed once however many pages
    show it (digests: id of an SVG text, alive while the pages are -> its sha256)."""
    import hashlib

    layers = []
    for layer in page.layers:
        d = digests.get(id(layer.svg))
        if d is None:
            d = digests[id(layer.svg)] = hashlib.sha256(layer.svg.encode("utf-8")).hexdigest()
        layers.append((d, layer.x, layer.y, layer.clip, layer.scale))
    return (page.width, page.height, page.label, tuple(layers))


def calibration_pages(game: Game, paper: str) -> list[Page]:
    """A duplex test: a cross on the front, scales at its mirrored place on the back."""
    w, h = paper_size(paper)
    m = style.PAGE_MARGIN
    title = f"{game.info.title}: duplex calibration"
    cx, cy = w * 0.3, m + HEADER + 55  # off-centre, so a wrong flip shows up at once
    red = style.RED_FACTOR
    front = [
        S.circle(cx, cy, 6, fill="none", stroke=style.INK, stroke_width=0.2),
        S.line(cx - 30, cy, cx + 30, cy, stroke=red, stroke_width=0.25),
        S.line(cx, cy - 30, cx, cy + 30, stroke=red, stroke_width=0.25),
        S.text(cx, cy - 33, "front cross", 2.6, fill=style.MUTED),
    ]
    # a 100 mm ruler on each axis checks the printer did not scale the page
    front.append(_ruler(m + 5, h - m - FOOTER - 22, 100, horizontal=True))
    front.append(_ruler(w - m - 12, m + HEADER + 10, 100, horizontal=False))
    text = [
        "1. Print this sheet double-sided, flipping on the long edge, at 100 % (no 'fit to page').",
        "2. Check that both rulers measure exactly 100 mm.",
        "3. Hold the sheet against a light: the red cross on this side falls on the scales printed",
        "    on the back. Read how many millimetres it is off, left or right and up or down.",
        "4. More than 1 mm off: set your printer's duplex offset. Less: the 1 mm of colour that",
        "    runs past every counter's cut line hides it.",
    ]
    for i, line in enumerate(text):
        front.append(S.text(m + 5, cy + 45 + i * 5.0, line, 3.0, anchor="start"))
    bx = w - cx  # the mirrored place: where the front cross shows through
    back = []
    for k in range(-10, 11):
        length = 4.5 if k % 5 == 0 else 2.5
        back.append(
            S.line(bx + k, cy - length, bx + k, cy + length, stroke=style.INK, stroke_width=0.15)
        )
        back.append(
            S.line(bx - length, cy + k, bx + length, cy + k, stroke=style.INK, stroke_width=0.15)
        )
        if k % 5 == 0 and k:
            back.append(S.text(bx + k, cy - 6.5, f"{k:+d}", 2.2, fill=style.MUTED))
            back.append(
                S.text(bx - 6.5, cy + k + 0.8, f"{k:+d}", 2.2, anchor="end", fill=style.MUTED)
            )
    back.append(S.line(bx - 10, cy, bx + 10, cy, stroke=style.INK, stroke_width=0.2))
    back.append(S.line(bx, cy - 10, bx, cy + 10, stroke=style.INK, stroke_width=0.2))
    back.append(
        S.text(
            bx, cy + 17, "Read the front cross against these scales (mm).", 2.8, fill=style.MUTED
        )
    )
    back.append(S.text(bx, cy + 21.5, "Right / down of centre: positive.", 2.8, fill=style.MUTED))
    pages = []
    for side, body in (("front", front), ("back", back)):
        furniture = _furniture(w, h, title, f"calibration {side}", "", "".join(body))
        pages.append(Page(w, h, (Layer(furniture),), f"calibration {side}"))
    return pages


def _ruler(x: float, y: float, length: float, horizontal: bool) -> str:
    out = []
    for k in range(int(length) + 1):
        tick = 4 if k % 10 == 0 else (2.5 if k % 5 == 0 else 1.5)
        if horizontal:
            out.append(S.line(x + k, y, x + k, y + tick, stroke=style.INK, stroke_width=0.12))
            if k % 10 == 0:
                out.append(S.text(x + k, y + 7, str(k), 2.2))
        else:
            out.append(S.line(x, y + k, x + tick, y + k, stroke=style.INK, stroke_width=0.12))
            if k % 10 == 0:
                out.append(S.text(x + 5.5, y + k + 0.8, str(k), 2.2, anchor="start"))
    label = "100 mm"
    if horizontal:
        out.append(S.line(x, y, x + length, y, stroke=style.INK, stroke_width=0.2))
        out.append(S.text(x + length / 2, y + 11, label, 2.6, bold=True))
    else:
        out.append(S.line(x, y, x, y + length, stroke=style.INK, stroke_width=0.2))
        out.append(S.text(x - 2, y + length / 2, label, 2.6, bold=True, rotate=-90))
    return "".join(out)


# --- maps ------------------------------------------------------------------------------------
ALONE_MARGIN = 6.5  # mm: a map that fits one sheet only inside a slimmer margin prints so
GLUE = style.TILE_OVERLAP  # the strip of a tile that the next tile covers


@dataclass(frozen=True)
class Tiling:
    """How a map is cut into pages: nx x ny tiles; the piece each tile keeps after trimming is
    an equal share of the map (piece_w x piece_h); each tile prints its piece and, right and
    below it, the glue strip its neighbour is laid over."""

    landscape: bool
    nx: int
    ny: int
    piece_w: float
    piece_h: float
    aw: float  # the printable area of a page
    ah: float

    def window(self, i: int, j: int, map_w: float, map_h: float) -> tuple[float, float, float,
                                                                            float]:
        """(x, y, w, h) of the map a tile prints: its piece from its top-left corner, and the
        glue strips up to the page's printable area (or the map's edge)."""
        x, y = i * self.piece_w, j * self.piece_h
        return x, y, min(self.aw, map_w - x), min(self.ah, map_h - y)


def _count(length: float, avail: float) -> int:
    """How many tiles cover `length` with pages `avail` long, each keeping GLUE for the next."""
    return 1 if length <= avail else math.ceil(length / (avail - GLUE))


def tiling(map_w: float, map_h: float, paper: str) -> Tiling:
    """The fewest pages; between layouts with as many, the larger pieces."""
    m = style.PAGE_MARGIN
    best = None
    for landscape in (False, True):
        w, h = paper_size(paper, landscape)
        aw, ah = w - 2 * m, h - 2 * m - HEADER - FOOTER
        nx, ny = _count(map_w, aw), _count(map_h, ah)
        t = Tiling(landscape, nx, ny, map_w / nx, map_h / ny, aw, ah)
        if best is None or (nx * ny, -min(t.piece_w / aw, t.piece_h / ah)) < (
                best.nx * best.ny, -min(best.piece_w / best.aw, best.piece_h / best.ah)):
            best = t
    return best


def _alone_page(game: Game, svg: str, paper: str, label: str, map_w: float,
                map_h: float) -> Page | None:
    """The map on one page when it fits the page's printable area, or fits it with the page's
    title and footer in a slimmer margin (a sheet 2 mm wider than a page is not cut in two)."""
    m = style.PAGE_MARGIN
    title = f"{game.info.title}: {label}"
    for landscape in (False, True):
        w, h = paper_size(paper, landscape)
        aw, ah = w - 2 * m, h - 2 * m - HEADER - FOOTER
        if map_w <= aw and map_h <= ah:
            x = (w - map_w) / 2
            y = m + HEADER + (ah - map_h) / 2
            furniture = _furniture(w, h, title, f"{paper_name(paper)}, actual size",
                                   "Print at 100 % (actual size).")
            return Page(w, h, (Layer(furniture), Layer(svg, x, y, alone=True)), label)
    for landscape in (False, True):
        w, h = paper_size(paper, landscape)
        a = ALONE_MARGIN
        if map_w <= w - 2 * a and map_h <= h - 2 * a - 4.0:
            x, y = (w - map_w) / 2, a + (h - 2 * a - 4.0 - map_h) / 2
            foot = S.fitted(w / 2, h - a + 1.0, f"{title}. Print at 100 % (actual size), "
                            "borderless or with the smallest margins your printer allows.",
                            w - 2 * a, 2.2, fill=style.MUTED)
            return Page(w, h, (Layer(S.document(w, h, foot)), Layer(svg, x, y, alone=True)),
                        label)
    return None


def map_pages(game: Game, svg: str, paper: str, label: str = "map") -> list[Page]:
    """One map drawing on pages: whole on one sheet when it fits, else an assembly page and
    tiles. Each tile keeps an equal piece of the map and carries, right of and below it, the
    strip its neighbours are glued over; its trim lines, glue lines and match marks lie in the
    page margins or in those strips, never on the piece a player sees once the map is made."""
    map_w, map_h = svg_size_mm(svg)
    alone = _alone_page(game, svg, paper, label, map_w, map_h)
    if alone is not None:
        return [alone]
    t = tiling(map_w, map_h, paper)
    w, h = paper_size(paper, t.landscape)
    m = style.PAGE_MARGIN
    title = f"{game.info.title}: {label}"
    pages = [_assembly_page(game, svg, paper, t, label)]
    px, py = m, m + HEADER  # every tile's window starts at the printable area's corner
    for j in range(t.ny):
        for i in range(t.nx):
            x0, y0, tw, th = t.window(i, j, map_w, map_h)
            name = _tile_name(i, j)
            marks = _tile_marks(t, i, j, px, py, tw, th)
            steps = []
            if i or j:
                steps.append("trim the " + " and ".join(
                    side for side, on in (("left", i > 0), ("top", j > 0)) if on)
                    + " edge along the marks in the margin")
            if i < t.nx - 1 or j < t.ny - 1:
                steps.append("glue the next tiles over the tinted strips")
            foot = (f"Tile {name} of {t.nx}x{t.ny}: " + "; ".join(steps)
                    + ". Print at 100 %.") if steps else "Print at 100 %."
            furniture = _furniture(
                w,
                h,
                f"{title}, tile {name}",
                f"columns A-{chr(64 + t.nx)}, rows 1-{t.ny}",
                foot,
                _mini_plan(w - m - 24, h - m - 3.0, t.nx, t.ny, i, j),
            )
            pages.append(
                Page(
                    w,
                    h,
                    (
                        Layer(furniture),
                        Layer(svg, px - x0, py - y0, clip=(px, py, tw, th), alone=True),
                        Layer(S.document(w, h, marks)),
                    ),
                    f"{label} tile {name}",
                )
            )
    return pages


def _tile_name(i: int, j: int) -> str:
    return f"{chr(65 + i)}{j + 1}"


def _tile_marks(t: Tiling, i: int, j: int, px: float, py: float, tw: float, th: float) -> str:
    """A tile's marks: trim marks in the margin at the left and top edges it is cut along
    (its window starts on the cut); at the right and bottom, the glue strips its neighbours
    cover, tinted and named, with a match mark in the margin where the neighbour's cut edge
    goes."""
    out = []
    tick, gap = 4.0, 0.8
    ink = {"stroke": style.INK, "stroke_width": 0.25}
    if i > 0:  # cut along the left edge: crop marks above and below it
        out.append(S.line(px, py - gap, px, py - gap - tick, **ink))
        out.append(S.line(px, py + th + gap, px, py + th + gap + tick, **ink))
    if j > 0:
        out.append(S.line(px - gap, py, px - gap - tick, py, **ink))
        out.append(S.line(px + tw + gap, py, px + tw + gap + tick, py, **ink))
    glue = {"fill": "#ffffff", "fill_opacity": 0.45}
    red = {"stroke": style.RED_FACTOR, "stroke_width": 0.3}
    if i < t.nx - 1:  # the strip right of the piece: tile i+1 is laid over it
        gx = px + t.piece_w
        out.append(S.rect(gx, py, tw - t.piece_w, th, **glue))
        out.append(S.line(gx, py - gap, gx, py - gap - tick, **red))
        out.append(S.line(gx, py + th + gap, gx, py + th + gap + tick, **red))
        out.append(S.text(gx + (tw - t.piece_w) / 2, py + th / 2,
                          f"glue {_tile_name(i + 1, j)} here", 2.8, bold=True,
                          fill=style.RED_FACTOR, rotate=-90))
    if j < t.ny - 1:  # the strip below the piece: tile j+1 is laid over it
        gy = py + t.piece_h
        out.append(S.rect(px, gy, min(tw, t.piece_w) if i < t.nx - 1 else tw, th - t.piece_h,
                          **glue))
        out.append(S.line(px - gap, gy, px - gap - tick, gy, **red))
        out.append(S.line(px + tw + gap, gy, px + tw + gap + tick, gy, **red))
        out.append(S.text(px + min(tw, t.piece_w) / 2, gy + (th - t.piece_h) / 2 + 1.0,
                          f"glue {_tile_name(i, j + 1)} here", 2.8, bold=True,
                          fill=style.RED_FACTOR))
    return "".join(out)


def paper_name(paper: str) -> str:
    return {
        "letter": "US Letter",
        "a4": "A4",
        "11x17": "11x17 in",
        "a3": "A3",
        "22x34": "22x34 in",
    }[paper]


def _mini_plan(x: float, y: float, nx: int, ny: int, i: int, j: int) -> str:
    """A little grid in the footer showing where this tile goes."""
    cell = 3.0
    out = []
    x0 = x + 24 - nx * cell
    y0 = y - ny * cell
    for jj in range(ny):
        for ii in range(nx):
            out.append(
                S.rect(
                    x0 + ii * cell,
                    y0 + jj * cell,
                    cell,
                    cell,
                    fill=style.INK if (ii, jj) == (i, j) else "none",
                    stroke=style.INK,
                    stroke_width=0.15,
                )
            )
    return "".join(out)


def _assembly_page(game: Game, svg: str, paper: str, t: Tiling, label: str) -> Page:
    """The first map page: the whole map small, each tile's piece outlined, the columns lettered
    above it and the rows numbered beside it (as a chessboard: nothing printed over the map, so
    no name is overprinted and the map's drawing is the tiles' own, drawn once)."""
    w, h = paper_size(paper, t.landscape)
    m = style.PAGE_MARGIN
    map_w, map_h = svg_size_mm(svg)
    gutter = 9.0  # for the column letters above and the row numbers left of the map
    aw, ah = w - 2 * m - 2 * gutter, h - 2 * m - HEADER - FOOTER - 12 - gutter
    k = min(aw / map_w, ah / map_h)
    ox = (w - map_w * k) / 2
    oy = m + HEADER + 10 + gutter
    grid = []
    size = 5.0
    for j in range(t.ny):
        for i in range(t.nx):
            x0, y0, _, _ = t.window(i, j, map_w, map_h)
            pw, ph = min(t.piece_w, map_w - x0), min(t.piece_h, map_h - y0)
            rx, ry = ox + x0 * k, oy + y0 * k
            grid.append(S.rect(rx, ry, pw * k, ph * k, fill="none", stroke=style.RED_FACTOR,
                               stroke_width=0.35))
            if j == 0:
                grid.append(S.text(rx + pw * k / 2, oy - 2.5, chr(65 + i), size, bold=True,
                                   fill=style.RED_FACTOR))
            if i == 0:
                grid.append(S.text(ox - 2.5, ry + ph * k / 2 + size * 0.35, str(j + 1), size,
                                   bold=True, fill=style.RED_FACTOR, anchor="end"))
    intro = (
        f"This {label.split(',')[0]} prints at actual size on {t.nx * t.ny} {paper_name(paper)} pages "
        f"({t.nx} across, {t.ny} down): tile B2 is column B, row 2. Trim each tile's left and "
        "top edges along the marks in its margin and glue it over the tinted strips of the tiles "
        "left of and above it, starting from A1."
    )
    lines = S.wrap(intro, w - 2 * m, 3.0)
    body = "".join(
        S.text(m, m + HEADER + 2 + i * 3.8, ln, 3.0, anchor="start") for i, ln in enumerate(lines)
    )
    furniture = _furniture(
        w, h, f"{game.info.title}: {label}, assembly", "", "Print at 100 % (actual size).", body
    )
    over = S.document(w, h, "".join(grid))
    return Page(
        w, h, (Layer(furniture), Layer(svg, ox, oy, scale=k, alone=True), Layer(over)),
        f"{label} assembly"
    )
