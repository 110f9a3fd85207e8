"""Cache keys name what a drawing depends on: edits elsewhere leave the drawing and key alone."""

from __future__ import annotations

from builder import keys
from builder.cache import key
from builder.load import load_game
from builder.render import counter_svg, map_svg


def _edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{path.name} no longer holds {old!r}: update this test"
    path.write_text(text.replace(old, new))


def _edit_all_but_the_map(mini):
    _edit(mini / "counters.csv", "6-3-8,3-1-8", "7-3-8,3-1-8")
    _edit(mini / "markers.csv", "Support +2", "Support plus two")
    _edit(mini / "tables.toml", 'result = "Rain"', 'result = "Storm"')
    _edit(mini / "rules.md", "A tiny game.", "A very small game.")


def test_the_map_does_not_depend_on_counters_tables_or_rules(mini):
    before = load_game(mini)
    _edit_all_but_the_map(mini)
    after = load_game(mini)
    assert map_svg(after) == map_svg(before)
    assert key(keys.map_parts(after)) == key(keys.map_parts(before))


def test_the_map_key_changes_with_the_map(mini):
    before = load_game(mini)
    _edit(mini / "map.toml", 'text = "Townsville"', 'text = "Villeville"')
    after = load_game(mini)
    assert map_svg(after) != map_svg(before)
    assert key(keys.map_parts(after)) != key(keys.map_parts(before))
    assert key(keys.map_parts(after, "A")) != key(keys.map_parts(after))


def test_a_counter_depends_on_its_row_and_game_toml_only(mini):
    before = load_game(mini)
    _edit(mini / "counters.csv", "6-3-8,3-1-8", "7-3-8,3-1-8")  # b-2, not b-1
    _edit(mini / "map.toml", 'text = "Townsville"', 'text = "Villeville"')
    _edit(mini / "tables.toml", 'result = "Rain"', 'result = "Storm"')
    after = load_game(mini)
    for face in ("front", "back"):
        assert counter_svg(after, "b-1", face) == counter_svg(before, "b-1", face)
        same = [keys.counter_parts(g, g.unit_by_id["b-1"], face) for g in (before, after)]
        assert key(same[0]) == key(same[1])
        changed = [keys.counter_parts(g, g.unit_by_id["b-2"], face) for g in (before, after)]
        assert key(changed[0]) != key(changed[1])
    assert counter_svg(after, "b-2") != counter_svg(before, "b-2")
    _edit(mini / "game.toml", 'color = "#6b8fc5"', 'color = "#3b5f95"')  # b-1's formation colour
    recoloured = load_game(mini)
    assert counter_svg(recoloured, "b-1") != counter_svg(after, "b-1")
    assert key(keys.counter_parts(recoloured, recoloured.unit_by_id["b-1"], "front")) != key(
        keys.counter_parts(after, after.unit_by_id["b-1"], "front"))


def test_the_modules_combat_calculators_do_not_depend_on_counters(mini):
    # vassal.module.combat_components keeps them under COMBAT_SLICES: no counter row
    from builder import vassal_combat
    from builder.vassal import module
    from builder.vassal.geometry import BoardGeometry
    from builder.vassal.piece_ids import derived

    def made(game):
        entries = {}
        comps = vassal_combat.components_for(game, BoardGeometry(game),
                                             lambda key, what: str(derived(key)), entries)
        return [module.c.build_file(comp) for comp in comps], entries

    before = load_game(mini)
    _edit(mini / "counters.csv", "6-3-8,3-1-8", "7-3-8,3-1-8")
    _edit(mini / "markers.csv", "Support +2", "Support plus two")
    after = load_game(mini)
    assert made(before)[0], "the fixture game should have combat calculators"
    assert made(after) == made(before)
    assert "units" not in module.COMBAT_SLICES and "markers" not in module.COMBAT_SLICES
