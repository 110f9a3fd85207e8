"""Markers and backs are drawn, not words (issue 16, item 3): every marker kind has an icon, every
counter face of every sample and fixture carries a picture besides its fill and its text, marker
text is at least 5 pt, a marker drawn from a deck has the same back as every other in the deck."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from PIL import Image

from builder.load import find_game, load_game
from builder.model.counters import MARKER_KINDS
from builder.render import marker_icons
from builder.render.convert import svg_to_png
from builder.render.counters import MIN_TEXT, counter_body, counter_svg
from repo_paths import ROOT

SAMPLES = ["scheldt", "vimy-ridge", "eben-emael", "europa-terrain", "operation-veritable"]
FIXTURES = sorted(
    p.name for p in (ROOT / "tests" / "fixtures").iterdir() if (p / "counters.csv").exists()
)


def _game(name: str):
    folder = ROOT / "tests" / "fixtures" / name if name in FIXTURES else find_game(name)
    return load_game(folder)


def _faces(game):
    for u in game.units:
        yield u.id, "front"
        yield u.id, "back"
    for m in game.markers:
        yield m.id, "front"
        yield m.id, "back"


_TEXT = re.compile(r"<text\b.*?</text>", re.S)


def _picture_share(svg: str) -> float:
    """The share of a face's inner pixels (inside any frame or ring round its edge) that are
    neither its main fill nor text: its drawing."""
    png = svg_to_png(_TEXT.sub("", svg), 8)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    inner = img.crop((int(w * 0.2), int(h * 0.12), int(w * 0.8), int(h * 0.88)))
    px = list(inner.get_flattened_data() if hasattr(inner, "get_flattened_data")
              else inner.getdata())
    fill, _ = Counter(px).most_common(1)[0]
    off = sum(1 for p in px if max(abs(a - b) for a, b in zip(p, fill)) > 40)
    return off / len(px)


def test_every_marker_kind_has_an_icon():
    assert marker_icons.missing_kinds() == []
    for kind in MARKER_KINDS:
        assert "<path" in marker_icons.icon(kind, 6, 6, 4, "#000000", "#ffffff"), kind


@pytest.mark.parametrize("name", [pytest.param(s, marks=pytest.mark.slow) for s in SAMPLES]
                         + FIXTURES)
def test_every_face_has_a_drawing(name):
    """A face that is only a fill and words (the old plain-colour backs, the text-only markers)
    has almost no pixels apart from its fill once its text is taken away."""
    game = _game(name)
    bare = []
    for cid, face in _faces(game):
        share = _picture_share(counter_svg(game, cid, face))
        if share < 0.02:
            bare.append(f"{cid} {face}: {share:.1%}")
    assert not bare, f"{name}: faces with no drawing: {bare}"


@pytest.mark.parametrize("name", SAMPLES + FIXTURES)
def test_marker_and_back_text_is_at_least_5pt(name):
    game = _game(name)
    small = []
    faces = [(m.id, f) for m in game.markers for f in ("front", "back")]
    faces += [(u.id, "back") for u in game.units if not u.two_sided]
    for cid, face in faces:
        body, _, _ = counter_body(game, cid, face)
        for size in re.findall(r'font-size="([\d.]+)"', body):
            if float(size) < MIN_TEXT * 0.999:
                small.append(f"{cid} {face}: {float(size) * 72 / 25.4:.1f} pt")
    assert not small, f"{name}: text under 5 pt: {small}"


@pytest.mark.parametrize("name", SAMPLES)
def test_deck_backs_do_not_tell_the_fronts_apart(name):
    game = _game(name)
    for deck in game.info.decks:
        backs = {counter_body(game, m.id, "back")[0] for m in game.markers if m.deck == deck.id}
        assert len(backs) == 1, f"{name}: deck {deck.id} has {len(backs)} different backs"


def test_one_sided_units_get_a_designed_back():
    """Eben-Emael's and Veritable's units have no back in the rules: the back names the game and
    the side and shows the unit's type, in the side's colour."""
    for name, uid in (("eben-emael", "de-glider-1"), ("operation-veritable", "al-4")):
        game = _game(name)
        unit = game.unit_by_id[uid]
        assert not unit.two_sided
        body, _, _ = counter_body(game, uid, "back")
        words = " ".join(re.findall(r">([^<]+)</text>", body))
        assert game.sides[unit.side].name in words
        assert game.info.title.split()[-1] in words or "".join(
            w[0] for w in game.info.title.split()) in words
