"""map.toml 'legend' (issue 15): the key and tracks under the map, beside it, or wherever the
sheet comes out smaller."""

from __future__ import annotations

from builder.load import load_game
from builder.new_game import create_game
from builder.render.map_layout import map_layout


def _game(tmp_path, legend: str | None):
    folder = tmp_path / (legend or "default")
    create_game(folder)
    if legend:
        path = folder / "map.toml"
        path.write_text(path.read_text().replace('default_terrain = "clear"',
                                                 f'default_terrain = "clear"\nlegend = "{legend}"'))
    return load_game(folder)


def test_legend_under_beside_or_auto(tmp_path):
    under = map_layout(_game(tmp_path, None))
    assert under.panel.y > under.frame.y + under.frame.h and under.panel.x == under.frame.x
    beside = map_layout(_game(tmp_path, "right"))
    assert beside.panel.x > beside.frame.x + beside.frame.w and beside.panel.y == beside.frame.y
    assert beside.width_mm > under.width_mm and beside.height_mm < under.height_mm
    auto = map_layout(_game(tmp_path, "auto"))
    smaller = min((under, beside), key=lambda lay: lay.width_mm * lay.height_mm)
    assert (auto.width_mm, auto.height_mm) == (smaller.width_mm, smaller.height_mm)


def test_unknown_legend_place_is_refused(tmp_path, run_cli):
    folder = tmp_path / "g"
    create_game(folder)
    path = folder / "map.toml"
    path.write_text(path.read_text().replace('default_terrain = "clear"',
                                             'default_terrain = "clear"\nlegend = "left"'))
    result = run_cli("check", folder)
    assert result.exit_code == 2 and "key legend" in result.stderr and "'bottom'" in result.stderr
