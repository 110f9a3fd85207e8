"""What a table becomes in the module, as data: properties, player inputs, dice, map data, report.

A Calculator belongs to one table. Its resolution marker (dropped on the defender's or target's
place) carries the inputs (dynamic properties the player sets from the marker's menu), the dice
(rolled on 'Resolve') and the calculated properties; attack markers (dropped on each attacking
place) carry `attacker` properties that the resolution marker sums. `engine` names the
properties whose expression is a call the engine answers from the pieces (SumStack, Sum): tests
give their values directly. `line` is the calculated property holding the chat line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from builder.tables import dice as tdice
from builder.vassal import expr as x
from builder.vassal.traits import trait_expression

PREFIX = "Combat"  # every property the generator adds starts so (no clash with unit factors)


@dataclass(frozen=True)
class Input:
    """A player's choice on the resolution marker (a dynamic property with menu commands).

    kind: 'toggle' (0/1), 'count' (0..max, or min..max), 'number' (prompted), 'choice' (listed);
    'board': not asked, the module reads it from the board (the turn from the turn track's
    global 'Turn': choices are its labels, turn min + index).
    api: the rules assistant's input id it answers, and how its value maps (see tests).
    """

    prop: str
    label: str
    kind: str
    default: str = "0"
    min: int = 0
    max: int = 1
    choices: tuple[str, ...] = ()
    api: str = ""
    api_member: str = ""  # for one member of a multi-choice input: the member's id


@dataclass
class Calculator:
    table_id: str
    name: str
    kind: str
    marker: str  # the resolution marker's name in the palette
    place: str = "target"  # where the marker is dropped: 'defender', 'target' or 'anywhere'
    props: list[tuple[str, str]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    dice: list[tuple[str, str]] = field(default_factory=list)  # (property, Random expression)
    attacker: list[tuple[str, str]] = field(default_factory=list)
    attacker_marks: list[tuple[str, str]] = field(default_factory=list)  # constant properties
    attacker_name: str = ""
    data: dict[str, str] = field(default_factory=dict)  # global property -> value
    at_property: str = ""  # global property: where the resolution marker stands
    # global properties the marker sets on Resolve (before reporting) from its own properties,
    # for the attack markers to read: global name -> marker property
    published: dict[str, str] = field(default_factory=dict)
    engine: dict[str, str] = field(default_factory=dict)  # property -> engine call it holds
    line: str = PREFIX + "Line"
    # the chat line's format: text with $property$ references (VASSAL substitutes their text, so
    # a location such as 0302 keeps its leading zero, which an expression cannot see)
    report: str = "$" + PREFIX + "Line$"
    notes: list[str] = field(default_factory=list)
    # calculated properties each firing unit carries (its firepower under the rules that hold
    # for it: builder.vassal_combat.fire), on the counters of these unit types
    unit_props: list[tuple[str, str]] = field(default_factory=list)
    unit_types: tuple[str, ...] = ()
    by_hand: list[str] = field(default_factory=list)  # rule ids the player applies by hand

    def prop(self, name: str, expression: str) -> str:
        """Add a calculated property to the resolution marker; returns its name."""
        if any(n == name for n, _ in self.props):
            raise ValueError(f"{self.table_id}: property {name} defined twice")
        self.props.append((name, expression))
        return name

    def engine_prop(self, name: str, call: str, attacker: bool = False) -> str:
        """A property whose value the engine computes from the pieces (SumStack, Sum)."""
        (self.attacker if attacker else self.props).append((name, call))
        self.engine[name] = call
        return name

    def roll(self, name: str, dice: str) -> str:
        """A die roll stored on Resolve; its total is the property."""
        n, sides = tdice.parse_dice(dice)
        self.dice.append((name, " + ".join([f"Random({sides})"] * n)))
        return name

    def calcs(self) -> dict[str, str]:
        """The resolution marker's calculated properties, as its traits hold them."""
        return {n: trait_expression(e) for n, e in self.props}

    def attacker_calcs(self) -> dict[str, str]:
        """An attack marker's calculated properties, as its traits hold them."""
        return {n: trait_expression(e) for n, e in self.attacker}


def factor_property(game, role: str) -> str:
    """The unit property holding the attacking or defending strength, from the factor names.

    'attack': the first factor named like attack/strength/combat, else the first factor;
    'defence': the first named like defence/defense, else the attack factor.
    """
    from builder.vassal.pieces import prop_name

    names = list(game.all_factor_names)
    if not names:
        raise ValueError(f"{game.slug}: counters have no factors to total")
    pattern = r"attack|strength|combat|fire" if role == "attack" else r"defen[cs]e"
    for n in names:
        if re.search(pattern, n, re.IGNORECASE):
            return prop_name(n)
    return factor_property(game, "attack") if role == "defence" else prop_name(names[0])


def factor_values(game, prop: str) -> list[int]:
    """The strengths a unit's piece may show in a factor property (front and back, as
    builder.vassal.pieces prints them), without 0 (a unit of no strength adds nothing)."""
    from builder.model.counters import factor_value, split_factors
    from builder.vassal.pieces import prop_name

    names = [prop_name(n) for n in game.info.factor_names]
    if prop not in names:
        return []
    k = names.index(prop)
    found = set()
    for u in game.units:
        for face in (u.front, u.back):
            parts = split_factors(face) if face else []
            v = factor_value(parts[k]) if k < len(parts) else None
            if v:
                found.add(v)
    return sorted(found)


# --- pieces every kind shares ------------------------------------------------------------------
def shift_inputs(c: Calculator, shifts) -> list[tuple[str, int]]:
    """An input per column shift; returns (property, columns) pairs."""
    out = []
    for s in shifts:
        prop = f"{PREFIX}Shift_{x.ident(s.id)}"
        if s.max_uses == 1:
            c.inputs.append(Input(prop, s.label, "toggle", api=s.id))
        else:
            c.inputs.append(Input(prop, s.label, "count", max=s.max_uses or 9, api=s.id))
        out.append((prop, s.columns))
    return out


def shift_total(pairs) -> str:
    return " + ".join(f"{p} * {x.lit(n)}" for p, n in pairs) if pairs else "0"


def results_lookup(rows: dict, roll: str, col: str, cell) -> str:
    """A two-level lookup: the row by the (clamped) roll, then the column; cell(text) -> value."""
    cases = []
    keys = sorted(rows, key=int)
    for k in keys:
        cells = [cell(v) for v in rows[k]]
        inner = x.index_lookup(col, cells) if len(set(cells)) > 1 else x.lit(cells[0])
        cases.append((f"{roll} == {int(k)}", inner))
    last = cases.pop()[1]
    return x.choose(cases, last)
