"""Equality at scale in the real engine (issue 38 item 5): the generated situations of every
table of a game (test_situations) resolved by VASSAL's own expression code (ExprCheck: each
calculated property made as its trait makes it), one engine session per game, and compared with
the rules assistant's answers. What the engine computes from the pieces (SumStack, CountStack,
Sum) is given, as the faithful evaluator computes it for the situation's pieces; the attack
markers' own properties are asked too."""

from __future__ import annotations

import pytest

from builder.vassal_combat.simulate import attacker_sources, marker_source
from tests.vassal_combat.engine import EngineMissing, ExprScript, compiled
from tests.vassal_combat.test_situations import FOLDERS, _calculators, checked

pytestmark = pytest.mark.engine


def _values(c, src, calcs: dict) -> dict:
    """The properties a marker's case gives the engine: its own and what the engine counts."""
    out = {k: (v() if callable(v) else v) for k, v in src.props.items() if k not in c.data}
    for name in c.engine:
        if name in calcs:
            out[name] = src.get(name)
    return out


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.split("/")[-1])
def test_the_engine_answers_as_the_calculator(folder):
    try:
        compiled()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    script = ExprScript()
    asked = []
    for table_id, c in _calculators(folder).items():
        if c.by_hand:  # not the calculator's answer by design: the marker says what to do
            continue
        script.reset()
        for name, e in {**c.calcs(), **c.attacker_calcs()}.items():
            script.calc(name, e)
        script.globals(c.data)
        for case, want in checked(folder, table_id):
            src = marker_source(c, case.battle)
            script.case(_values(c, src, c.calcs()))
            asked.append((table_id, case, want, [script.ask(n) for n in want]))
            for a in attacker_sources(c, case.battle, lambda src=src: src):
                script.case(_values(c, a, c.attacker_calcs()))
                for name, _ in c.attacker:
                    if name not in c.engine:
                        asked.append((table_id, case, {name: a.get(name)}, [script.ask(name)]))
    answers = script.run()
    bad = []
    for table_id, case, want, idx in asked:
        got = {n: answers[i][1] if answers[i][0] else f"ERROR {answers[i][1]}"
               for n, i in zip(want, idx)}
        if got != want:
            bad.append(f"{table_id} {case.inputs} roll {case.roll}: engine {got}, expected {want}")
    assert not bad, f"{len(bad)} of {len(asked)} differ, e.g.\n" + "\n".join(bad[:5])
