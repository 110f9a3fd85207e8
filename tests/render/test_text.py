"""Text measured with the real font and fitted: what every 'text always fits' rests on."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from builder.render import style
from builder.render import svg as S
from builder.render.convert import svg_to_pdf
from builder.render.counters import formation_short


@pytest.mark.parametrize(
    "text,bold", [("Royal Winnipeg Rifles", False), ("5-4-6", True), ("Town, Hill", True)]
)
def test_measured_width_matches_the_pdf(text, bold):
    doc = S.document(120, 20, S.text(5, 10, text, 3.0, bold=bold, anchor="start"))
    page = pdfplumber.open(io.BytesIO(svg_to_pdf(doc))).pages[0]
    last = page.chars[-1]
    assert (last["x0"] + last["adv"] * last["size"]) * 25.4 / 72 - 5 == pytest.approx(
        style.text_width(text, 3.0, bold), abs=0.05
    )


@pytest.mark.parametrize("text", ["1/1", "Royal Winnipeg Rifles Extraordinary Battalion", "W" * 40])
def test_fit_always_fits(text):
    size, scale = S.fit(text, 12.0, 2.4)
    assert style.text_width(text, size) * scale <= 12.0 + 1e-9
    assert size <= 2.4 and scale <= 1.0


def test_text_is_escaped():
    out = S.text(0, 0, "A & B <C>", 2)
    assert "A &amp; B &lt;C&gt;" in out


@pytest.mark.parametrize(
    "name,short",
    [
        ("2nd Canadian Infantry Division", "2 Cdn"),
        ("15th (Scottish) Infantry Division", "15 Scot"),
        ("49th (West Riding) Division", "49 WR"),
        ("116th Panzer Division", "116 Pz"),
        ("1st Division", "1 Div"),
        ("Kampfgruppe Katzmann", "KG Katzmann"),
    ],
)
def test_formation_names_are_shortened_for_counters(name, short):
    assert formation_short(name) == short
