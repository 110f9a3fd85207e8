"""Generated situations for the equality suite (issue 38 item 5): for one table, battles drawn
with a fixed seed (places, attackers and the hexsides they cross, the units' sides and types,
strengths, every input on the marker, the dice), at least MIN each, and more until every rule the
module compiles has applied in one of them. Each is a Case: the Battle the module sees and the
inputs and roll `builder calc` gets for the same situation.
"""

from __future__ import annotations

import random
import re
import zlib

from builder.tables.common import place_bound
from builder.vassal.ids import sector_label
from builder.vassal_combat.beanshell import EvalError
from builder.vassal_combat.calculator import Calculator, factor_property, factor_values
from builder.vassal_combat.locations import location_names
from builder.vassal_combat.rules import UNIT_PROPERTY, static_nodes, static_value
from builder.vassal_combat.simulate import Battle, marker_source
from tests.vassal_combat.cases import Case, api_inputs

MIN = 60  # situations per table (the issue asks for at least 50)
SETTINGS = 8  # situations at least where each table setting the module applies acts
TRIES = 3000  # draws to find a situation where a rare rule applies
_TEST = re.compile(r'(\w+)=="([^"]*)"')
_STRENGTH = re.compile(r"\{(\w+)==(\d+)\}")  # a unit's printed strength (divide = per-unit)
# the names a table's calculator may take a place by (builder.tables.api.describe_inputs)
ALIASES = {"defender_hex": ("hex", "defender_hex"), "hex": ("hex", "defender_hex"),
           "target_hex": ("target_hex", "hex"), "target_sector": ("sector", "target_sector"),
           "sector": ("sector", "target_sector")}


def _selects(filter_text: str, unit) -> bool:
    """Whether a CountStack filter ({SideId=="x" || Type=="y"}) selects a unit's piece."""
    props = {v: str(getattr(unit, k)) for k, v in UNIT_PROPERTY.items()}
    return any(props.get(p) == v for p, v in _TEST.findall(filter_text))


def _counts(c: Calculator, units, attacker: bool, strength: int | None = None) -> dict[str, int]:
    """The stack counts the engine gives each CountStack property of a marker, for these units
    (an attacking stack of one unit of this strength)."""
    out = {}
    calls = dict(c.attacker if attacker else c.props)
    for name, call in c.engine.items():
        m = re.fullmatch(r'CountStack\("(.*)"\)', call)
        if m and name in calls:
            text = m.group(1).replace('\\"', '"')
            by_strength = _STRENGTH.fullmatch(text)
            if by_strength:
                out[text] = int(strength == int(by_strength.group(2)))
            else:
                out[text] = sum(_selects(text, u) for u in units)
    return out


def _by_strength(c: Calculator) -> bool:
    """Whether the module counts attacking units by their printed strength (divide =
    per-unit): then each attacking stack is one unit of a printed strength."""
    return any(_STRENGTH.search(call) for name, call in c.engine.items()
               if name in dict(c.attacker))


