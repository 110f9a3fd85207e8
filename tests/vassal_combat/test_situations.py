"""Equality at scale (issue 38 item 5): for every combat, fire and rolled table of every sample
and test fixture, generated situations (tests/vassal_combat/situations.py: a fixed seed, at
least 60 per table, every rule the module compiles applied in one at least) are resolved by the
rules assistant (builder calc's engine) and by the module's expressions (the faithful evaluator
here; the real engine in test_situations_engine.py), and the answers are equal."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest
from repo_paths import ROOT

from builder.load import find_game, load_game
from builder.tables import api
from builder.vassal_combat import calculators
from builder.vassal_combat.simulate import answer
from tests.vassal_combat.cases import expected
from tests.vassal_combat.situations import MIN, rule_uses, situations

# a table setting no sample or fixture has on a kind, tried on a copy of a fixture: name ->
# (fixture, text in its tables.toml, the text with the setting)
VARIANTS = {
    "tables-hex-ends-after-shifts": ("tables-hex", 'kind = "differential"\n',
                                     'kind = "differential"\nends = "after-shifts"\n'),
    # each unit divided with a rule for each unit that crosses and one for the whole attack
    "odds-river-divide-per-unit": ("odds-river", 'kind = "ratio"', 'kind = "ratio"\n'
                                   'divide = "per-unit"\n'),
    "eastern-front-divide-per-unit": ("eastern-front", 'kind = "ratio"', 'kind = "ratio"\n'
                                      'divide = "per-unit"\n'),
}


def _variant(name: str) -> str:
    """A fixture with a setting changed, copied once per test process."""
    fixture, old, new = VARIANTS[name]
    folder = Path(_VARIANTS_DIR.name) / name
    if not folder.exists():
        shutil.copytree(ROOT / "tests" / "fixtures" / fixture, folder)
        text = (folder / "tables.toml").read_text(encoding="utf-8")
        assert old in text, f"{fixture}: '{old}' is not in its tables.toml"
        (folder / "tables.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(folder)


_VARIANTS_DIR = tempfile.TemporaryDirectory(prefix="situations-")
FOLDERS = sorted(str(p) for p in (ROOT / "sources").iterdir() if (p / "game.toml").is_file()) + \
    sorted(str(p) for p in (ROOT / "tests" / "fixtures").iterdir() if (p / "tables.toml").is_file()) \
    + [_variant(name) for name in VARIANTS]


@cache
def _game(folder: str):
    return load_game(find_game(folder))


@cache
def _calculators(folder: str) -> dict:
    return {c.table_id: c for c in calculators(_game(folder))}


def _tables() -> list[tuple[str, str]]:
    return [(f, tid) for f in FOLDERS for tid in _calculators(f)]


def _answer(game, table_id: str, case):
    try:
        return api.calculate(game, table_id, case.inputs, roll=case.roll).to_dict()
    except api.CalcError:
        return None


@cache
def checked(folder: str, table_id: str) -> list[tuple[object, dict]]:
    """(situation, what the module must show) for the table's generated situations."""
    game = _game(folder)
    c = _calculators(folder)[table_id]
    t = game.table_by_id[table_id]
    found = situations(game, t, c, lambda case: _answer(game, table_id, case) is not None)
    return [(case, expected(_answer(game, table_id, case))) for case in found]


TABLES = _tables()


@pytest.mark.slow
@pytest.mark.parametrize("folder,table_id", TABLES,
                         ids=[f"{f.split('/')[-1]}-{t}" for f, t in TABLES])
def test_the_module_answers_as_the_calculator(folder, table_id):
    c = _calculators(folder)[table_id]
    if c.by_hand:  # the module says so on the marker and in its chat (test_by_hand)
        pytest.skip(f"the module leaves {c.by_hand} to the player")
    cases = checked(folder, table_id)
    assert len(cases) >= MIN, f"only {len(cases)} situations the calculator resolves"
    bad = []
    for case, want in cases:
        got = answer(c, case.battle, list(want))
        if got != want:
            bad.append(f"{case.inputs} roll {case.roll}: module {got}, calculator {want}")
    assert not bad, f"{len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:4])
    applied = set()
    for case, _ in cases:
        applied |= {k for k, n in rule_uses(c, case).items() if n > 0}
    compiled = {k for k in rule_uses(c, cases[0][0])}
    assert compiled - applied == set(), "rules that applied in no situation"
