"""Hill 112's hand-worked cases in the module (tests/tables/hill_112.py): the fire group's
markers on the firing units' hexes, each unit working out its own firepower from its printed
factors and its distance to the target; the modifiers, rows beyond the dice, natural rolls and
text results; the morale check; the line-of-sight check. Evaluated by the faithful evaluator, and
by the real engine's BeanShell (VASSAL 3.7.26) for every expression the cases read."""

from __future__ import annotations

from functools import cache

import pytest

from builder.load import load_game
from builder.vassal.pieces import prop_name
from builder.vassal_combat import calculators
from builder.vassal_combat.simulate import Battle, answer, attacker_sources, marker_source, report
from tests.tables.hill_112 import CHECKS, FIRES, FOLDER, SIGHTS


@cache
def _game():
    return load_game(FOLDER)


@cache
def _calcs() -> dict:
    from builder.vassal_combat import sight

    g = _game()
    return {c.table_id: c for c in calculators(g) + sight.calculators(g)}


def _dice(roll: str) -> int:
    return sum(int(x) for x in roll.split(","))


def _fire_battle(case) -> Battle:
    strength = prop_name("firepower" if case.table == "fire" else "gun")
    units = [(h, [{strength: f, "Range": r}]) for h, f, r in case.firers]
    return Battle(at=case.target, attackers=units, inputs=dict(case.module),
                  dice={"CombatDie1": _dice(case.roll)})


MODULE_FIRES = [c for c in FIRES if c.roll]


@pytest.mark.parametrize("case", MODULE_FIRES, ids=lambda c: c.name)
def test_fire_in_the_module(case):
    c = _calcs()[case.table]
    got = answer(c, _fire_battle(case), ["CombatResult", "CombatColumnLabel"])
    assert got["CombatResult"] == case.result, report(c, _fire_battle(case))
    if case.result != "not allowed":
        assert got["CombatColumnLabel"] == case.column


def test_the_chat_line_speaks_of_fire():
    c = _calcs()["fire"]
    line = report(c, _fire_battle(FIRES[0]))
    assert line == ("Infantry Fire Table at 0409: firepower 19 -> column 14-19, modifier +1 "
                    "(Target in a stone building +2; Leader directing the fire (his printed "
                    "modifier) -1); die 6 +1 = 7: PTC -> PTC (Pinned unless it passes a morale "
                    "check)")
    assert "attack" not in line.lower() and "differential" not in line.lower()


@pytest.mark.parametrize("case", [c for c in CHECKS if c.roll], ids=lambda c: c.name)
def test_morale_check_in_the_module(case):
    c = _calcs()["morale"]
    b = Battle(at="", inputs=dict(case.module), dice={"CombatDie": _dice(case.roll)})
    assert answer(c, b, ["CombatResult"])["CombatResult"] == case.result


@pytest.mark.parametrize("case", SIGHTS, ids=lambda c: c.name)
def test_line_of_sight_in_the_module_both_ways(case):
    c = _calcs()["sight"]
    for obs, tgt in ((case.a, case.b), (case.b, case.a)):
        b = Battle(at=tgt, inputs={"CombatFrom": obs, "CombatNight": int(case.night)})
        got = answer(c, b, ["CombatResult"])["CombatResult"]
        assert got.startswith("observed" if case.seen else "not observed"), (obs, tgt, got)


def test_units_carry_their_own_firepower_in_the_module():
    """The unit types whose counters print the factor carry the calculated properties; a leader
    (no firepower) does not."""
    from builder.vassal_combat import unit_traits

    traits = unit_traits(_game())
    assert set(traits) == {"infantry", "machine-gun", "anti-tank", "armour"}
    names = {tr.name for tr in traits["infantry"]}
    assert "CombatFire_fire" in names and "headquarters" not in traits


@pytest.mark.engine
def test_the_engine_evaluates_the_same():
    """Every expression the cases read, in VASSAL 3.7.26's BeanShell: the resolution marker's,
    each fire marker's and each unit's (the engine's own SumStack and Sum given as the values
    the faithful evaluator computes from the same pieces)."""
    from builder.vassal_combat.beanshell import Source
    from tests.vassal_combat.engine import EngineMissing, ExprScript, compiled, engine_jar

    try:
        engine_jar()
        compiled()
    except EngineMissing as exc:
        pytest.skip(str(exc))
    asked = []
    for table in ("fire", "anti-tank"):
        c = _calcs()[table]
        script = ExprScript()
        for name, e in {**c.calcs(), **c.attacker_calcs(), **dict(c.unit_props)}.items():
            script.calc(name, e)
        script.globals(c.data)
        mine = []
        for case in [f for f in MODULE_FIRES if f.table == table]:
            b = _fire_battle(case)
            src = marker_source(c, b)
            values = {k: v for k, v in src.props.items() if k not in c.data}
            for name in c.engine:
                if name in src.calcs:
                    values[name] = src.get(name)
            script.case(values)
            for n in ("CombatResult", "CombatColumnLabel", c.line):
                mine.append((case.name, n, src.get(n), script.ask(n)))
            published = {g: values.get(p) for g, p in c.published.items()}
            for (where, units), a in zip(b.attackers, attacker_sources(c, b)):
                for u in units:
                    unit = Source(props={**c.data, **published, "LocationName": where, **u},
                                  calcs=dict(c.unit_props))
                    script.case({**published, "LocationName": where, **u})
                    for n, _ in c.unit_props:
                        mine.append((case.name, n, unit.get(n), script.ask(n)))
        answers = script.run()
        asked += [(name, n, want, answers[i][1] if answers[i][0] else f"ERROR {answers[i][1]}")
                  for name, n, want, i in mine]
    bad = [a for a in asked if a[2] != a[3]]
    assert not bad, bad[:5]
    assert len(asked) > 40