class Drawer:
    """Situations for one table of one game."""

    def __init__(self, game, t, c: Calculator):
        self.game, self.t, self.c = game, t, c
        self.rng = random.Random(zlib.crc32(f"{game.slug}/{t.id}".encode()))
        self.places = location_names(game)
        self.nodes = static_nodes(t)
        self.units = list(game.units)
        from builder.tables.rules import roles_used

        self.roles = roles_used(t)  # the attributes the table's rules test, per role
        from builder.tables.api import describe_inputs

        self.accepted = {s.id for s in describe_inputs(game, t.id)}
        self.att = factor_property(game, "attack") if game.info.factor_names else ""
        self.dfn = factor_property(game, "defence") if game.info.factor_names else ""
        # places where a rule's place test holds, and hexsides a rule's 'across' names
        self.marked = [(n, p) for n, p in self.places
                       if any(static_value(game, node, p) for node in self.nodes)]
        wanted = {s for r in t.rules for w in ([r.when] if r.when else [])
                  for node in w.walk() for s in node.across}
        if hasattr(t, "terrain_rows"):
            wanted |= {s for row in t.terrain_rows for s in row.hexsides}
        self.sides = []
        if game.is_hex and wanted:
            from builder.vassal_combat.places import hexside_types

            self.sides = [(a, b) for a, b, types in hexside_types(game) if set(types) & wanted]

    # --- pieces of a situation ---------------------------------------------------------------
    def _inputs(self) -> dict:
        out = {}
        for i in self.c.inputs:
            r = self.rng
            if i.kind == "toggle":
                out[i.prop] = int(r.random() < 0.4)
            elif i.kind == "count":
                out[i.prop] = r.randint(i.min, i.max)
            elif i.kind == "number":
                out[i.prop] = r.randint(i.min, min(i.max, i.min + 12))
            elif i.kind in ("choice", "board") and i.choices:
                out[i.prop] = r.choice(i.choices)
        return out

    def _dice(self) -> dict:
        """Each die the marker rolls on Resolve (its Random(n) terms summed)."""
        return {prop: sum(self.rng.randint(1, int(k)) for k in re.findall(r"Random\((\d+)\)", e))
                for prop, e in self.c.dice}

    def _place(self):
        r = self.rng
        if self.sides and r.random() < 0.45:
            a, b = r.choice(self.sides)
            return b, [a]
        if self.marked and r.random() < 0.4:
            return r.choice(self.marked)[0], []
        return r.choice(self.places)[0], []

    def _neighbours(self, at: str) -> list[str]:
        g = self.game
        if g.is_hex:
            return [g.grid.label(n) for n in g.grid.neighbours(g.hex(at))
                    if g.grid.contains(n)]
        sid = next(p for n, p in self.places if n == at)
        return [a if b == sid else b for a, b in g.map.adjacent if sid in (a, b)]

    # --- one situation ---------------------------------------------------------------------------
    def draw(self) -> Case | None:
        """A situation; the calculator gets only the inputs its table takes."""
        case = self._draw()
        if case is not None:
            case.inputs = {self._name(k): v for k, v in case.inputs.items()
                           if self._name(k) in self.accepted}
        return case

    def _name(self, key: str) -> str:
        """The name the table's calculator takes a place input by."""
        return next((k for k in ALIASES.get(key, ()) if k in self.accepted), key)

    def _draw(self) -> Case | None:
        kind = self.t.kind
        inputs = self._inputs()
        dice = self._dice()
        if kind == "lookup":
            b = Battle(at="", inputs=inputs, dice=dice)
            return Case(b, api_inputs(self.c, inputs), dice.get("CombatDie"), "drawn")
        at, first = self._place()
        defender = self.rng.choice(self.units) if self.units else None
        stack = _counts(self.c, [defender] if defender else [], attacker=False)
        api = api_inputs(self.c, inputs)
        for role in ("defender", "target"):
            for attr in self.roles.get(role, ()):
                if defender is not None and getattr(defender, attr):
                    api[f"{role}_{attr}"] = getattr(defender, attr)
        if kind in ("fire", "modified-roll"):
            b = Battle(at=at, stack=stack, inputs=inputs, dice=dice)
            key = "target_hex" if self.game.is_hex else "target_sector"
            api[key] = at if self.game.is_hex else self._sector(at)
            if kind == "fire" and "CombatDie" in dice:  # one strength, one roll
                return Case(b, api, dice.get("CombatDie"), "drawn")
            if kind == "fire" and self.c.unit_props:  # the firing units on their hexes
                self._firers(b, api, at)
            m = int(inputs.get("CombatMarkers", 1))
            rolls = [dice.get(f"CombatDie{i + 1}", 1) for i in range(m)]
            return Case(b, api, ",".join(map(str, rolls)), "drawn")
        # an attack: one to three attackers next to the defender
        near = self._neighbours(at)
        if not near:
            return None
        n = self.rng.randint(1, min(3, len(near)))
        attackers = list(dict.fromkeys(first + self.rng.sample(near, n)))[:3]
        units = [self.rng.choice(self.units) for _ in attackers]
        if _by_strength(self.c):  # each attacking stack is one unit of a printed strength
            printed = factor_values(self.game, self.att)
            strengths = [self.rng.choice(printed) for _ in attackers]
        else:
            strengths = [self.rng.randint(0, 12) for _ in attackers]
        defence = self.rng.randint(1, 14)
        stack[self.dfn] = defence
        b = Battle(at=at, stack=stack, inputs=inputs, dice=dice)
        b.attackers = [(a, {self.att: s, **_counts(self.c, [u], True, s)})
                       for a, s, u in zip(attackers, strengths, units)]
        for attr in self.roles.get("attacker", ()):
            api[f"attacker_{attr}"] = sorted({getattr(u, attr) for u in units if getattr(u, attr)})
        api["defence"] = defence
        if kind == "differential" and self.game.is_hex:
            api.update({"attack": sum(strengths), "defender_hex": at,
                        "attacker_hexes": ",".join(attackers)})
        elif kind == "differential":
            api.update({"attack": sum(strengths), "sector": self._sector(at)})
        elif self.game.is_hex:
            api.update({"attack": ",".join(map(str, strengths)), "hex": at,
                        "attacker_hexes": ",".join(attackers)})
        else:
            sectors = [self._sector(a) for a in attackers]
            b.attackers = [(sector_label(self.game, s), tot)
                           for s, (_, tot) in zip(sectors, b.attackers)]
            api.update({"attack": ",".join(map(str, strengths)), "sector": self._sector(at),
                        "attacker_sectors": ",".join(sectors)})
            self._machine_guns(api, sectors, dice)
        return Case(b, api, dice.get("CombatDie"), "drawn")

    def _firers(self, b: Battle, api: dict, at: str) -> None:
        """One to three units that print the table's factor, each on a hex up to twice its
        range (and a little more) from the target; the calculator gets them unit by unit."""
        from builder.vassal.pieces import prop_name

        g, t = self.game, self.t
        units = [u for u in g.units if u.type in self.c.unit_types
                 and t.strength in g.factor_names_of(u)]
        n = self.rng.randint(1, 3) if t.fire_group else 1
        target = g.hex(at)
        strengths, hexes, ranges = [], [], []
        for _ in range(n):
            u = self.rng.choice(units)
            props = {prop_name(k): v for k, v in zip(g.factor_names_of(u), u.factors())
                     if v is not None}
            reach = 2 * props.get("Range", 4) + 2
            near = [h for h in g.grid.all_hexes() if 1 <= g.grid.distance(h, target) <= reach]
            h = g.grid.label(self.rng.choice(near))
            b.attackers.append((h, [props]))
            strengths.append(props.get(prop_name(t.strength), 0))
            hexes.append(h)
            ranges.append(props.get("Range", 0))
        api[t.strength_input] = ",".join(map(str, strengths))
        api["firer_hexes"] = hexes
        api["range"] = ",".join(map(str, ranges))

    def _sector(self, label_or_id: str) -> str:
        for n, p in self.places:
            if label_or_id in (n, p):
                return p
        return label_or_id

    def _machine_guns(self, api: dict, sectors: list[str], dice: dict) -> None:
        fire = self.game.table_by_id.get(getattr(self.t, "fire_first", "") or "")
        s = self.game.sector_by_id[api["sector"]]
        if fire is not None and s.mg and (not s.fire_arc or set(sectors) & set(s.fire_arc)):
            api["mg_roll"] = dice.get("CombatFireDie")


