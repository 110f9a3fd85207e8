"""A battle played in the real engine: units from a scenario set-up, markers dropped from the
palette, Resolve pressed, the chat line read (tests/vassal_combat/java/CombatCheck.java).

The engine's chat line must equal the line the faithful evaluator writes for the same units,
options and dice, and its result must equal the rules assistant's for those dice.
"""

from __future__ import annotations

import re

import pytest

from builder import mapinfo
from builder.model.counters import factor_value, split_factors
from builder.tables import api
from builder.vassal_combat.calculator import factor_property
from builder.vassal_combat.simulate import Battle, report
from tests.vassal_combat.engine import EngineMissing, build_of, game_module, run_gui
from tests.vassal_combat.support import calculators

# with the module checks and the played turns (tests/vassal): one worker, one engine per game
pytestmark = [pytest.mark.engine, pytest.mark.xdist_group("vassal-modules")]
CTRL_R = "82\t130"
SHOWN = ["CombatDie", "CombatFireDie", "CombatDie1", "CombatDie2", "CombatResult", "CombatLine",
         "LocationName", "CombatAttack", "CombatDefRaw"]


def _factor(g, unit, prop: str) -> int:
    from builder.vassal.pieces import prop_name

    names = [prop_name(n) for n in g.info.factor_names]
    values = [factor_value(p) for p in split_factors(unit.front)]
    v = values[names.index(prop)] if prop in names and names.index(prop) < len(values) else None
    return v or 0


def _setup(g, sc) -> dict[str, list]:
    where: dict[str, list] = {}
    for p in sc.setup:
        if p.unit in g.unit_by_id:
            where.setdefault(p.at, []).append(g.unit_by_id[p.unit])
    return where


def _play(g, tmp_path, script: list[str]) -> dict:
    vmod = tmp_path / f"{g.slug}.vmod"
    vmod.write_bytes(build_of(g).vmod())
    spec = tmp_path / "battle.txt"
    spec.write_text("\n".join(script) + "\n", encoding="utf-8")
    try:
        out = run_gui("CombatCheck", [str(vmod), str(spec)])
    except EngineMissing as exc:
        pytest.skip(str(exc))
    records = [line.split("\t") for line in out.splitlines()]
    res = {"problems": [r for r in records if r[0] == "PROBLEM"],
           "chat": [r[1] for r in records if r[0] == "CHAT"],
           "props": {(r[1], r[2]): r[3] for r in records if r[0] == "PROP"},
           "loaded": [r for r in records if r[0] == "LOADED"],
           "dropped": {r[1]: r[2:] for r in records if r[0] == "DROPPED"},
           "done": [r for r in records if r[0] == "DONE"],
           "records": {r[0] for r in records}}
    assert res["loaded"] and res["done"], out[-3000:]
    return res


def _strip(line: str) -> str:
    return re.sub(r"^\*\s*", "", line).strip()


