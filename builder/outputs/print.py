"""Print outputs: the map, counter sheets and player-aid cards in <out>/<game>/print/ as vector
PDF ("pdf"), the SVG of every component ("svg") and PNG previews ("png")."""

from __future__ import annotations

import contextlib
from functools import cached_property
from pathlib import Path

from builder.atomic import write_bytes, write_text
from builder.model.game_model import Game
from builder.model.maps import AreaMap, HexMap
from builder.views import player_view

PREVIEW_PX_PER_MM = 4.0  # about 100 dpi: enough to judge a page on screen
WHOLE_MAP_PREVIEW_HEXES = 10_000  # above this a multi-sheet map gets per-sheet previews only
PAPERS = ("letter", "a4")
MAP_SHEETS = ("tiled", "11x17", "a3", "22x34")


class PrintSet:
    """Everything printable of one game, drawn once and shared by the three formats, each part
    only when asked for: a build whose map files are current never draws the map."""

    def __init__(self, game: Game, paper: str, sheet: str):
        self.game, self.paper, self.sheet = game, paper, sheet

    @cached_property
    def _map(self) -> tuple[dict[str, str], list]:
        from builder.render import map_layout, style
        from builder.render import svg as S
        from builder.render.map_panel import draw_panel, panel_height
        from builder.render.pages import map_pages

        game, paper, sheet = self.game, self.paper, self.sheet
        slug = game.slug
        pages = []
        layout = map_layout(game)
        # adjoining sheets print joined, as the module's board joins them; others one by one
        sheet_ids = list(layout.print_ids) if not isinstance(game.map, AreaMap) else []
        if sheet_ids:
            # the whole drawing of a multi-sheet map (34,000 hexes on a campaign map) is made
            # only for the formats that show it: see maps and sheet_maps
            drawn = _map_svgs(game, sheet_ids)  # cached, and on several cores
            maps = {}
        else:
            maps = {f"{slug}-map": _map_svgs(game, [None])[0]}
        if not isinstance(game.map, AreaMap) and layout.sheet_ids:
            # a multi-sheet map prints sheet by sheet, then its key and tracks on their own pages
            for sid, svg in zip(sheet_ids, drawn):
                maps[f"{slug}-map-{sid.replace('+', '-')}"] = svg
                label = layout.sheet_layout(sid).sheet_label
                pages.extend(map_pages(game, svg, sheet, f"map, {label[0].lower()}{label[1:]}"))
            width = style.PAPER[paper][0] - 2 * style.PAGE_MARGIN - 4
            in_a_corner = any(layout.sheet_layout(s).panel for s in sheet_ids)
            ph = 0.0 if in_a_corner else panel_height(game, width)
            if ph:
                from builder.render.layout import Box

                key_svg = S.document(width + 4, ph + 4, draw_panel(game, Box(2, 2, width, ph)),
                                     background=style.MARGIN_FILL)
                maps[f"{slug}-map-key"] = key_svg
                pages.extend(map_pages(game, key_svg, paper, "map key and tracks"))
        else:
            pages.extend(map_pages(game, maps[f"{slug}-map"], sheet, "map"))
        return maps, pages

    @property
    def sheet_maps(self) -> dict[str, str]:
        """File stem -> map SVG, without the whole drawing of a multi-sheet map."""
        return self._map[0]

    @cached_property
    def maps(self) -> dict[str, str]:
        """File stem -> map SVG (whole map first; each sheet of a multi-sheet map)."""
        stem = f"{self.game.slug}-map"
        if stem in self._map[0]:
            return self._map[0]
        return {stem: _map_svgs(self.game, [None])[0], **self._map[0]}

    @property
    def map_pages(self) -> list:
        return self._map[1]

    @cached_property
    def counter_plan(self) -> list:
        """The counter sheets' pages, each known by its key (render.pages.PlannedPage)."""
        from builder.render.pages import counter_page_plan

        return counter_page_plan(self.game, self.paper)

    @cached_property
    def aid_pages(self) -> list:
        from builder.render.aids import aid_pages

        return aid_pages(self.game, self.paper)

    @cached_property
    def aid_plan(self) -> list:
        """The aid pages as planned pages, keyed by what they show (laid out already: the
        layout itself comes from the cache while the cards are unchanged)."""
        from builder.render.pages import PlannedPage

        digests: dict[int, str] = {}
        return [PlannedPage.of(p, digests) for p in self.aid_pages]

    def plan(self, part: str) -> list:
        return self.counter_plan if part == "counters" else self.aid_plan

    def depends(self, part: str) -> str:
        """The dependency key (builder.incremental) of the files of one part: the map's names
        the model slices its drawings read; the counter sheets' and aids' are their pages' keys
        (what the pages show), so a counter whose factors change leaves the aids as they are."""
        from builder import incremental as inc

        if part == "map":
            return inc.depends_on(self.game, inc.MAP_SLICES, part, self.paper, self.sheet)
        return inc.depends_on(self.game, (), part, [p.key for p in self.plan(part)])


