"""Player-aid cards read back from the PDF: every table, every cell, the terrain chart, set-up."""

from __future__ import annotations

import pdfplumber
import pytest


def _text(path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(p.extract_text(x_tolerance=1) or "" for p in pdf.pages)


def _squash(s: str) -> str:
    return "".join(s.split())


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_every_table_and_its_results_are_printed(built, games, name):
    g = games[name]
    text = _text(built[name]["aids"])
    flat = _squash(text)
    for t in g.tables:
        assert _squash(t.name) in flat, t.id
        results = getattr(t, "results", {})
        rows = results.values() if isinstance(results, dict) else []
        for row in rows:
            for cell in row if isinstance(row, tuple) else (row,):
                assert _squash(cell) in flat, (t.id, cell)


@pytest.mark.parametrize("name", ["mini", "render-sheets", "render-area"])
def test_terrain_turns_and_setup_are_printed(built, games, name):
    g = games[name]
    flat = _squash(_text(built[name]["aids"]))
    assert "TerrainEffectsChart" in flat and "TurnRecord" in flat
    for tt in g.map.terrain_types:
        assert _squash(tt.name) in flat, tt.id
    for sc in g.scenarios:
        assert _squash(f"Set-up: {sc.name}") in flat
        for p in sc.setup:
            printed = (
                g.unit_by_id[p.unit].unit if p.unit in g.unit_by_id else g.marker_by_id[p.unit].name
            )
            assert _squash(printed) in flat, p.unit
    for n in range(g.info.turns.first, g.info.turns.first + g.info.turns.count):
        assert str(n) in flat
