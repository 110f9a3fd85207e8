"""Rules as data: a condition ('when') and one effect, usable on any table that can take it.

A table's `[[tables.rules]]` say what changes an attack, a fire or a roll, and when. What each
effect and condition means (what it reads, what it changes, how several combine, which table
kinds take it) is described once, in builder.tables.effects; the Python engine, the aid's
JavaScript engine and the module generator follow that description. Which kinds take which
effect, and references to terrain, hexsides, places and sides, are checked when the game loads.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from builder.model.base import Ident, Model, Sourced
from builder.model.rolls import RollSpec

Rounding = Literal["half-down", "half-up", "down", "up", "nearest"]
Roles = Literal["attacker", "defender", "firer", "target"]

# the effect fields of a rule, in the order a calculation applies them (see tables.effects)
EFFECT_FIELDS = ("prohibited", "cancels", "attack_divisor", "attack_multiplier", "defence_divisor",
                 "defence_multiplier", "row", "column", "shift", "cap", "drm", "replace")


class When(Model):
    """When a rule applies: every field given must hold (and); all/any/not combine conditions."""

    turn: str = Field(default="", description="turn number or range: '1', '3-5', '>=7'")
    period: tuple[str, ...] = Field(
        default=(), description="named periods or weather from the turn record (game.toml "
        "turns.detail period, or 'night'): ['mud']")
    scenario: tuple[str, ...] = Field(default=(), description="scenario ids")
    attacker: dict[str, tuple[str, ...]] = Field(
        default={}, description="counter attributes of an attacking unit: { side = ['german'] }; "
        "keys: side, formation, type, size")
    defender: dict[str, tuple[str, ...]] = Field(default={}, description="as attacker, the defender")
    firer: dict[str, tuple[str, ...]] = Field(default={}, description="as attacker, the firing unit")
    target: dict[str, tuple[str, ...]] = Field(default={}, description="as attacker, the target")
    terrain: tuple[str, ...] = Field(
        default=(), description="terrain ids: holds when any of them is in the defender's (target's) "
        "hex, every terrain of the hex counted")
    region: tuple[str, ...] = Field(default=(), description="map region ids holding the hex")
    place: str = Field(default="", description="a named place (a map label's text)")
    within: int = Field(default=0, ge=0, le=100,
                        description="with place: holds within this many hexes of it (0: its hex)")
    distance: str = Field(
        default="", description="fire tables: the firing unit's distance to the target in hexes, "
        "'1' (adjacent), '>range' (beyond the unit's printed range), '>2*range', '5-8'; tested "
        "unit by unit, so a firepower divisor or multiplier changes only the units it holds for")
    across: tuple[str, ...] = Field(default=(), description="hexside types attacked across")
    attackers: Literal["any", "all", "per-unit"] = Field(
        default="any", description="with across: 'any' attacking unit crosses one, 'all' of them "
        "do, or 'per-unit' (the effect applies to the strength of each unit that crosses only)")
    flag: str = Field(default="", description="a yes/no input of the calculation named in the "
                      "table's flags, e.g. 'beach-assault'")
    input: dict[str, str] = Field(
        default={}, description="a lookup table's number inputs: input id -> '2', '1-3', '>=2' "
        "(e.g. markers already received)")
    all: tuple[When, ...] = Field(default=(), description="every one of these holds")
    any: tuple[When, ...] = Field(default=(), description="at least one of these holds")
    not_: When | None = Field(default=None, alias="not", description="this does not hold")

    @model_validator(mode="after")
    def _shape(self) -> When:
        if self.turn:
            RollSpec(self.turn)
        if self.distance:
            bad = RollSpec(self.distance).names() - {"range"}
            if bad:
                raise ValueError(f"distance '{self.distance}' compares with {sorted(bad)}: compare "
                                 "with a number or with 'range' (the firing unit's range)")
        for spec in self.input.values():
            if RollSpec(spec).names():
                raise ValueError(f"input condition '{spec}': compare with a number")
        if self.within and not self.place:
            raise ValueError("'within' needs 'place' (the named place it is measured from)")
        if self.attackers != "any" and not self.across:
            raise ValueError(f"attackers = '{self.attackers}' needs 'across' (the hexside types)")
        if not self.keys():
            raise ValueError("an empty condition: give turn, period, scenario, attacker, defender, "
                             "firer, target, terrain, region, place, distance, across, flag, all, "
                             "any or not")
        return self

    def keys(self) -> list[str]:
        """The condition keys written (for messages and the kind checks)."""
        return [k for k in type(self).model_fields if getattr(self, k) not in ("", (), {}, None)
                and not (k == "within" and not self.place)
                and not (k == "attackers" and self.attackers == "any")]

    def walk(self):
        """This condition and every nested one."""
        yield self
        for c in (*self.all, *self.any, *((self.not_,) if self.not_ else ())):
            yield from c.walk()


class Rule(Sourced):
    """One rule: an id and label, an optional condition, and exactly one effect."""

    id: Ident
    label: str = Field(description="as a player reads it, e.g. 'Attack across a river'")
    when: When | None = Field(
        default=None, description="when it applies by itself; without it the player says whether "
        "(or how many times) it applies")
    max_uses: int = Field(default=1, ge=1, le=20,
                          description="without when: how many times a player may apply it")
    group: str = Field(default="", description="rules in one group are not cumulative: only the "
                       "strongest that applies counts (largest shift or modifier, largest factor)")
    rounding: Rounding | None = Field(default=None, description="with a divisor or multiplier: "
                                      "how the strength is rounded (default: the table's rounding)")
    prohibited: str = Field(default="", description="the attack (fire, roll) is not allowed; the "
                            "rule number that forbids it, e.g. '17.2'")
    cancels: str = Field(default="", description="id of another rule whose uses this one cancels "
                         "one for one, down to zero and never past it")
    attack_divisor: float | None = Field(default=None, gt=0, description="the attack strength (a fire table's firepower) is divided by it (mud halves: 2), rounded as `rounding` says")
    attack_multiplier: float | None = Field(default=None, gt=0, description="the attack strength (a fire table's firepower) is multiplied by it, rounded as `rounding` says")
    defence_divisor: float | None = Field(default=None, gt=0, description="the defence strength is divided by it, rounded as `rounding` says")
    defence_multiplier: float | None = Field(default=None, gt=0, description="the defence strength is multiplied by it (a fortification doubling: 2), rounded as `rounding` says")
    row: str = Field(default="", description="differential: the name of the row read")
    column: str = Field(default="", description="the column read: a ratio '1:1', or a differential "
                        "table's column number '3'")
    shift: int | None = Field(default=None, description="columns: +1 toward the attacker")
    cap: str = Field(default="", description="the column most favourable to the attacker that may "
                     "be read (after shifts): '3:1', or a column number")
    drm: int | None = Field(default=None, description="added to the roll")
    replace: dict[str, str] = Field(default={}, description="result read -> result given")

    @model_validator(mode="after")
    def _one_effect(self) -> Rule:
        given = self.effects()
        if len(given) != 1:
            raise ValueError(
                f"rule '{self.id}' has {'no effect' if not given else 'effects ' + ', '.join(given)}:"
                " give exactly one of " + ", ".join(EFFECT_FIELDS) + " (write two rules for two)")
        if self.max_uses > 1 and self.when is not None:
            raise ValueError(f"rule '{self.id}': max_uses is for rules the player applies; a rule "
                             "with 'when' applies once when its condition holds")
        if self.rounding and given[0] not in ("attack_divisor", "attack_multiplier",
                                               "defence_divisor", "defence_multiplier"):
            raise ValueError(f"rule '{self.id}': rounding goes with a divisor or multiplier only")
        per_unit = self.when is not None and any(c.attackers == "per-unit" for c in self.when.walk())
        ranged = self.when is not None and any(c.distance for c in self.when.walk())
        if ranged and given[0] in ("defence_divisor", "defence_multiplier", "row", "cancels"):
            raise ValueError(f"rule '{self.id}': distance is tested unit by unit; it goes with a "
                             "firepower divisor or multiplier (attack_divisor, attack_multiplier: "
                             "each unit it holds for), or with prohibited, drm, column, shift, "
                             "cap or replace (when it holds for any firing unit)")
        if per_unit and given[0] not in ("attack_divisor", "attack_multiplier"):
            raise ValueError(f"rule '{self.id}': attackers = 'per-unit' counts each unit's strength "
                             "under the effect, so it goes with attack_divisor or attack_multiplier")
        return self

    def effects(self) -> list[str]:
        """The effect fields written (exactly one once validated)."""
        return [f for f in EFFECT_FIELDS if getattr(self, f) not in (None, "", {})]

    @property
    def effect(self) -> str:
        return self.effects()[0]

    @property
    def value(self):
        return getattr(self, self.effect)