def rule_uses(c: Calculator, case: Case) -> dict[str, int]:
    """rule id -> the uses the module gives it in this situation (0: it does not apply)."""
    src = marker_source(c, case.battle)
    out = {}
    prefix = f"CombatUse_{c.table_id.replace('-', '_')}_"
    for name, _ in c.props:
        if name.startswith(prefix):
            try:
                out[name[len(prefix):]] = int(src.get(name) or 0)
            except (ValueError, EvalError):
                out[name[len(prefix):]] = 0
    return out


def settings_acting(t, c: Calculator, case: Case) -> set[str]:
    """The combat table settings that act in a situation, as the module computes it: ends
    after the shifts (odds or a differential past an end), divide = per-unit (several attackers
    against terrain that divides), a modifier for terrain or a region (the place has it)."""
    if t.kind not in ("ratio", "differential"):
        return set()
    src = marker_source(c, case.battle)

    def num(name: str) -> int:
        try:
            return int(src.get(name) or 0)
        except (ValueError, EvalError):
            return 0
    out = set()
    if t.ends == "after-shifts":
        at = num("CombatOddsCol") if t.kind == "ratio" else num("CombatBase")
        last = len(t.columns) - 1 if t.kind == "ratio" else t.columns - 1
        if not 0 <= at <= last:
            out.add("ends")
    if _by_strength(c) and len(case.battle.attackers) > 1 and \
            num("CombatDivided") != num("CombatAttack"):
        out.add("divide")
    line = str(src.get("CombatLine") or "")
    if any(f", {m.label} " in line for m in t.modifiers if place_bound(m)):
        out.add("modifiers")
    return out


def settings_wanted(t, c: Calculator) -> set[str]:
    """The settings of settings_acting that the table has."""
    if t.kind not in ("ratio", "differential"):
        return set()
    out = {"ends"} if t.ends == "after-shifts" else set()
    if _by_strength(c):
        out.add("divide")
    if any(place_bound(m) for m in t.modifiers):
        out.add("modifiers")
    return out


def situations(game, t, c: Calculator, valid) -> list[Case]:
    """At least MIN situations `valid` accepts (the calculator resolves them), then more until
    every rule the module compiles has applied in one (as far as TRIES draws can find one), and
    each table setting the module applies has acted in SETTINGS of them."""
    d = Drawer(game, t, c)
    out: list[Case] = []
    tries = 0
    while len(out) < MIN and tries < MIN * 20:
        tries += 1
        case = d.draw()
        if case is not None and valid(case):
            out.append(case)
    applied: set[str] = set()
    for case in out:
        applied |= {k for k, n in rule_uses(c, case).items() if n > 0}
    wanted = {k for k in rule_uses(c, out[0])} if out else set()
    tries = 0
    while wanted - applied and tries < TRIES:
        tries += 1
        case = d.draw()
        if case is None:
            continue
        new = {k for k, n in rule_uses(c, case).items() if n > 0} - applied
        if new and valid(case):
            out.append(case)
            applied |= new
    acted: dict[str, int] = {}
    for case in out:
        for k in settings_acting(t, c, case):
            acted[k] = acted.get(k, 0) + 1
    wanted = settings_wanted(t, c)
    tries = 0
    while any(acted.get(k, 0) < SETTINGS for k in wanted) and tries < TRIES:
        tries += 1
        case = d.draw()
        if case is None:
            continue
        new = {k for k in settings_acting(t, c, case) if acted.get(k, 0) < SETTINGS}
        if new and valid(case):
            out.append(case)
            for k in new:
                acted[k] = acted.get(k, 0) + 1
    return out
