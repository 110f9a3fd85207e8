"""The designer's proof: <out>/<game>/<game>-proof.pdf (`builder build GAME --proof`).

What the player files leave out (builder.views), listed where a designer can check it against
the rule documents: every item's provenance (assumed fields, source, note), the other readings
of ambiguous tables and the rules' editor's notes; then the aid cards drawn from the whole
model. It is written beside the print/ folder, never into it, so nobody prints it by mistake.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from builder.atomic import write_bytes
from builder.model.base import Sourced
from builder.model.game_model import Game
from builder.model.tables import TableBase
from builder.views import editor_notes

AREAS = {"info": "Game", "map": "Map", "units": "Units", "markers": "Markers",
         "tables": "Tables", "scenarios": "Scenarios"}


def _label(item, path: str) -> str:
    name = (getattr(item, "id", "") or getattr(item, "name", "") or getattr(item, "unit", "")
            or getattr(item, "label", ""))
    return f"{path} {name}".strip() if name else path


def provenance(game: Game) -> dict[str, list[str]]:
    """Area -> one line per item that is assumed, carries a note, or has other readings."""
    out: dict[str, list[str]] = {a: [] for a in AREAS.values()}

    def walk(obj, path: str, area: str) -> None:
        if isinstance(obj, (list, tuple)):
            for item in obj:
                walk(item, path, area)
            return
        if not isinstance(obj, BaseModel):
            return
        if isinstance(obj, Sourced):
            fields = obj.assumed_fields()
            parts = []
            if fields:
                parts.append("ASSUMED" + ("" if fields == ("*",) else f" ({', '.join(fields)})"))
            if obj.source and (fields or obj.note):
                parts.append(f"source {obj.source}")
            if obj.note:
                parts.append(obj.note)
            if parts:
                out[area].append(f"• {_label(obj, path)}: " + "; ".join(parts))
        if isinstance(obj, TableBase):
            for r in obj.readings:
                sets = ", ".join(f"{k} = {v}" for k, v in r.set.items())
                out[area].append(f"• {_label(obj, path)}: reading '{r.id}' ({r.label}) sets {sets}"
                                 + (f"; {r.note}" if r.note else ""))
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            if isinstance(value, (list, tuple, BaseModel)):
                walk(value, f"{path}.{name}" if path else name, area)

    for key, area in AREAS.items():
        walk(getattr(game, key), {"info": "game"}.get(key, key), area)
    return out


def proof_cards(game: Game) -> list:
    """Provenance cards (one per area, then the editor's notes), then the whole model's aids."""
    from builder.render.aids import Card, Para, all_cards

    cards = []
    for area, lines in provenance(game).items():
        if lines:
            cards.append(Card(f"Provenance: {area}", [Para([(x, False) for x in lines])],
                              f"{len(lines)} items"))
    if game.rules:
        notes = [f"• {s.id} {s.title}: {n}" for s in game.rules.sections for n in editor_notes(s.text)]
        if notes:
            cards.append(Card("Editor's notes in the rules", [Para([(x, False) for x in notes])],
                              f"{len(notes)} notes"))
    return cards + all_cards(game)


def build(game: Game, out_dir: Path) -> list[Path]:
    """Write out_dir/<slug>-proof.pdf from the whole model (the designer's view)."""
    from builder.outputs.print import _OPTIONS
    from builder.pdfpages import pdf_document
    from builder.render.aids import aid_pages

    pages = aid_pages(game, _OPTIONS["paper"] or game.info.paper, proof_cards(game),
                      heading="designer's proof (not for players)")
    author = ", ".join(game.info.people)
    data = pdf_document(pages, title=f"{game.info.title}: designer's proof", author=author)
    return [write_bytes(out_dir / f"{game.slug}-proof.pdf", data)]
