"""Every table kind against every effect kind: each combination is either applied (the answer
changes when the rule is on) or refused by the loader with the effect named. Nothing written is
silently ignored. Conditions get the same walk: a kind either evaluates a condition key or the
loader refuses it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.errors import SourceError
from builder.load import load_game
from builder.tables.api import calculate
from builder.tables.effects import CONDITIONS, EFFECTS

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "eastern-front"

# the results of both four-column combat tables below
COMBAT_RESULTS = '''[tables.results]
"1" = ["A", "A", "B", "C"]
"2" = ["A", "B", "B", "C"]
"3" = ["A", "B", "C", "C"]
"4" = ["B", "B", "C", "D"]
"5" = ["B", "C", "C", "D"]
"6" = ["B", "C", "D", "D"]
'''

# one small table per kind, with the inputs that make every effect visible
TABLES = {
    "ratio": ('''kind = "ratio"
dice = "1d6"
columns = ["1:2", "1:1", "2:1", "3:1"]
rounding = "down"
''' + COMBAT_RESULTS, {"attack": 4, "defence": 2}),
    "differential": ('''kind = "differential"
dice = "1d6"
columns = 4
default_row = "Clear"
terrain_rows = [
  { name = "Clear", differentials = ["<=0", "+1..+2", "+3..+4", ">=+5"] },
  { name = "Rough", differentials = ["<=2", "+3..+4", "+5..+6", ">=+7"] },
]
''' + COMBAT_RESULTS, {"attack": 4, "defence": 2}),
    "fire": ('''kind = "fire"
dice = "1d6"
bands = ["1-2", "3-4", "5-6"]
[tables.results]
"1" = ["1", "2", "3"]
"2" = ["1", "2", "3"]
"3" = ["-", "1", "2"]
"4" = ["-", "1", "2"]
"5" = ["-", "-", "1"]
"6" = ["-", "-", "-"]
''', {"firepower": 3}),
    "modified-roll": ('''kind = "modified-roll"
dice = "1d6"
[tables.results]
"1" = "Hit"
"2" = "Hit"
"3" = "-"
"4" = "-"
"5" = "-"
"6" = "-"
''', {}),
    "lookup": ('''kind = "lookup"
dice = "1d6"
entries = [{ when = "1-2", result = "Hit" }, { when = "else", result = "Miss" }]
''', {}),
    "value-lookup": ('''kind = "lookup"
key = "vp"
inputs = [{ id = "vp", name = "victory points", min = 0, max = 9 }]
entries = [{ when = "<=4", result = "Loss" }, { when = "else", result = "Win" }]
''', {"vp": 3}),
    "chart": ('''kind = "chart"
columns = ["Terrain", "Effect"]
rows = [["Forest", "-1"]]
''', {}),
    "line-of-sight": ('''kind = "line-of-sight"
max_range = 5
''', None),
    "range": ('''kind = "range"
max = 3
''', None),
}

# each effect, as a player-set rule (its input id is 'x'); cancels works on rule 'base'
VALUES = {
    "prohibited": 'prohibited = "9.9"',
    "cancels": 'cancels = "base"',
    "attack_divisor": "attack_divisor = 2",
    "attack_multiplier": "attack_multiplier = 2",
    "defence_divisor": "defence_divisor = 2",
    "defence_multiplier": "defence_multiplier = 2",
    "row": 'row = "Rough"',
    "column": 'column = "{first}"',
    "shift": "shift = 1",
    "cap": 'cap = "{first}"',
    "drm": "drm = 1",
    "replace": 'replace = {{ "{result}" = "Z" }}',
}
FIRST = {"ratio": "1:2", "fire": "1-2"}  # each kind's first column as a rule names it
RESULT = {"ratio": "C", "differential": "C", "fire": "-", "modified-roll": "Hit", "lookup": "Hit",
          "value-lookup": "Loss", "chart": "x", "line-of-sight": "x", "range": "x"}


def _write(tmp_path: Path, kind: str, rules: str, head: str = "") -> Path:
    folder = tmp_path / "game"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(FIXTURE, folder)
    body, _ = TABLES[kind]
    first = FIRST.get(kind, "1")
    text = ('[[tables]]\nid = "t"\nname = "T"\n' + head + body + rules).replace("{first}", first)
    (folder / "tables.toml").write_text(text.replace("{result}", RESULT[kind]))
    return folder


def _rule(effect: str, kind: str) -> str:
    base = ""
    if effect == "cancels":  # a rule to cancel: a shift on combat tables, a modifier on rolls
        other = "shift = 1" if kind in ("ratio", "differential") else "drm = -1"
        base = f'[[tables.rules]]\nid = "base"\nlabel = "base"\n{other}\n'
    value = VALUES[effect].replace("{first}", FIRST.get(kind, "1"))
    value = value.replace("{{", "{").replace("}}", "}").replace("{result}", RESULT[kind])
    return base + f'[[tables.rules]]\nid = "x"\nlabel = "x"\n{value}\n'


def _answer(game, inputs: dict) -> tuple:
    c = calculate(game, "t", inputs)
    return c.column, c.result, [(o.result, p) for o, p in c.distribution]


@pytest.mark.parametrize("effect", list(EFFECTS))
@pytest.mark.parametrize("kind", list(TABLES))
def test_effect_is_applied_or_refused(tmp_path, kind, effect):
    folder = _write(tmp_path, kind, _rule(effect, kind))
    try:
        game = load_game(folder)
    except SourceError as exc:
        text = str(exc)
        assert "tables.toml" in text and (effect in text or "takes no rules" in text), text
        assert "fix:" in text or "(fix" in text or "use" in text, text
        return
    _, inputs = TABLES[kind]
    assert inputs is not None, f"a {kind} table accepted '{effect}' but cannot be calculated"
    if effect == "cancels":
        on, off = {**inputs, "base": True, "x": True}, {**inputs, "base": True}
    else:
        on, off = {**inputs, "x": True}, dict(inputs)
    assert _answer(game, on) != _answer(game, off), f"{kind}: '{effect}' changed nothing"


CONDITION_VALUES = {
    "turn": 'turn = "1"', "period": 'period = ["mud"]', "scenario": 'scenario = ["none"]',
    "flag": 'flag = "f"', "attacker": 'attacker = { side = ["german"] }',
    "defender": 'defender = { side = ["soviet"] }', "firer": 'firer = { side = ["german"] }',
    "target": 'target = { side = ["soviet"] }', "terrain": 'terrain = ["forest"]',
    "region": 'region = ["nowhere"]', "place": 'place = "Kalinin"',
    "within": 'place = "Kalinin", within = 2', "distance": 'distance = ">range"', "across": 'across = ["river"]',
    "attackers": 'across = ["river"], attackers = "all"', "all": 'all = [{ turn = "1" }]',
    "any": 'any = [{ turn = "1" }]', "not_": 'not = { turn = "1" }', "input": 'input = { vp = "2" }',
}


@pytest.mark.parametrize("key", list(CONDITIONS))
@pytest.mark.parametrize("kind", ["ratio", "differential", "fire", "modified-roll", "lookup"])
def test_condition_is_evaluated_or_refused(tmp_path, kind, key):
    effect = "replace"  # every ruled kind takes it
    value = VALUES[effect].replace("{{", "{").replace("}}", "}").replace("{result}", RESULT[kind])
    rule = (f'[[tables.rules]]\nid = "x"\nlabel = "x"\n'
            f'when = {{ {CONDITION_VALUES[key]} }}\n{value}\n')
    folder = _write(tmp_path, kind, rule, 'flags = { f = "F?" }\n' if key == "flag" else "")
    try:
        load_game(folder)
    except SourceError as exc:
        text = str(exc)
        # refused: because the kind cannot test it, or a name the fixture lacks (scenario, region)
        assert "tables.toml" in text, text
        if key not in ("scenario", "region", "flag", "input"):
            assert f"cannot test '{key}'" in text or "no hex" in text or "per-unit" in text, text
        return
    assert kind in CONDITIONS[key][0], f"a {kind} table accepted '{key}' it cannot test"
