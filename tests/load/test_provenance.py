"""Provenance everywhere (issue 15): `--assumed` names every item; turn-record details and rules
sections can be marked assumed without the mark showing to players."""

from __future__ import annotations

import re

from repo_paths import ROOT

from builder.load import find_game, load_game
from builder.summary import assumed_items


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_every_assumed_item_of_the_samples_is_named():
    """No more 'map.terrain: *' or 'scenarios.allowances: *': each line says which item."""
    for game in ("scheldt", "vimy-ridge", "eben-emael", "europa-terrain", "operation-veritable"):
        items = assumed_items(load_game(find_game(game, ROOT / "sources")))
        assert items
        for where, _ in items:  # a list's item has a label; a single object is named by its path
            assert re.search(r"\S\s\S", where) or where in ("map", "info", "info.turns", "info.scale"), \
                f"{game}: '{where}' names no item"
        wheres = [w for w, _ in items]
        dupes = {w for w in wheres if wheres.count(w) > 1}
        assert not dupes, f"{game}: several items read {sorted(dupes)[:3]}"


def test_terrain_block_named_by_index_and_hexes():
    g = load_game(find_game("scheldt", ROOT / "sources"))
    wheres = [w for w, _ in assumed_items(g)]
    assert "map.terrain[5] city: 3320, 3321" in wheres


def test_rules_section_marked_by_a_heading_attribute(mini, run_cli):
    _edit(mini / "rules.md", "### 1.1 Scale", '### 1.1 Scale {assumed note="not in the rules"}')
    result = run_cli("check", mini, "--assumed")
    assert result.exit_code == 0, result.stderr
    assert "assumed: rules.sections 1.1: Scale: *" in result.output
    g = load_game(mini)
    s = next(s for s in g.rules.sections if s.id == "1.1")
    assert (s.title, s.note, s.assumed) == ("Scale", "not in the rules", True)
    shown = run_cli("rules", mini)
    assert "1.1 Scale" in shown.output and "{" not in shown.output and "assumed" not in shown.output


def test_unknown_heading_attribute_is_refused(mini, run_cli):
    _edit(mini / "rules.md", "### 1.1 Scale", "### 1.1 Scale {asumed}")
    result = run_cli("check", mini)
    assert result.exit_code == 2
    assert "rules.md: line 7: unknown heading attribute 'asumed' (fix: use one of: assumed, source, note)" \
        in result.stderr


def test_turn_record_detail_marked_assumed(mini, run_cli):
    _edit(mini / "game.toml", 'name = "Night"', 'name = "Night"\nassumed = ["name"]\nsource = "5.1"')
    result = run_cli("check", mini, "--assumed")
    assert result.exit_code == 0, result.stderr
    assert "assumed: info.turns.detail turn 2: name" in result.output