@pytest.mark.engine
def test_a_fire_group_resolved_on_the_map_in_vassal(tmp_path):
    """F1 on the map in VASSAL 3.7.26: the German squad in Le Mesnil's stone building (0509) under
    fire from a squad next to it (0508: 6 x 2), a squad five hexes away (0305: 6 / 2) and the
    .30 cal three away (0207: 4), Sgt Kowalski directing (-1): firepower 19, column 14-19,
    modifier +1; the engine rolls, and the chat line reads the table for that roll as builder
    calc does."""
    import re

    from builder.tables import api
    from builder.vassal.geometry import BoardGeometry
    from builder.vassal.module import build_module
    from tests.vassal_combat.engine import EngineMissing, run_gui

    g = _game()
    c = _calcs()["fire"]
    geom = BoardGeometry(g)
    script = ["SHOW", "SETUP\tThe Assault"]
    firers = [("us-sq-1", "0207", "0508"), ("us-sq-2", "0208", "0305"), ("us-mg-1", "0307", "0207")]
    for unit, start, to in firers:
        x, y = geom.hex_point(to)
        script.append(f"MOVE\t{unit}\t{start}\t{x}\t{y}")
    for k, (unit, _, to) in enumerate(firers):
        script.append(f"DROP\tA{k}\t{c.attacker_name}\t{unit}\t{to}")
    script += [f"DROP\tR\t{c.marker}\tde-sq-3\t0509", "SET\tR\tCombatMod_leader\t-1",
               "CALCS\tR", "KEY\tR\t82\t130"]
    vmod = tmp_path / "hill-112.vmod"
    vmod.write_bytes(build_module(g).vmod())
    spec = tmp_path / "play.txt"
    spec.write_text("\n".join(script) + "\n", encoding="utf-8")
    try:
        out = run_gui("CombatCheck", [str(vmod), str(spec)])
    except EngineMissing as exc:
        pytest.skip(str(exc))
    records = [line.split("\t") for line in out.splitlines()]
    assert [r for r in records if r[0] == "PROBLEM"] == []
    chat = [r[1] for r in records if r[0] == "CHAT" and "Infantry Fire Table" in r[1]]
    assert len(chat) == 1, records
    line = chat[0]
    assert line.startswith("* Infantry Fire Table at 0509: firepower 19 -> column 14-19, "
                           "modifier +1 (Target in a stone building +2; Leader directing the "
                           "fire (his printed modifier) -1); die "), line
    die = int(re.search(r"; die (\d+)", line).group(1))
    want = api.calculate(g, "fire", {"firepower": "6,6,4", "firer_hexes": ["0508", "0305", "0207"],
                                     "range": "4,4,10", "hex": "0509", "leader": "-1"}, die)
    assert want.column == "14-19"
    assert line.endswith(f"-> {want.result} ({want.outcome.meaning})"), (line, want.result)


def test_piece_properties_are_named_by_each_counters_own_factors():
    """4: the Sherman's gun is 'Gun' (not 'Firepower'), a leader's numbers 'Morale' and
    'Modifier', a squad's back (broken) keeps its morale and has no firepower."""
    from builder.vassal import traits as vt
    from builder.vassal.pieces import unit_piece

    g = _game()

    def props(unit_id: str) -> dict:
        out = {}
        for tr in unit_piece(g, g.unit_by_id[unit_id]).traits:
            if isinstance(tr, vt.Marker):
                out.update(dict(tr.props))
            elif isinstance(tr, vt.CalculatedProperty):
                out[tr.name] = tr.expression
        return out

    tank = props("us-tk-1")
    assert (tank["Gun"], tank["Range"], tank["Armour"], tank["Movement"]) == ("7", "12", "5", "6")
    assert "Firepower" not in tank
    leader = props("us-ld-1")
    assert (leader["Morale"], leader["Modifier"]) == ("8", "1")
    squad = props("us-sq-1")
    assert squad["FirepowerFront"] == "6" and "FirepowerBack" not in squad
    assert squad["MoraleFront"] == "7" and squad["MoraleBack"] == "5"
    assert squad["Firepower"].endswith(': ""') and squad["Morale"].endswith(": 5")
