"""Nothing left out silently (issue 38 item 2): every table of a kind the module resolves is in
the Combat palette; a rule the module cannot apply is reported by `builder check` (file, line,
table, rule; an error under --strict) and `builder build`, and the marker tells the player."""

from __future__ import annotations

import pytest
from repo_paths import ROOT

from builder.load import find_game, load_game
from builder.vassal_combat import KINDS, by_hand, calculators

GAMES = sorted(str(p) for p in (ROOT / "sources").iterdir() if (p / "game.toml").is_file()) + \
    sorted(str(p) for p in (ROOT / "tests" / "fixtures").iterdir() if (p / "tables.toml").is_file())


@pytest.mark.parametrize("folder", GAMES, ids=lambda f: f.split("/")[-1])
def test_every_resolved_table_is_in_the_palette(folder):
    game = load_game(find_game(folder))
    wanted = [t.id for t in game.tables
              if t.kind in KINDS and (t.kind != "lookup" or getattr(t, "dice", ""))]
    assert [c.table_id for c in calculators(game)] == wanted


def test_a_rule_left_to_the_player_is_reported_and_said(run_cli, tmp_path):
    folder = ROOT / "tests" / "fixtures" / "eastern-front"
    game = load_game(folder)
    hand = by_hand(game)
    if not hand:
        pytest.skip("the module applies every rule of this fixture")
    res = run_cli("check", folder)
    assert res.exit_code == 0
    text = res.output + (res.stderr if res.stderr_bytes is not None else "")
    for h in hand:
        assert f"table '{h.table_id}', rule '{h.rule_id}'" in text
    assert "tables.toml: line " in text
    assert run_cli("check", "--strict", folder).exit_code == 2
    marker = {c.table_id: c for c in calculators(game)}
    for h in hand:
        c = marker[h.table_id]
        assert h.rule_id in c.by_hand
        assert "by hand" in c.marker
        assert "apply by hand: " in c.report and h.label in c.report
        assert "$" not in c.report.split("apply by hand: ")[1]


def test_a_game_written_from_the_readme_reaches_the_module_whole(run_cli):
    """tests/fixtures/odds-river, written from the README alone (builder new, then an odds CRT
    with mud halving the attack, a river for every attacker and each unit crossing it, a fort
    that helps Blue only, no combat at night, artillery shifts): check --strict passes and the
    module applies every rule, none left to the player."""
    folder = ROOT / "tests" / "fixtures" / "odds-river"
    assert run_cli("check", "--strict", folder).exit_code == 0
    game = load_game(folder)
    assert by_hand(game) == []
    crt = next(c for c in calculators(game) if c.table_id == "crt")
    assert crt.by_hand == [] and "by hand" not in crt.marker
    used = {n.split("_crt_")[1] for n, _ in crt.props if n.startswith("CombatUse_crt_")}
    assert used == {r.id.replace("-", "_") for r in game.table_by_id["crt"].rules}
