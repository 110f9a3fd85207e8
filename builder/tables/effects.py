"""What every rule effect and condition means, said once.

Each effect names the stage of a calculation it acts at, the operation it performs there, which
value is best for the defender (for tables that combine 'best-for-defender') and the table kinds
that take it. The Python engine (builder.tables.rules), the aid's JavaScript engine (which
receives this description as data, see builder.aid.engine_data) and the module generator all
apply effects through these stage and operation names, and the loader refuses an effect or
condition on a kind not listed here, so nothing written is silently ignored.

Stages, in the order a calculation applies them:
  gate      prohibited: the whole calculation is refused, with the rule number
  cancel    cancels: the uses of another rule are reduced one for one, never below zero
  attack    attack strength (a fire table's firepower) times a factor (multiplier, or 1/divisor),
            rounded once; a fire rule that tests distance changes each unit it holds for
  defence   defence strength times a factor, rounded once
  row       differential: the named row joins the rows that apply (the table's row_choice picks)
  column    the column read is set (before shifts)
  shift     columns added (+ toward the attacker); past an end: beyond_low / beyond_high
  cap       the column read is at most this one (after shifts)
  roll      added to the roll
  result    a result read is replaced by another
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

COMBAT = ("ratio", "differential")
COLUMNS = ("ratio", "differential", "fire")  # kinds whose columns rules move
ROLLED = ("ratio", "differential", "fire", "modified-roll", "lookup")
RULED = ("ratio", "differential", "fire", "modified-roll", "lookup")  # kinds that take rules
COMBINE = ("cumulative", "best-for-defender", "first")


@dataclass(frozen=True)
class Effect:
    stage: str
    op: str  # refuse | cancel | factor-mul | factor-div | set | add | limit | map
    kinds: tuple[str, ...]
    best: str = ""  # 'min' or 'max': the value best for the defender; '' when it has no direction
    means: str = ""
    example: str = ""


EFFECTS: dict[str, Effect] = {
    "prohibited": Effect("gate", "refuse", RULED, means="not allowed; says the rule number",
                         example='when = { terrain = ["woods"], place = "Petit Vimy", within = 7 }\n'
                                 'prohibited = "17.2"'),
    "cancels": Effect("cancel", "cancel", ROLLED,
                      means="each use cancels one use of another rule, down to zero, never past",
                      example='cancels = "79th-armoured-attack"\nmax_uses = 3'),
    "attack_divisor": Effect("attack", "factor-div", COLUMNS, best="max",
                             means="attack strength divided (rounded as the rule or table says)",
                             example='when = { period = ["mud"] }\nattack_divisor = 2'),
    "attack_multiplier": Effect("attack", "factor-mul", COLUMNS, best="min",
                                means="attack strength multiplied",
                                example='when = { flag = "shock" }\nattack_multiplier = 2'),
    "defence_divisor": Effect("defence", "factor-div", COMBAT, best="min",
                              means="defence strength divided",
                              example='when = { terrain = ["swamp"] }\ndefence_divisor = 2'),
    "defence_multiplier": Effect("defence", "factor-mul", COMBAT, best="max",
                                 means="defence strength multiplied",
                                 example='when = { terrain = ["city"], defender = { side = ["soviet"] } }\n'
                                         'defence_multiplier = 2'),
    "row": Effect("row", "set", ("differential",),
                  means="this row is read (with others that apply, the table's row_choice picks)",
                  example='when = { flag = "beach-assault", terrain = ["coastal"] }\n'
                          'row = "Beach assault"'),
    "column": Effect("column", "set", COLUMNS, means="this column is read, before shifts",
                     example='when = { turn = "1" }\ncolumn = "1:1"'),
    "shift": Effect("shift", "add", COLUMNS, best="min",
                    means="columns added, + toward the attacker",
                    example='when = { across = ["river"], attackers = "all" }\nshift = -1'),
    "cap": Effect("cap", "limit", COLUMNS,
                  means="the column read is at most this one, after shifts",
                  example='when = { terrain = ["fortress"] }\ncap = "3:1"'),
    "drm": Effect("roll", "add", ROLLED, means="added to the roll",
                  example='when = { period = ["night"] }\ndrm = 1'),
    "replace": Effect("result", "map", RULED, means="a result read is replaced by another",
                      example='when = { defender = { type = ["hq"] } }\nreplace = { "EX" = "DE" }'),
}

STAGES = ("gate", "cancel", "attack", "defence", "row", "column", "shift", "cap", "roll", "result")

# condition key -> kinds that can evaluate it (and where the fact comes from)
_PLACE = ("ratio", "differential", "fire", "modified-roll")
CONDITIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "turn": (RULED, "the turn input"),
    "period": (RULED, "the turn input, looked up in the turn record"),
    "scenario": (RULED, "the scenario input"),
    "flag": (RULED, "a yes/no input named in the table's flags"),
    "input": (("lookup",), "the lookup table's own number inputs"),
    "attacker": (COMBAT, "attacker_<attribute> inputs (any attacking unit)"),
    "defender": (COMBAT, "defender_<attribute> inputs"),
    "firer": (("fire", "modified-roll"), "firer_<attribute> inputs"),
    "target": (("fire", "modified-roll"), "target_<attribute> inputs"),
    "terrain": (_PLACE, "the defender's (target's) terrain input or every terrain of its hex"),
    "region": (_PLACE, "the defender's (target's) hex"),
    "place": (_PLACE, "the defender's (target's) hex"),
    "within": (_PLACE, "with place"),
    "distance": (("fire",), "each firing unit's distance (or hex) and range inputs"),
    "across": (COMBAT, "the attackers' hexes and the defender's hex (hex maps)"),
    "attackers": (COMBAT, "with across"),
    "all": (RULED, "nested conditions"),
    "any": (RULED, "nested conditions"),
    "not_": (RULED, "a nested condition"),
}


def takes(kind: str, effect: str) -> bool:
    """Whether a table kind applies this effect."""
    return kind in EFFECTS[effect].kinds


def description() -> dict:
    """The whole description as plain data (the aid's engine and the module follow it)."""
    return {"effects": {k: asdict(v) for k, v in EFFECTS.items()}, "stages": list(STAGES),
            "conditions": {k: list(v[0]) for k, v in CONDITIONS.items()}}
