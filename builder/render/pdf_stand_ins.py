"""Swap the stand-ins of a cairo PDF for the drawings they stand for (see convert._stand_ins).

convert.pdf_document paints a drawing shown on several pages (a tiled map sheet) through a small
stand-in recording marked by a colour of its own, and the drawing itself once, on an extra page
at the end. Here every reference to a stand-in's PDF form is pointed at the drawing's form and
the extra pages are dropped, with pikepdf (qpdf): the pages come out as cairo would have written
them with the drawing painted on each, which cairo replays in full for every page it is on.
"""

from __future__ import annotations

import io


def mark_bytes(colour: tuple[float, float, float]) -> bytes:
    """The fill-colour operator cairo writes for a stand-in's mark."""
    return (" ".join(f"{v:.4f}".rstrip("0").rstrip(".") for v in colour) + " rg").encode()


def put_in_place(data: bytes, pages: int, marks: list[tuple[float, float, float]]) -> bytes | None:
    """The PDF of the first `pages` pages with every stand-in replaced by its drawing (drawing i
    is alone on page pages + i, stand-in i holds marks[i]); None when a stand-in would remain."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    reals = []
    for extra in pdf.pages[pages:]:
        forms = list(extra.Resources.get("/XObject", {}).values())
        if len(forms) != 1:
            return None
        reals.append(forms[0])
    if len(reals) != len(marks):
        return None
    swap = _Swap([mark_bytes(m) for m in marks], reals)
    for page in pdf.pages[:pages]:
        swap.resources(page.obj)
    del pdf.pages[pages:]
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, compress_streams=True)
    result = out.getvalue()
    return result if swap.found and not _marked(result, swap.marks) else None


class _Swap:
    """The walk through pages' resources, forms and patterns, replacing stand-in forms."""

    def __init__(self, marks: list[bytes], reals: list) -> None:
        self.marks, self.reals = marks, reals
        self.real_ids = {r.objgen for r in reals}
        self.stand_in_of: dict[tuple, int | None] = {}  # object id -> stand-in index or None
        self.walked: set[tuple] = set()  # forms and patterns whose resources were walked
        self.found = 0

    def _which(self, obj) -> int | None:
        """The stand-in index of a form, or None for any other form."""
        key = obj.objgen
        if key not in self.stand_in_of:
            which = None
            if obj.get("/Subtype") == "/Form" and int(obj.get("/Length", 0)) < 512:
                content = obj.read_bytes()
                which = next((i for i, m in enumerate(self.marks) if m in content), None)
            self.stand_in_of[key] = which
        return self.stand_in_of[key]

    def resources(self, owner) -> None:
        """Replace the stand-ins among owner's XObjects and walk into its other forms and
        patterns (each once)."""
        import pikepdf

        res = owner.get("/Resources")
        if res is None:
            return
        xobjects = res.get("/XObject")
        for name in list(xobjects.keys()) if xobjects is not None else ():
            obj = xobjects[name]
            if not isinstance(obj, pikepdf.Stream) or obj.objgen in self.real_ids:
                continue
            which = self._which(obj)
            if which is not None:
                real = self.reals[which]
                xobjects[name] = real
                self.found += 1
                # cairo marks a form holding a transparency group as a group itself: the real
                # drawing would have made its painter one
                if "/Group" in real and "/Group" not in owner:
                    owner.Group = pikepdf.Dictionary(real.Group)
            elif self._first_visit(obj):
                self.resources(obj)
        patterns = res.get("/Pattern")
        for name in list(patterns.keys()) if patterns is not None else ():
            obj = patterns[name]
            if isinstance(obj, pikepdf.Stream) and self._first_visit(obj):
                self.resources(obj)

    def _first_visit(self, obj) -> bool:
        if obj.objgen in self.walked:
            return False
        self.walked.add(obj.objgen)
        return True


def _marked(data: bytes, marks: list[bytes]) -> bool:
    """Whether any small form left in the written PDF still holds a stand-in's mark."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if (isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form"
                    and int(obj.get("/Length", 0)) < 512):
                content = obj.read_bytes()
                if any(m in content for m in marks):
                    return True
    return False