_CACHE: dict[tuple, tuple[Game, PrintSet]] = {}
_OPTIONS: dict[str, str | None] = {"paper": None, "map_sheet": None}


@contextlib.contextmanager
def print_options(paper: str | None = None, map_sheet: str | None = None):
    """Paper and map sheet for the print builders called inside (the build command's options)."""
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"paper '{paper}': choose {', '.join(PAPERS)}")
    if map_sheet is not None and map_sheet not in MAP_SHEETS:
        raise ValueError(f"map sheet '{map_sheet}': choose {', '.join(MAP_SHEETS)}")
    saved = dict(_OPTIONS)
    _OPTIONS.update(paper=paper, map_sheet=map_sheet)
    try:
        yield
    finally:
        _OPTIONS.update(saved)


def print_options_tag(paper: str | None, map_sheet: str | None) -> str:
    """A suffix for the sources digest, so a build with other print options is not skipped."""
    parts = [f"paper={paper}" if paper else "", f"map-sheet={map_sheet}" if map_sheet else ""]
    return "".join(f"+{p}" for p in parts if p)


def print_set(game: Game, paper: str | None = None, map_sheet: str | None = None) -> PrintSet:
    """The game's printed components (kept per game and options for this process)."""
    paper = paper or _OPTIONS["paper"] or game.info.paper
    map_sheet = map_sheet or _OPTIONS["map_sheet"]
    sheet = map_sheet if map_sheet and map_sheet != "tiled" else paper
    key = (id(game), paper, sheet)
    hit = _CACHE.get(key)
    if hit and hit[0] is game:
        return hit[1]
    result = PrintSet(game, paper, sheet)
    _CACHE.clear()  # keep one game's drawings at a time
    _CACHE[key] = (game, result)
    return result


def _map_svg_bytes(game: Game, sheet: str | None) -> bytes:
    from builder.render import map_svg

    return map_svg(game, sheet).encode("utf-8")


def _map_svgs(game: Game, sheets: list) -> list[str]:
    """The map (None) and its sheets as SVG: from the cache, else drawn on the cores."""
    from builder import keys, parallel

    data = parallel.cached_map(_map_svg_bytes, sheets, lambda s: keys.map_parts(game, s), game,
                               desc="map sheets")
    return [d.decode("utf-8") for d in data]


@contextlib.contextmanager
def previews_with_pdf(on: bool = True):
    """While the PDF pages are drawn, their PNG previews are made in the same workers and put
    in the cache, where build_png then finds them (the print group builds pdf, then png).
    A sheet's or a counter sheet's drawing is then recorded once, not once per format."""
    from builder import pdfpages

    if not on:
        yield
        return
    before = pdfpages.PREVIEWS
    pdfpages.PREVIEWS = _previews_ahead
    try:
        yield
    finally:
        pdfpages.PREVIEWS = before


def _previews_ahead(group: list) -> None:
    """The pdfpages.PREVIEWS hook: the previews of a group's pages just drawn, each under the
    key build_png looks for, unless the cache holds it already. A page showing a map gets none:
    the map's preview is its drawing whole (build_png's map files), so a sheet tiled over nine
    pages gives one preview, and none of its pages one."""
    from builder import cache
    from builder.render.convert import Layer, Page, page_to_png, svg_size_mm
    from builder.render.pages import page_key

    store = cache.active()
    if store is None:
        return
    pages, seen = [], set()
    for page in group:
        alone = [layer.svg for layer in page.layers if layer.alone]
        if not alone:
            pages.append(page)
        pages += [Page(*svg_size_mm(svg), (Layer(svg),)) for svg in alone if id(svg) not in seen]
        seen.update(id(svg) for svg in alone)
    digests: dict[int, str] = {}
    for page in pages:
        scale = _preview_scale(page)
        k = cache.key(("preview-png", page_key(page, digests), scale))
        if not store.holds(k):
            store.put(k, page_to_png(page, scale))


