"""Shared fixtures: print files built once per test session from the render fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.load import load_game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PT = 25.4 / 72  # mm per PDF point


@pytest.fixture(scope="session")
def games():
    """The games the print tests draw: the mini game and the render fixtures (hex sheets, area)."""
    return {name: load_game(FIXTURES / name) for name in ("mini", "render-sheets", "render-area")}


@pytest.fixture(scope="session")
def built(games, tmp_path_factory):
    """{game: {name: pdf path}} for each test game, built through the print builder."""
    from builder.outputs.print import build_pdf

    out = {}
    for name, game in games.items():
        folder = tmp_path_factory.mktemp(name)
        paths = build_pdf(game, folder)
        out[name] = {p.stem.split("-")[-1]: p for p in paths}
    return out


SAMPLES = ("scheldt", "vimy-ridge", "eben-emael", "europa-terrain", "operation-veritable")


@pytest.fixture(scope="session")
def sample_pdfs(sample_outputs):
    """{sample: {"map" | "counters" | "aids": pdf path}}: the five samples' print files, from
    the run's one build of every sample (tests/conftest.py; slow)."""
    return {name: {kind: sample_outputs / name / "print" / f"{name}-{kind}.pdf"
                   for kind in ("map", "counters", "aids")} for name in SAMPLES}
