"""Every input a player gives is accounted for (issue 40, item 1): on every calculator of every
sample and fixture, each input given either changes the answer (its working, result or odds) or
the answer names it as having changed nothing, with why; and the Vimy cases worked by hand from
the seed text (003, 17.6 gas, 13.1 night, 17.2/18.2 La Folie Woods).
"""

from __future__ import annotations

import pytest

from builder.tables import api
from tests.aid.cases import cases
from tests.tables.games import ROOT, fixture, game

SAMPLES = sorted(p.name for p in (ROOT / "sources").iterdir() if (p / "tables.toml").is_file())
FIXTURES = sorted(p.name for p in (ROOT / "tests" / "fixtures").iterdir()
                  if (p / "tables.toml").is_file())
GAMES = [("sources", n) for n in SAMPLES] + [("fixtures", n) for n in FIXTURES]


def _load(where: str, name: str):
    return game(name) if where == "sources" else fixture(name)


def _given_once(g, calc: dict) -> list[dict]:
    """One case per declared input, besides the generated ones, so that every input is given."""
    from tests.aid.cases import _base, _hexes

    hexes = _hexes(g)
    base = _base(calc["inputs"])
    out = []
    for i in calc["inputs"]:
        if i["required"]:
            continue
        if i["id"] == "attacker_hexes" and hexes.get("sides"):
            a, d = hexes["sides"][0]
            out.append(dict(base, hex=d, attacker_hexes=[a]))
            continue
        elif i["id"] == "firer_hexes" and hexes.get("sides"):
            a, d = hexes["sides"][0]
            out.append(dict(base, hex=d, firer_hexes=[a]))
            continue
        elif i["id"] == "attacker_sectors" and g.map.adjacent:
            a, d = g.map.adjacent[0]
            out.append(dict(base, attack="12", sector=d, attacker_sectors=[a]))
            continue
        elif i["id"] == "mg_roll":
            mg = next(x for x in calc["inputs"] if x["id"] == "mg")
            out.append(dict(base, mg=mg["choices"][0]["value"] if mg["type"] == "choice"
                            else str(mg["min"]), mg_roll="7"))
            continue
        elif i["type"] == "int":
            v = str((i["min"] or 0) + 1 if i["max"] is None or (i["min"] or 0) < i["max"] else i["max"])
        elif i["type"] == "bool":
            v = True
        elif i["type"] == "choice":
            v = [i["choices"][-1]["value"]] if i["multiple"] else i["choices"][-1]["value"]
        elif hexes.get("terrain"):
            v = [hexes["terrain"][-1]] if i["multiple"] else hexes["terrain"][-1]
        else:
            continue
        out.append(dict(base, **{i["id"]: v}))
    return [(calc["id"], c, None) for c in out]


@pytest.mark.parametrize("where,name", GAMES, ids=[n for _, n in GAMES])
def test_every_input_changes_an_answer_or_is_named_as_changing_nothing(where, name):
    g = _load(where, name)
    todo = cases(g, limit_per_calc=60)
    for c in api.list_calculators(g):
        todo += _given_once(g, c)
    specs = {c["id"]: {i["id"]: i for i in c["inputs"]} for c in api.list_calculators(g)}
    given: set[tuple] = set()
    for calc_id, inputs, roll in todo:
        try:
            calc = api.calculate(g, calc_id, inputs, roll)
        except ValueError:
            continue
        named = {u["input"] for u in calc.unused}
        for raw in inputs:
            input_id = api.canonical_name(raw, list(api.describe_inputs(g, calc_id)))
            spec = specs[calc_id][input_id]
            value = calc.inputs.get(input_id)
            if spec["required"] or value in (None, False, [], 0, "") or value == spec["default"]:
                continue
            given.add((calc_id, input_id))
            rest = {k: v for k, v in inputs.items() if k != raw}
            try:
                other = api.calculate(g, calc_id, rest, roll, account=False).answer()
            except ValueError:
                other = None  # the answer needs it
            same = other == calc.answer()
            if same:
                assert input_id in named, (
                    f"{name} {calc_id} {inputs}: {input_id} changed nothing and the answer does "
                    f"not say so")
                line = next(u["text"] for u in calc.unused if u["input"] == input_id)
                assert "changed nothing" in line or line.split(": ", 1)[1].startswith("not "), line
            else:
                assert input_id not in named or spec["multiple"], (
                    f"{name} {calc_id} {inputs}: {input_id} changed the answer but is named as "
                    "changing nothing")
    declared = {(c, i) for c, ins in specs.items() for i, s in ins.items() if not s["required"]}
    missing = declared - given
    assert not missing, f"{name}: inputs never given by the walk: {sorted(missing)}"