@pytest.mark.vassal_game("vimy-ridge")
def test_vimy_assault_and_bombardment_in_the_engine(tmp_path):
    g = game_module("vimy-ridge")[0]
    sc = g.scenarios[0]
    where = _setup(g, sc)
    crt = calculators("vimy-ridge")["crt"]
    bomb = calculators("vimy-ridge")["bombardment"]
    att_p, def_p = factor_property(g, "attack"), factor_property(g, "defence")
    # a German hex with an empty neighbour across a trench hexside: an Allied unit moves there
    german = [(at, us) for at, us in where.items() if us[0].side == "german"]
    allied = [(at, us) for at, us in where.items() if us[0].side == "allied"]
    pick = None
    for at, us in german:
        h = g.hex(at)
        for n in g.grid.neighbours(h):
            if g.grid.label(n) not in where and mapinfo.hexside_types(g, n, h):
                pick = (at, us, g.grid.label(n))
                break
        if pick:
            break
    assert pick, "no German hex with a free neighbour across a hexside feature"
    d_at, d_units, a_at = pick
    mover = allied[0][1][0]
    from builder.vassal.geometry import BoardGeometry

    x, y = BoardGeometry(g).hex_point(a_at)
    target_at, target_units = next((at, us) for at, us in german if at != d_at)
    # gas is allowed on the first turn only (17.6): the set-up opens on it
    script = [f"SETUP\t{sc.name}", f"MOVE\t{mover.id}\t{allied[0][0]}\t{x}\t{y}",
              f"DROP\tR\t{crt.marker}\t{d_units[0].id}\t{d_at}",
              f"DROP\tA\t{crt.attacker_name}\t{mover.id}\t{a_at}",
              "CALCS\tR", f"KEY\tR\t{CTRL_R}", f"PROPS\tR\t{','.join(SHOWN)}",
              f"DROP\tB\t{bomb.marker}\t{target_units[0].id}\t{target_at}",
              "SET\tB\tCombatMarkers\t2", "SET\tB\tCombatFlag_gas\t1",
              f"KEY\tB\t{CTRL_R}", f"PROPS\tB\t{','.join(SHOWN)}"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert res["dropped"]["R"][0] == d_at and res["dropped"]["A"][0] == a_at
    assert len(res["chat"]) == 2, res["chat"]

    # the assault: the engine's line is the evaluator's line, the result the rules assistant's
    props = res["props"]
    die = int(props[("R", "CombatDie")])
    attack = _factor(g, mover, att_p)
    defence = sum(_factor(g, u, def_p) for u in d_units)
    battle = Battle(at=d_at, stack={def_p: defence}, attackers=[(a_at, {att_p: attack})],
                    dice={"CombatDie": die})
    assert _strip(res["chat"][0]) == report(crt, battle)
    calc = api.calculate(g, "crt", {"attack": attack, "defence": defence, "defender_hex": d_at,
                                    "attacker_hexes": a_at}, roll=die).to_dict()
    assert props[("R", "CombatResult")] == calc["result"]
    assert f"({calc['column']})" in res["chat"][0]

    # the bombardment: two markers, gas, the terrain of the target hex
    d1, d2 = int(props[("B", "CombatDie1")]), int(props[("B", "CombatDie2")])
    battle = Battle(at=target_at, inputs={"CombatMarkers": 2, "CombatFlag_gas": 1},
                    dice={"CombatDie1": d1, "CombatDie2": d2})
    assert _strip(res["chat"][1]) == report(bomb, battle)
    calc = api.calculate(g, "bombardment", {"target_hex": target_at, "markers": 2, "gas": True,
                                            "turn": 1},
                         roll=f"{d1},{d2}").to_dict()
    assert props[("B", "CombatResult")] == calc["result"]
    assert res["chat"][1].count("marker ") == 2 and " at " + target_at in res["chat"][1]


@pytest.mark.vassal_game("vimy-ridge")
def test_vimy_gas_after_the_first_turn_is_refused_in_the_engine(tmp_path):
    """Issue 40: gas asked from the bombardment marker's menu on turn 2 (the turn track stepped
    on) is refused in the chat with its rule, 17.6, in the words calc refuses it with; the
    engine's line is the evaluator's."""
    g = game_module("vimy-ridge")[0]
    sc = g.scenarios[0]
    where = _setup(g, sc)
    bomb = calculators("vimy-ridge")["bombardment"]
    first = sc.turns[0] if sc.turns else g.info.turns.first
    steps = max(1, len([p for p in g.info.sequence if first not in p.skip_on_turns]))
    target_at, target_units = next((at, us) for at, us in where.items()
                                   if us[0].side == "german")
    gas = next(i for i in bomb.inputs if i.prop == "CombatFlag_gas")
    script = [f"SETUP\t{sc.name}", f"NEXT\t{steps}",  # through turn 1
              f"DROP\tB\t{bomb.marker}\t{target_units[0].id}\t{target_at}",
              f"MENU\tB\t{gas.label}: on/off", f"KEY\tB\t{CTRL_R}",
              f"PROPS\tB\t{','.join(SHOWN)},CombatFlag_gas,Turn"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert "MENUDONE" in res["records"], "the gas menu command was not found"
    assert res["props"][("B", "CombatFlag_gas")] == "1"
    line = _strip(res["chat"][-1])
    turns = next(i for i in bomb.inputs if i.prop == "Turn").choices
    assert res["props"][("B", "Turn")] == turns[1]
    battle = Battle(at=target_at, inputs={"Turn": turns[1], "CombatFlag_gas": 1},
                    dice={"CombatDie1": 1, "CombatDie2": 1})
    assert line == report(bomb, battle)
    calc = api.calculate(g, "bombardment", {"gas": True, "turn": first + 1}).to_dict()
    assert calc["result"] == "not allowed" and "(17.6" in calc["meaning"]
    assert line.endswith(f": not allowed: {calc['meaning']}"), line


@pytest.mark.vassal_game("eben-emael")
def test_eben_emael_assault_and_machine_gun_fire_in_the_engine(tmp_path):
    g = game_module("eben-emael")[0]
    from builder.vassal.module import sector_label

    sc = g.scenarios[0]
    where = _setup(g, sc)
    combat = calculators("eben-emael")["combat"]
    hmg = calculators("eben-emael")["hmg"]
    prop = factor_property(g, "attack")
    adj = {frozenset(p) for p in g.map.adjacent}
    # a Belgian bunker with machine guns, attacked from a German sector in their arc
    pick = next((b, a) for b in where for a in where
                if where[b][0].side == "belgian" and where[a][0].side == "german"
                and frozenset((a, b)) in adj and g.sector_by_id[b].mg
                and a in g.sector_by_id[b].fire_arc)
    d_at, a_at = pick
    target = next(a for a in where if where[a][0].side == "german" and a != a_at)
    plus_one = next(i for i in combat.inputs if i.prop == "CombatMod_plus_1")
    script = [f"SETUP\t{sc.name}",
              f"DROP\tR\t{combat.marker}\t{where[d_at][0].id}\t{sector_label(g, d_at)}",
              f"DROP\tA\t{combat.attacker_name}\t{where[a_at][0].id}\t{sector_label(g, a_at)}",
              f"MENU\tR\t{plus_one.label}: on/off",
              f"KEY\tR\t{CTRL_R}", f"PROPS\tR\t{','.join(SHOWN)}",
              f"DROP\tF\t{hmg.marker}\t{where[target][0].id}\t{sector_label(g, target)}",
              "SET\tF\tCombatFire\t6",
              f"KEY\tF\t{CTRL_R}", f"PROPS\tF\t{','.join(SHOWN)}"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert len(res["chat"]) == 2, res["chat"]
    assert "MENUDONE" in res["records"], "the menu command was not found"
    props = res["props"]
    die, fire_die = int(props[("R", "CombatDie")]), int(props[("R", "CombatFireDie")])
    attack = sum(_factor(g, u, prop) for u in where[a_at])
    defence = sum(_factor(g, u, prop) for u in where[d_at])
    battle = Battle(at=sector_label(g, d_at), stack={prop: defence},
                    attackers=[(sector_label(g, a_at), {prop: attack})],
                    inputs={"CombatMod_plus_1": 1},
                    dice={"CombatDie": die, "CombatFireDie": fire_die})
    assert _strip(res["chat"][0]) == report(combat, battle)
    calc = api.calculate(g, "combat", {"attack": attack, "defence": defence, "sector": d_at,
                                       "attacker_sectors": a_at, "mg_roll": fire_die,
                                       "plus-1": True}, roll=die).to_dict()
    assert props[("R", "CombatResult")] == calc["result"]
    n = calc["numbers"]
    assert (f"attacker loses {n['attacker losses']}, defender loses {n['defender losses']}"
            in res["chat"][0])
    assert "machine guns" in res["chat"][0]

    fdie = int(props[("F", "CombatDie")])
    battle = Battle(at=sector_label(g, target), inputs={"CombatFire": "6"},
                    dice={"CombatDie": fdie})
    assert _strip(res["chat"][1]) == report(hmg, battle)
    calc = api.calculate(g, "hmg", {"firepower": 6, "target_sector": target}, roll=fdie).to_dict()
    assert props[("F", "CombatResult")] == calc["result"]


@pytest.mark.vassal_game("eastern-front")
def test_eastern_front_rules_read_from_the_board_in_the_engine(tmp_path):
    """The rules the module reads from the pieces, in the real engine: the Soviet defender in a
    fortification (CountStack on its stack), an armour attacker (its marker's stack) and the
    canal it attacks across (its half per unit). The chat line is the evaluator's for the same
    pieces, the result the rules assistant's."""
    from repo_paths import ROOT

    from builder.vassal.geometry import BoardGeometry
    from builder.vassal_combat import calculators as all_calculators
    from tests.vassal_combat.situations import _counts

    g = game_module(ROOT / "tests" / "fixtures" / "eastern-front")[0]
    sc = next(s for s in g.scenarios if s.id == "summer")
    where = _setup(g, sc)
    crt = next(c for c in all_calculators(g) if c.table_id == "crt")
    soviet, infantry, armour = g.unit_by_id["s-1"], g.unit_by_id["g-1"], g.unit_by_id["g-2"]
    d_at = next(at for at, us in where.items() if soviet in us)
    i_at = next(at for at, us in where.items() if infantry in us)
    a_at = next(at for at, us in where.items() if armour in us)
    x, y = BoardGeometry(g).hex_point("0504")  # across the canal from the fortification 0404
    assert d_at == "0404" and "canal" in mapinfo.hexside_types(g, g.hex("0504"), g.hex("0404"))
    script = [f"SETUP\t{sc.name}", f"MOVE\t{armour.id}\t{a_at}\t{x}\t{y}",
              f"DROP\tR\t{crt.marker}\t{soviet.id}\t{d_at}",
              f"DROP\tA\t{crt.attacker_name}\t{infantry.id}\t{i_at}",
              f"DROP\tB\t{crt.attacker_name}\t{armour.id}\t0504",
              "CALCS\tR", f"KEY\tR\t{CTRL_R}",
              f"PROPS\tR\t{','.join(SHOWN)},CombatUse_crt_fortification,CombatUse_crt_canal"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert res["dropped"]["B"][0] == "0504"
    assert len(res["chat"]) == 1, res["chat"]
    props = res["props"]
    assert props[("R", "CombatUse_crt_fortification")] == "1"  # read from the defender's piece
    assert props[("R", "CombatUse_crt_canal")] == "1"  # the armour attacks across the canal
    att, dfn = factor_property(g, "attack"), factor_property(g, "defence")
    die = int(props[("R", "CombatDie")])
    battle = Battle(at=d_at, stack={dfn: _factor(g, soviet, dfn), **_counts(crt, [soviet], False)},
                    attackers=[(i_at, {att: _factor(g, infantry, att),
                                       **_counts(crt, [infantry], True)}),
                               ("0504", {att: _factor(g, armour, att),
                                         **_counts(crt, [armour], True)})],
                    inputs={"Turn": "1"}, dice={"CombatDie": die})  # the track's turn 1
    assert _strip(res["chat"][0]) == report(crt, battle)
    calc = api.calculate(g, "crt", {
        "attack": f"{_factor(g, infantry, att)},{_factor(g, armour, att)}",
        "defence": _factor(g, soviet, dfn), "hex": d_at, "attacker_hexes": f"{i_at},0504",
        "turn": 1, "defender_side": "soviet"}, roll=die).to_dict()
    assert props[("R", "CombatResult")] == calc["result"]
    assert calc["column"] and f"column {calc['column']}," in res["chat"][0]


@pytest.mark.vassal_game("odds-river")
def test_a_game_from_the_readme_resolves_its_river_assault_in_the_engine(tmp_path):
    """tests/fixtures/odds-river (written from the README alone) in the real engine: Red attacks
    the Blue fort from across the river with two units; the marker reads the fort and Blue's side
    from the defender's piece, halves each crossing attacker at its own marker, shifts for every
    attacker across, adds the artillery chosen from its menu; the chat line is the evaluator's
    and the result the calculator's."""
    from repo_paths import ROOT

    from builder.vassal_combat import calculators as all_calculators
    from tests.vassal_combat.situations import _counts

    g = game_module(ROOT / "tests" / "fixtures" / "odds-river")[0]
    sc = g.scenarios[0]
    crt = next(c for c in all_calculators(g) if c.table_id == "crt")
    blue, r2, r3 = g.unit_by_id["b-1"], g.unit_by_id["r-2"], g.unit_by_id["r-3"]
    art = next(i for i in crt.inputs if i.api == "artillery")
    shot = tmp_path / "odds-river.png"
    script = [f"SETUP\t{sc.name}", f"DROP\tR\t{crt.marker}\t{blue.id}\t0403",
              f"DROP\tA\t{crt.attacker_name}\t{r2.id}\t0503",
              f"DROP\tB\t{crt.attacker_name}\t{r3.id}\t0504",
              f"MENU\tR\t{art.label}: one more", "CALCS\tR", f"KEY\tR\t{CTRL_R}",
              f"PROPS\tR\t{','.join(SHOWN)}", f"SHOT\tR\t{shot}"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert len(res["chat"]) == 1, res["chat"]
    att, dfn = factor_property(g, "attack"), factor_property(g, "defence")
    die = int(res["props"][("R", "CombatDie")])
    battle = Battle(at="0403", stack={dfn: _factor(g, blue, dfn), **_counts(crt, [blue], False)},
                    attackers=[(h, {att: _factor(g, u, att), **_counts(crt, [u], True)})
                               for h, u in (("0503", r2), ("0504", r3))],
                    inputs={"Turn": "1", art.prop: 1}, dice={"CombatDie": die})
    assert _strip(res["chat"][0]) == report(crt, battle)
    calc = api.calculate(g, "crt", {
        "attack": f"{_factor(g, r2, att)},{_factor(g, r3, att)}", "defence": _factor(g, blue, dfn),
        "hex": "0403", "attacker_hexes": "0503,0504", "turn": 1, "defender_side": "blue",
        "artillery": 1}, roll=die).to_dict()
    assert res["props"][("R", "CombatResult")] == calc["result"]
    for said in ("Blue in the fort", "Every attacker across the river", "Artillery support"):
        assert said in res["chat"][0]


def test_each_unit_of_a_stack_halved_on_its_own_in_the_engine(tmp_path):
    """tests/fixtures/hold-the-line in the real engine: a team of 3 and a squad of 5 stacked in
    0604 attack the machine guns (defence 2) in the stone building 0504. The marker counts the
    stack's units by printed strength (CountStack on the pieces), halves each on its own and
    rounds down (3.3): 1 + 2 = 3, odds 3:2, 1:1 (halving the total, 8 / 2 = 4, would read 2:1);
    turn 1's surprise shifts one right (3.7): 2:1; the stone building adds one to the roll
    (3.5), read from the hex. The chat line is the evaluator's, the result the calculator's."""
    from repo_paths import ROOT

    from builder.load import load_game
    from builder.vassal.geometry import BoardGeometry
    from builder.vassal_combat import calculators as all_calculators
    from tests.vassal_combat.situations import _counts

    g = load_game(ROOT / "tests" / "fixtures" / "hold-the-line")
    sc = g.scenarios[0]
    where = _setup(g, sc)
    crt = next(c for c in all_calculators(g) if c.table_id == "crt")
    team, squad, mg = g.unit_by_id["b-4"], g.unit_by_id["r-3"], g.unit_by_id["b-5"]
    att, dfn = factor_property(g, "attack"), factor_property(g, "defence")
    assert (_factor(g, team, att), _factor(g, squad, att), _factor(g, mg, dfn)) == (3, 5, 2)
    t_at = next(at for at, us in where.items() if team in us)
    s_at = next(at for at, us in where.items() if squad in us)
    assert next(at for at, us in where.items() if mg in us) == "0504"
    x, y = BoardGeometry(g).hex_point("0604")
    script = [f"SETUP\t{sc.name}", f"MOVE\t{team.id}\t{t_at}\t{x}\t{y}",
              f"MOVE\t{squad.id}\t{s_at}\t{x}\t{y}",
              f"DROP\tR\t{crt.marker}\t{mg.id}\t0504",
              f"DROP\tA\t{crt.attacker_name}\t{team.id}\t0604",
              "CALCS\tR", f"KEY\tR\t{CTRL_R}", f"PROPS\tR\t{','.join(SHOWN)},CombatDivided"]
    res = _play(g, tmp_path, script)
    assert not res["problems"], res["problems"]
    assert res["dropped"]["A"][0] == "0604"
    assert len(res["chat"]) == 1, res["chat"]
    props = res["props"]
    assert (props[("R", "CombatAttack")], props[("R", "CombatDivided")]) == ("8", "3")
    die = int(props[("R", "CombatDie")])
    stack = {att: 8}
    for unit, strength in ((team, 3), (squad, 5)):
        for k, n in _counts(crt, [unit], True, strength).items():
            stack[k] = stack.get(k, 0) + n
    battle = Battle(at="0504", stack={dfn: 2, **_counts(crt, [mg], False)},
                    attackers=[("0604", stack)], inputs={"Turn": "1"}, dice={"CombatDie": die})
    assert _strip(res["chat"][0]) == report(crt, battle)
    assert "each unit / 2 (Stone building) = 3" in res["chat"][0]
    assert "Defender in a stone building +1" in res["chat"][0]
    calc = api.calculate(g, "crt", {"attack": "3,5", "defence": 2, "hex": "0504", "turn": 1},
                         roll=die).to_dict()
    assert calc["column"] == "2:1" and f"column {calc['column']}," in res["chat"][0]
    assert props[("R", "CombatResult")] == calc["result"]
