"""The module's generated expressions give the rules assistant's answers, battle by battle.

Evaluated with the faithful evaluator (builder.vassal_combat.beanshell); test_engine_answers.py
runs the same battles through the real engine's interpreter.
"""

from __future__ import annotations

import pytest

from builder.vassal_combat.simulate import answer, report
from tests.vassal_combat.cases import faces
from tests.vassal_combat.support import calculators, checked_cases, covered, game

pytestmark = pytest.mark.slow  # every calculator of every sample, battle by battle
COVERED = covered()


def test_every_table_kind_is_covered_on_the_samples():
    kinds = {(slug, t) for slug, t in COVERED}
    assert ("vimy-ridge", "crt") in kinds and ("vimy-ridge", "bombardment") in kinds
    assert {("eben-emael", "combat"), ("eben-emael", "hmg"), ("eben-emael", "artillery")} <= kinds
    assert ("scheldt", "crt") in kinds and ("operation-veritable", "crt") in kinds
    assert ("europa-terrain", "flooding") in kinds


@pytest.mark.parametrize("slug,table_id", COVERED, ids=[f"{s}-{t}" for s, t in COVERED])
def test_module_answers_equal_the_rules_assistant(slug, table_id):
    c = calculators(slug)[table_id]
    cases = checked_cases(slug, table_id)
    t = game(slug).table_by_id[table_id]
    assert len(cases) >= len(faces(t.dice)), "too few battles to cover the table"
    bad = []
    for case, want in cases:
        got = answer(c, case.battle, list(want))
        if got != want:
            bad.append(f"{case.note} {case.inputs} roll {case.roll}: module {got}, rules {want}")
    assert not bad, f"{len(bad)} of {len(cases)} differ, e.g.\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("slug,table_id", COVERED, ids=[f"{s}-{t}" for s, t in COVERED])
def test_every_column_and_roll_is_exercised(slug, table_id):
    t = game(slug).table_by_id[table_id]
    cases = checked_cases(slug, table_id)
    columns = {want.get("CombatColumnLabel") for _, want in cases}
    results = {want["CombatResult"] for _, want in cases}
    printed = {cell for row in getattr(t, "results", {}).values()
               for cell in (row if isinstance(row, tuple) else (row,))}
    if t.kind in ("differential", "ratio"):
        assert printed <= results, f"results never reached: {printed - results}"
        n = t.columns if t.kind == "differential" else len(t.columns)
        assert len(columns - {None}) >= n
    if t.kind == "lookup":
        assert {e.result for e in t.entries} <= results
    rolls = {str(case.roll) for case, _ in cases}
    assert len(rolls) >= len(faces(t.dice))


def test_chat_line_says_it_in_plain_words():
    from builder.vassal_combat.simulate import Battle
    from tests.vassal_combat.cases import Case  # noqa: F401

    c = calculators("vimy-ridge")["crt"]
    b = Battle(at="1010", stack={"Defense": 7}, attackers=[("0910", {"Attack": 8}),
                                                          ("0911", {"Attack": 4})],
               dice={"CombatDie": 4})
    line = report(c, b)
    assert line == ("Integrated Combat Results Table: attack 12 vs 7, Clear row, +5 -> column 9 "
                    "(+4..+5 on Clear), die 4: Ex (Exchange: the defender is removed; the "
                    "attacker loses at least as many printed attack factors as the defender's "
                    "defense)")