def _preview_scale(page) -> float:
    from builder.render.convert import capped_px_per_mm

    return capped_px_per_mm(page.width, page.height, PREVIEW_PX_PER_MM)


def _png(pages: list, i: int) -> bytes:
    from builder.render.convert import page_to_png

    return page_to_png(pages[i], _preview_scale(pages[i]))


def _pngs(pages: list) -> list[bytes]:
    """PNG previews of pages: from the cache (keyed by their SVG text), else drawn on the
    cores. Planned pages (render.pages.PlannedPage) are found by their keys uncomposed."""
    from builder import parallel
    from builder.render.pages import PlannedPage, page_key, planned_cached

    if pages and all(isinstance(p, PlannedPage) for p in pages):
        return planned_cached(pages, lambda p: ("preview-png", p.key, _preview_scale(p)), _pngs)
    digests: dict[int, str] = {}
    return parallel.cached_map(
        _png, range(len(pages)),
        lambda i: ("preview-png", page_key(pages[i], digests), _preview_scale(pages[i])), pages,
        desc="PNG previews")


def _out(out_dir: Path) -> Path:
    return out_dir / "print"


def _prune(folder: Path, slug: str, ext: str, keep: list[Path]) -> None:
    """Remove this game's files of one format left over from an earlier, larger build."""
    if not folder.is_dir():
        return
    kept = {p.name for p in keep}
    for p in folder.glob(f"{slug}-*.{ext}"):
        if p.name not in kept:
            p.unlink()


def _counter_files(ps: PrintSet, slug: str) -> list[tuple[str, object]]:
    """(file stem, planned page) for each counter page."""
    return [(f"{slug}-" + p.label.replace("counters sheet ", "counters-").replace(" ", "-"), p)
            for p in ps.counter_plan]


def _aid_files(ps: PrintSet, slug: str) -> list[tuple[str, object]]:
    """(file stem, planned page) for each aid page."""
    return [(f"{slug}-aids-{p.label.split()[-1]}", p) for p in ps.aid_plan]


PAGE_FILES = {"counters": _counter_files, "aids": _aid_files}


def build_svg(
    game: Game, out_dir: Path, paper: str | None = None, map_sheet: str | None = None
) -> list[Path]:
    """The SVG of every component: the map (and its sheets), each counter sheet and aid page."""
    from builder.incremental import build_files, build_group
    from builder.render.pages import compose, page_svg

    game = player_view(game)
    ps = print_set(game, paper, map_sheet)
    folder = _out(out_dir)
    written = build_group(folder, "svg-map", ps.depends("map"), lambda: [
        write_text(folder / f"{stem}.svg", svg) for stem, svg in ps.maps.items()])
    for part, files in PAGE_FILES.items():
        pages = files(ps, game.slug)
        written += build_files(
            folder, f"svg-{part}", [(f"{stem}.svg", page.key) for stem, page in pages],
            lambda todo, pages=pages: [page_svg(page).encode("utf-8")
                                       for page in compose([pages[i][1] for i in todo])])
    _prune(folder, game.slug, "svg", written)
    return written


def build_pdf(
    game: Game, out_dir: Path, paper: str | None = None, map_sheet: str | None = None
) -> list[Path]:
    """<game>-map.pdf, <game>-counters.pdf and <game>-aids.pdf: vector, fonts embedded."""
    from builder.incremental import build_group, depends_on
    from builder.pdfpages import pdf_document  # convert's, by page groups: cached, on the cores

    game = player_view(game)
    ps = print_set(game, paper, map_sheet)
    folder = _out(out_dir)
    title = game.info.title
    author = ", ".join(game.info.people)
    written = []
    for name in ("map", "counters", "aids"):
        def make(name=name) -> list[Path]:
            pages = ps.map_pages if name == "map" else ps.plan(name)
            data = pdf_document(pages, title=f"{title}: {name}", author=author)
            return [write_bytes(folder / f"{game.slug}-{name}.pdf", data)]

        # the document's title and author too (a page's key names only what the page shows)
        dep = depends_on(game, (), "pdf", ps.depends(name), f"{title}: {name}", author)
        written += build_group(folder, f"pdf-{name}", dep, make)
    _prune(folder, game.slug, "pdf", written)
    return written


