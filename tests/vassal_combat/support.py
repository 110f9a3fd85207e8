"""Sample games, their calculators and battles, built once per test session."""

from __future__ import annotations

from functools import cache

import pytest
from repo_paths import ROOT

from tests.vassal_combat.cases import SAMPLES, cases_for, expected


@cache
def _game(slug: str):
    from builder.load import load_game

    return load_game(ROOT / "sources" / slug)


def game(slug: str):
    """A sample game (skipped while its sources are not written yet)."""
    folder = ROOT / "sources" / slug
    if not (folder / "game.toml").is_file():
        pytest.skip(f"sources/{slug} is not written yet")
    return _game(slug)


@cache
def calculators(slug: str) -> dict:
    from builder import vassal_combat

    return {c.table_id: c for c in vassal_combat.calculators(game(slug))}


@cache
def checked_cases(slug: str, table_id: str) -> list:
    """(case, what the module must show) for every battle the rules assistant can resolve."""
    from builder.tables import api

    g = game(slug)
    c = calculators(slug)[table_id]
    out = []
    for case in cases_for(g, g.table_by_id[table_id], c):
        try:
            # (what the module shows: expected() reads no unused-input accounting, which
            # would make each calculation two to four times over)
            calc = api.calculate(g, table_id, case.inputs, roll=case.roll,
                                 account=False).to_dict()
        except api.CalcError:
            continue  # a battle the rules forbid; the module cannot set it up either
        out.append((case, expected(calc)))
    return out


def covered() -> list[tuple[str, str]]:
    """(sample, table id) for every table the module resolves (known without loading games)."""
    import tomllib

    from builder.vassal_combat import KINDS

    out = []
    for slug in SAMPLES:
        path = ROOT / "sources" / slug / "tables.toml"
        if not path.is_file():
            continue
        for t in tomllib.loads(path.read_text(encoding="utf-8")).get("tables", []):
            if t.get("kind") in KINDS and (t["kind"] != "lookup" or t.get("dice")):
                out.append((slug, t["id"]))
    return out
