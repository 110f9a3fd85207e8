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


def modifier_inputs(c: Calculator, mods, from_map: set[str] = frozenset()) -> list[tuple[str, str]]:
    """Inputs for roll modifiers; returns (name, expression of its contribution) per modifier.

    Modifiers in a group ('only the highest applies') are toggles whose best value counts;
    groups in `from_map` are read from the map by the caller instead.
    """
    groups: dict[str, list] = {}
    for m in mods:
        if m.group:
            groups.setdefault(m.group, []).append(m)
    parts = []
    seen: set[str] = set()
    for m in mods:
        if m.group:
            if m.group in seen or m.group in from_map:
                continue
            seen.add(m.group)
            members = groups[m.group]
            props = []
            for mm in members:
                prop = f"{PREFIX}Mod_{x.ident(mm.id)}"
                c.inputs.append(Input(prop, f"{mm.label} ({mm.value:+d})", "toggle",
                                      api=_slug(m.group), api_member=mm.id))
                props.append((prop, mm.value))
            on = x.any_of(f"{p} == 1" for p, _ in props)
            best = x.maximum(f"{p} == 1 ? {x.lit(v)} : -{x.BIG}" for p, v in props)
            parts.append((m.group, f"{x.paren(on)} ? {x.paren(best)} : 0"))
            continue
        prop = f"{PREFIX}Mod_{x.ident(m.id)}"
        if m.values:  # the player picks the value (a leader's printed modifier)
            c.inputs.append(Input(prop, m.label, "choice", default="0",
                                  choices=("0",) + tuple(f"{v:+d}" for v in m.values), api=m.id))
            parts.append((m.label, prop))
            continue
        if m.max_uses in (None, 1):
            c.inputs.append(Input(prop, f"{m.label} ({m.value:+d})", "toggle", api=m.id))
        else:
            c.inputs.append(Input(prop, f"{m.label} ({m.value:+d} each)", "count",
                                  max=m.max_uses, api=m.id))
        parts.append((m.label, f"{prop} * {x.lit(m.value)}"))
    return parts


def _slug(text: str) -> str:
    from builder.tables.common import slug

    return slug(text)


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