# --- worked by hand from the seed text ----------------------------------------------------------
def vimy():
    return game("vimy-ridge")


def test_gas_on_turn_2_is_refused_citing_17_6():
    # 17.6: "During the first game turn (only), the Allied player may choose to use gas"
    c = api.calculate(vimy(), "bombardment", {"gas": "yes", "turn": 2})
    assert c.result == "not allowed" and "17.6" in c.outcome.meaning
    assert [o.result for o, _ in c.distribution] == ["not allowed"]
    # turn 1: the -2 applies (17.6), on a roll of 3: 3 - 2 = 1, a hit (Bombardment Table)
    c = api.calculate(vimy(), "bombardment", {"gas": "yes", "turn": 1}, roll=3)
    assert c.column == "modifier -2" and c.result.startswith("Hit")


def test_the_turn_is_required_on_the_bombardment_table():
    with pytest.raises(api.CalcError, match="missing input turn"):
        api.calculate(vimy(), "bombardment", {"gas": "yes"})
    spec = next(s for s in api.describe_inputs(vimy(), "bombardment") if s.id == "turn")
    assert spec.required


def test_night_comes_from_the_turn_record():
    # 13.1: moon turns are night turns; the modifiers chart gives +1 during any night turn.
    # Turn 3 is a night (Evening) turn of the turn record, turn 2 is not.
    assert api.calculate(vimy(), "bombardment", {"turn": 3}).column == "modifier +1"
    assert api.calculate(vimy(), "bombardment", {"turn": 2}).column == "modifier +0"


def test_a_terrain_that_changes_nothing_is_named():
    # the modifiers chart lists no modifier for hills (only the highest terrain modifier applies)
    c = api.calculate(vimy(), "bombardment", {"turn": 2, "terrain": "town,hill"})
    assert c.column == "modifier +2"
    lines = [u["text"] for u in c.unused]
    assert lines == [("terrain (Hill): changed nothing, no row, modifier or rule of this table "
                      "depends on Hill")]


def test_no_air_support_on_turn_1():
    # Veritable 5.0: no Air Support Phase on Game Turn 1; the turn is required on that table
    g = game("operation-veritable")
    c = api.calculate(g, "air-support", {"turn": 1, "surges": 0}, roll=4)
    assert c.result == "not allowed" and "5.0" in c.outcome.meaning
    with pytest.raises(api.CalcError, match="missing input turn"):
        api.calculate(g, "air-support", {"surges": 0}, roll=4)


def test_cli_prints_the_lines_in_the_working():
    from click.testing import CliRunner

    from builder.cli import main

    out = CliRunner().invoke(main, ["calc", "vimy-ridge", "bombardment", "turn=2",
                                    "terrain=town,hill"])
    assert out.exit_code == 0, out.output
    assert "terrain (Hill): changed nothing" in out.output
    out = CliRunner().invoke(main, ["calc", "vimy-ridge", "bombardment", "gas=yes", "turn=2"])
    assert out.exit_code == 0 and "not allowed" in out.output and "17.6" in out.output


def test_unused_inputs_are_named_in_player_words_not_their_ids():
    """A yes/no input by its label, a unit's attribute by its choice's label (not 'engineers',
    'defender_side german'), the same sentence builder.words.unused writes for the module."""
    from builder import words

    g = fixture("eastern-front")
    c = api.calculate(g, "crt", {"attack": 6, "defence": 2, "hex": "0505", "turn": 2,
                                 "defender_side": "german"}, roll=3)
    said = {u["input"]: u["text"] for u in c.unused}
    assert said["defender_side"].startswith("the defender's side German: changed nothing, ")
    c = api.calculate(fixture("hold-the-line"), "crt", {"attack": 6, "defence": 2, "hex": "0703",
                                                        "turn": 2, "engineers": True}, roll=3)
    said = {u["input"]: u["text"] for u in c.unused}
    why = "not applied, only when the defender is in a Stone building hex (3.8)"
    assert said["engineers"] == words.unused("Engineers attack with demolition charges", why)
    assert not any("_" in text.split(":")[0] for text in said.values())