def build_png(
    game: Game, out_dir: Path, paper: str | None = None, map_sheet: str | None = None
) -> list[Path]:
    """PNG previews: the map (and its sheets) and every counter and aid page."""
    from builder.incremental import build_files, build_group
    from builder.render.convert import Layer, Page, svg_size_mm

    game = player_view(game)
    ps = print_set(game, paper, map_sheet)
    folder = _out(out_dir)

    def map_items() -> list[tuple[str, object]]:
        if len(ps.sheet_maps) > 1 and game.grid.hex_count > WHOLE_MAP_PREVIEW_HEXES:
            # a campaign map is previewed sheet by sheet: one raster of it all is beyond cairo
            maps = dict(ps.sheet_maps)
        else:
            maps = dict(ps.maps)
        return [(stem, Page(*svg_size_mm(svg), (Layer(svg),))) for stem, svg in maps.items()]

    def make(items) -> list[Path]:
        items = items()
        pngs = _pngs([page for _, page in items])  # cached, and on several cores
        return [write_bytes(folder / f"{stem}.png", png) for (stem, _), png in zip(items, pngs)]

    written = build_group(folder, "png-map", ps.depends("map"), lambda: make(map_items))
    for part, files in PAGE_FILES.items():
        pages = files(ps, game.slug)
        written += build_files(
            folder, f"png-{part}", [(f"{stem}.png", page.key) for stem, page in pages],
            lambda todo, pages=pages: _pngs([pages[i][1] for i in todo]))
    _prune(folder, game.slug, "png", written)
    return written


def map_sheet_problem(game: Game, map_sheet: str) -> str:
    """Why the map does not fit the large sheet chosen with --map-sheet ('' when it fits), with
    the map's size, the sheet's printable area and the smallest sheet that does fit."""
    from builder.render import map_layout, style
    from builder.render.pages import FOOTER, HEADER, LARGE_SHEETS, paper_name

    if map_sheet not in LARGE_SHEETS:
        return ""
    layout = map_layout(game)
    parts = ([layout.sheet_layout(s) for s in layout.print_ids]
             if not isinstance(game.map, AreaMap) and layout.sheet_ids else [layout])
    need_w = max(p.width_mm for p in parts)
    need_h = max(p.height_mm for p in parts)

    def area(sheet: str) -> tuple[float, float]:
        w, h = style.PAPER[sheet]
        return w - 2 * style.PAGE_MARGIN, h - 2 * style.PAGE_MARGIN - HEADER - FOOTER

    def fits(sheet: str) -> bool:
        aw, ah = area(sheet)
        return all((p.width_mm <= aw and p.height_mm <= ah) or (p.width_mm <= ah and p.height_mm <= aw)
                   for p in parts)

    if fits(map_sheet):
        return ""
    legend = getattr(game.map, "legend", "bottom")
    if legend != "right" and not (isinstance(game.map, HexMap) and game.map.sheets):
        beside = game.model_copy(update={"map": game.map.model_copy(update={"legend": "right"})})
        if not map_sheet_problem(beside, map_sheet):
            return (f"the map is {need_w:.0f} x {need_h:.0f} mm with its key and tracks under it, "
                    f"larger than the printable area of the {paper_name(map_sheet)} sheet: set "
                    "legend = \"right\" in map.toml (the key beside the map fits), or leave out "
                    "--map-sheet to tile it over the paper")
    aw, ah = area(map_sheet)
    by_size = sorted(LARGE_SHEETS, key=lambda s: style.PAPER[s][0] * style.PAPER[s][1])
    nearest = next((s for s in by_size if fits(s)), None)
    what = "the largest map sheet" if len(parts) > 1 else "the map"
    fix = (f"use --map-sheet {nearest} ({paper_name(nearest)}, the smallest that fits)" if nearest
           else "no large sheet holds it whole")
    return (f"{what} is {need_w:.0f} x {need_h:.0f} mm (with its key and tracks), larger than the "
            f"printable {aw:.0f} x {ah:.0f} mm of the {paper_name(map_sheet)} sheet (either way "
            f"round): {fix}, or leave out --map-sheet to tile it over the paper")
