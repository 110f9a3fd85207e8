"""tables.toml: every table of a game written as data, one kind per way of reading it.

Each kind validates its own shape (ragged rows, gaps in the dice, bands out of order); the
calculators compute with the same objects, and the printed cards draw them.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Literal, Union

from pydantic import Field, model_validator

from builder.model.base import Ident, Model, Sourced
from builder.model.rolls import RollSpec, dice_range, is_int
from builder.model.rules import Rule

Beyond = Literal["first-column", "last-column", "not-allowed"]
Rounding = Literal["half-down", "half-up", "down", "up", "nearest"]


# --- dice and roll specs (builder.model.rolls) ------------------------------------------------
def _check_spec(text: str) -> str:
    RollSpec(text)
    return text


# --- differential bands ----------------------------------------------------------------------
_BAND = re.compile(r"^\s*(?:(?P<op><=|>=)\s*(?P<opv>[+-]?\d+)|(?P<lo>[+-]?\d+)(?:\s*\.\.\s*(?P<hi>[+-]?\d+))?)\s*$")


def parse_band(text: str) -> tuple[float, float]:
    """'-5' -> (-5,-5); '+2..+3' -> (2,3); '>=+10' -> (10, inf); '<=-5' -> (-inf, -5)."""
    m = _BAND.match(str(text))
    if not m:
        raise ValueError(
            f"'{text}' is not a band: write '+1', '+2..+3', '>=+10' or '<=-5'"
        )
    if m.group("op") == ">=":
        return float(int(m.group("opv"))), float("inf")
    if m.group("op") == "<=":
        return float("-inf"), float(int(m.group("opv")))
    lo = int(m.group("lo"))
    hi = int(m.group("hi")) if m.group("hi") else lo
    if hi < lo:
        raise ValueError(f"band '{text}' runs backwards: write the smaller number first")
    return float(lo), float(hi)


def _check_bands(bands: tuple[str, ...], what: str) -> None:
    prev_hi = None
    for i, band in enumerate(bands):
        lo, hi = parse_band(band)
        if prev_hi is not None and lo != prev_hi + 1:
            raise ValueError(
                f"{what}: band {i + 1} '{band}' does not follow band {i} (expected it to start at "
                f"{int(prev_hi) + 1:+d}): bands must run in order without gaps or overlaps"
            )
        prev_hi = hi


# --- shared pieces ---------------------------------------------------------------------------
class Shift(Sourced):
    """A column shift a player may apply (air support, Fight/Move, surprise ...)."""

    id: Ident
    label: str
    columns: int = Field(description="+1 = one column in the attacker's favour, -1 the defender's")
    max_uses: int | None = Field(default=None, description="most times it can apply to one attack")


class Modifier(Sourced):
    """A number added to a roll (or to a ratio's result), with when it applies."""

    id: Ident
    label: str
    value: int = Field(default=0, description="added to the roll (or to a ratio's result)")
    values: tuple[int, ...] = Field(
        default=(), description="instead of value: the values a player chooses from, e.g. a "
        "leader's printed modifier [-1, -2, -3]; the calculators ask which one applies")
    group: str = Field(
        default="", description="modifiers in one group are not cumulative: only the highest applies"
    )
    terrain: tuple[str, ...] = Field(default=(), description="applies when the target hex has one")
    regions: tuple[str, ...] = Field(
        default=(), description="region ids from map.toml: applies when the target hex is in one"
    )
    max_uses: int | None = None

    @model_validator(mode="after")
    def _value_or_values(self) -> Modifier:
        if self.values and (self.value or self.group or self.terrain or self.regions
                            or (self.max_uses or 1) > 1):
            raise ValueError(f"modifier '{self.id}': values (the player picks one) goes without "
                             "value, group, terrain, regions and max_uses")
        if len(set(self.values)) != len(self.values):
            raise ValueError(f"modifier '{self.id}': values repeats a value")
        return self


class Entry(Model):
    when: str = Field(description="roll or value condition: '5', '5-10', '2,3,12', '<=4', '<turn', 'else'")
    result: str
    detail: str = ""

    @model_validator(mode="after")
    def _spec(self) -> "Entry":
        _check_spec(self.when)
        return self


class Input(Model):
    id: Ident
    name: str
    min: int
    max: int

    @model_validator(mode="after")
    def _range(self) -> Input:
        if self.min > self.max:
            raise ValueError(f"input '{self.id}': min {self.min} is above max {self.max}: swap them")
        return self


class Reading(Sourced):
    """Another way to read an ambiguous table: the fields it changes, and why (e.g. a worked
    example that rounds differently from its rule). A calculator offers it as an input."""

    id: Ident
    label: str = Field(description="what this reading follows, e.g. 'as the 4.2 worked example'")
    set: dict[str, str | int | bool] = Field(
        description="table fields this reading changes, e.g. { divisor_rounding = 'half-up' }"
    )


_NOT_READABLE = {"id", "kind", "name", "readings", "rules", "flags", "required"}


class TableBase(Sourced):
    id: Ident
    name: str
    legend: dict[str, str] = Field(default={}, description="result code -> meaning")
    notes: tuple[str, ...] = Field(default=(), description="footnotes printed under the table")
    readings: tuple[Reading, ...] = Field(
        default=(),
        description="other readings of an ambiguous table; calculators follow the table as "
        "written unless asked for one of these",
    )
    rules: tuple[Rule, ...] = Field(
        default=(), description="conditions and effects (see the README's 'Rules as data'); "
        "`builder check` refuses one the table's kind cannot apply")
    flags: dict[str, str] = Field(
        default={}, description="yes/no situations rules can test (when = { flag = ID }): "
        "id -> the situation as a statement, which the rule's sentence prints after 'when', "
        "e.g. { encircled = 'The defender is encircled (9.2)' }")
    required: tuple[str, ...] = Field(
        default=(), description="ids of inputs a player must give, e.g. ['turn'] when rules "
        "depend on the turn: left out, the calculator refuses and names the input instead of "
        "leaving those rules out; the aid asks for them first, outside 'More'")
    rules_combine: Literal["cumulative", "best-for-defender", "first"] = Field(
        default="cumulative", description="several rules with the same effect that apply: all "
        "count, only the one best for the defender, or only the first listed")

    @model_validator(mode="after")
    def _check_readings(self) -> TableBase:
        for r in self.readings:
            bad = sorted(k for k in r.set if k in _NOT_READABLE or k not in type(self).model_fields)
            if bad:
                raise ValueError(f"table '{self.id}': reading '{r.id}' sets {bad}, which are not "
                                 "fields a reading can change")
            try:
                self.with_reading(r.id)
            except ValueError as exc:
                raise ValueError(f"table '{self.id}': reading '{r.id}' gives an invalid table: "
                                 f"{exc}") from None
        return self

    def with_reading(self, reading_id: str):
        """This table as the named reading reads it (a validated copy)."""
        r = next(r for r in self.readings if r.id == reading_id)
        data = {**self.model_dump(exclude={"readings"}), **r.set}
        return type(self).model_validate(data)


def _rows_cover_dice(results: dict[str, tuple], dice: str, width: int, what: str) -> None:
    lo, hi = dice_range(dice)
    want = [str(n) for n in range(lo, hi + 1)]
    if sorted(results, key=lambda k: int(k) if is_int(k) else 999) != want:
        raise ValueError(
            f"{what}: rows are {sorted(results)}, but {dice} rolls {lo} to {hi}: "
            f"give exactly one row per roll ({', '.join(want)})"
        )
    for roll, row in results.items():
        if len(row) != width:
            raise ValueError(
                f"{what}: row {roll} has {len(row)} results but the table has {width} columns"
            )


# --- the table kinds -------------------------------------------------------------------------
class TerrainRow(Sourced):
    name: str = Field(description="as printed, e.g. 'Trench hexside, Woods'")
    terrain: tuple[str, ...] = Field(default=(), description="terrain type ids that use this row")
    hexsides: tuple[str, ...] = Field(default=(), description="hexside types attacked across")
    condition: str = Field(default="", description="a situation that selects the row, e.g. 'beach assault'")
    except_terrain: tuple[str, ...] = Field(
        default=(),
        description="defender terrain ids for which this row never applies, e.g. ['no-mans-land'] "
        "on a trench row (Vimy 14.1: never advantaged by a trench line)",
    )
    differentials: tuple[str, ...] = Field(
        description="the band printed over each column, left to right: '-1', '+2..+3', '>=+10'"
    )


class DifferentialTable(TableBase):
    """Fire & Movement's integrated CRT: attack minus defence, terrain rows shift the columns."""

    kind: Literal["differential"]
    dice: str = "1d6"
    columns: int = Field(ge=1, le=40)
    terrain_rows: tuple[TerrainRow, ...] = Field(min_length=1)
    default_row: str = Field(description="name of the row used when no terrain row applies")
    row_choice: Literal["best-for-defender"] = "best-for-defender"
    defence_effect: str = Field(
        default="",
        description="terrain effect name whose value divides the defending strength, fractions "
        "rounded down (Vimy 14.1: No Man's Land 'defense_divisor = 2')",
    )
    hexside_applies: Literal["any", "all"] = Field(
        default="any",
        description="a hexside row (trench, canal) applies when 'any' attacking unit attacks across "
        "that hexside, or only when 'all' of them do",
    )
    results: dict[str, tuple[str, ...]] = Field(description="die roll -> one result per column")
    beyond_low: Beyond = "first-column"
    beyond_high: Beyond = "last-column"
    ends: Literal["before-shifts", "after-shifts"] = Field(
        default="before-shifts", description="when the table's ends (beyond_low / beyond_high) "
        "apply: 'before-shifts' (a result past the last column is read on it, then shifted: 8:1 "
        "shifted one left reads 5:1 on a table ending at 6:1) or 'after-shifts' (shifts count "
        "from the result as it is: 8:1 shifted one left is 7:1, read on 6:1)")
    shifts: tuple[Shift, ...] = ()
    modifiers: tuple[Modifier, ...] = ()

    @model_validator(mode="after")
    def _shape(self) -> "DifferentialTable":
        _rows_cover_dice(self.results, self.dice, self.columns, f"table '{self.id}'")
        names = [r.name for r in self.terrain_rows]
        if self.default_row not in names:
            raise ValueError(f"table '{self.id}': default_row '{self.default_row}' is not one of {names}")
        for row in self.terrain_rows:
            if len(row.differentials) > self.columns:
                raise ValueError(
                    f"table '{self.id}': row '{row.name}' has {len(row.differentials)} bands but only "
                    f"{self.columns} columns"
                )
            _check_bands(row.differentials, f"table '{self.id}' row '{row.name}'")
        return self


class RatioTable(TableBase):
    """An odds table: attack divided by defence, rounded, read as '3:1' or '1:2' columns."""

    kind: Literal["ratio"]
    dice: str = "2d6"
    columns: tuple[str, ...] = Field(min_length=1, description="'1:4' ... '6:1', weakest first")
    results: dict[str, tuple[str, ...]]
    result_format: Literal["single", "attacker/defender"] = "single"
    rounding: Rounding = Field(description="how a ratio between columns is rounded")
    rounding_note: str = ""
    terrain_effect: str = Field(
        default="", description="terrain effect name that divides the attack (e.g. 'divisor')"
    )
    terrain_choice: Literal["best-for-defender", "cumulative"] = "best-for-defender"
    shift_effect: str = Field(
        default="shift",
        description="terrain and hexside effect name giving column shifts for the defender's hex or "
        "the hexsides attacked across (e.g. shift = -1: one column left); ignored where no terrain "
        "has it",
    )
    edge_cap: int | None = Field(default=None, description="most strength across one sector edge")
    edge_cap_defence: bool = Field(
        default=True, description="the edge cap also limits the defending strength counted"
    )
    divisor_rounding: Rounding | None = Field(
        default=None,
        description="how attack / terrain divisor is rounded to whole strength points; empty: as "
        "'rounding'",
    )
    rounding_below: Rounding | None = Field(
        default=None,
        description="how defence / attack is rounded when the attack is the weaker (below 1:1); "
        "empty: the mirror of 'rounding', so ties favour the same side (half-down -> half-up, "
        "down -> up)",
    )
    fire_first: str = Field(
        default="",
        description="id of a fire table the defender fires on the attackers before the odds are "
        "taken (Eben-Emael 4.2 A); its losses come off the attack",
    )
    retreat_reduces: int = Field(
        default=0, ge=0,
        description="the defender may retreat (one sector) to reduce its loss by this many",
    )
    beyond_low: Beyond = "first-column"
    beyond_high: Beyond = "last-column"
    ends: Literal["before-shifts", "after-shifts"] = Field(
        default="before-shifts", description="when the table's ends (beyond_low / beyond_high) "
        "apply: 'before-shifts' (a result past the last column is read on it, then shifted: 8:1 "
        "shifted one left reads 5:1 on a table ending at 6:1) or 'after-shifts' (shifts count "
        "from the result as it is: 8:1 shifted one left is 7:1, read on 6:1)")
    divide: Literal["total", "per-unit"] = Field(
        default="total", description="how the terrain and the rules divide (or multiply) the "
        "attack: 'total' (the attack added up, divided and rounded once) or 'per-unit' (each "
        "attack value divided and rounded, then added; give the attack unit by unit)")
    shifts: tuple[Shift, ...] = ()
    modifiers: tuple[Modifier, ...] = ()

    @model_validator(mode="after")
    def _shape(self) -> "RatioTable":
        _rows_cover_dice(self.results, self.dice, len(self.columns), f"table '{self.id}'")
        values = []
        for col in self.columns:
            m = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", col)
            if not m or (m.group(1) != "1" and m.group(2) != "1"):
                raise ValueError(f"table '{self.id}': column '{col}' is not a ratio: write it like '3:1' "
                                 "or '1:2'")
            values.append(int(m.group(1)) / int(m.group(2)))
        if values != sorted(values) or len(set(values)) != len(values):
            raise ValueError(f"table '{self.id}': columns must run from weakest to strongest odds")
        if self.result_format == "attacker/defender":
            for roll, row in self.results.items():
                for cell in row:
                    if not re.fullmatch(r"[\d-]+/[\d-]+", cell):
                        raise ValueError(
                            f"table '{self.id}': row {roll} result '{cell}' is not 'attacker/defender'"
                            " such as '3/1' or '4/-'"
                        )
        return self


class FireTable(TableBase):
    """Fire: columns by total firepower, rows by the modified roll (the roll plus its modifiers).

    A fire group is given unit by unit (fire_group); rules may change each unit's firepower
    (at long range halved, adjacent doubled) before the total picks the column. A number read is
    a loss (divided by the target's terrain when terrain_effect says so); any other text is a
    result the legend explains ('K', '1MC'). Without bands the table has one column and no
    firepower (a bombardment marker)."""

    kind: Literal["fire"]
    dice: str = "2d6"
    bands: tuple[str, ...] = Field(
        default=(), description="firepower columns, left to right: '3', '2-6', '26+'; empty: one "
        "column and no firepower (each fire is one roll, as a bombardment marker)")
    results: dict[str, tuple[str, ...]] = Field(
        description="modified roll -> one result per column. Rows are consecutive numbers covering "
        "at least the dice range and may go beyond it ('0', '13', '14') for modified rolls; a "
        "modified roll beyond the first or last row reads that row. A number is a loss; '-' none; "
        "other text is a result explained by the legend")
    terrain_effect: str = Field(default="", description="terrain effect name that divides the "
                                "loss read (numbers only), e.g. 'divisor'")
    rounding: Rounding = Field(default="half-down", description="how a loss divided by the "
                               "terrain is rounded")
    exact_bands: bool = Field(
        default=False, description="true when columns are exact values ([3] [6] [9]), not ranges"
    )
    factor: str = Field(
        default="", description="the counters' printed factor the columns read, e.g. 'gun' for "
        "an anti-tank table (a factor name of game.toml); the calculators ask for it by this "
        "name and the module totals it from the firing units; empty: 'firepower'")
    fire_group: bool = Field(
        default=False, description="true: firepower is given unit by unit (firepower = 6,6,4) and "
        "added up after each unit's own effects (a unit at long range halved); false: one firing "
        "unit or weapon per fire (Eben-Emael 5.0: artillery strength is not added up)")
    firepower_rounding: Rounding = Field(
        default="down", description="how a total firepower with a fraction (a halved unit) is "
        "rounded before its column is found")
    modifiers: tuple[Modifier, ...] = Field(default=(), description="die-roll modifiers (as a "
                                            "modified-roll table's: group, terrain, regions)")
    natural: dict[str, str] = Field(
        default={}, description="natural roll -> result in every column, whatever the modifiers")
    attempts: int = Field(
        default=1, ge=1, le=4,
        description="most rolls (markers) against one target; the target suffers the first "
        "effect rolled and no more (Vimy 17.2: two markers, at most one hit)")
    beyond_low: Literal["first-row"] = Field(
        default="first-row", description="a modified roll below the first row reads it")
    beyond_high: Literal["last-row"] = Field(
        default="last-row", description="a modified roll above the last row reads it")

    @model_validator(mode="before")
    @classmethod
    def _one_column_rows(cls, data):
        """A one-column table may write each row as its result alone: "7" = "Hit"."""
        if isinstance(data, dict) and isinstance(data.get("results"), dict):
            data = {**data, "results": {k: (v,) if isinstance(v, str) else v
                                        for k, v in data["results"].items()}}
        return data

    @property
    def columns(self) -> tuple[str, ...]:
        """The column labels ('' for a one-column table)."""
        return self.bands or ("",)

    @property
    def strength(self) -> str:
        """The factor the columns read, as players call it ('firepower', 'gun')."""
        return self.factor or "firepower"

    @property
    def strength_input(self) -> str:
        """The calculators' input id for it ('firepower', 'gun')."""
        return re.sub(r"[^a-z0-9]+", "-", self.strength.lower()).strip("-") or "firepower"

    @model_validator(mode="after")
    def _shape(self) -> "FireTable":
        lo, hi = dice_range(self.dice)
        keys = [int(k) for k in self.results if is_int(k)]
        if len(keys) != len(self.results) or keys != list(range(min(keys), max(keys) + 1)):
            raise ValueError(f"table '{self.id}': rows must be consecutive numbers, got "
                             f"{list(self.results)}")
        if min(keys) > lo or max(keys) < hi:
            raise ValueError(f"table '{self.id}': rows run {min(keys)} to {max(keys)}, but "
                             f"{self.dice} rolls {lo} to {hi}: give a row for every roll")
        width = len(self.columns)
        for roll, row in self.results.items():
            if len(row) != width:
                raise ValueError(f"table '{self.id}': row {roll} has {len(row)} results but the "
                                 f"table has {width} column{'s' if width != 1 else ''}")
        prev = 0
        for band in self.bands:
            m = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d+)|(\+))?\s*", band)
            if not m:
                raise ValueError(f"table '{self.id}': band '{band}' is not '5', '2-6' or '26+'")
            blo = int(m.group(1))
            bhi = int(m.group(3)) if m.group(3) else (10**9 if m.group(4) else blo)
            if blo <= prev and not (prev == 0 and blo == 0):
                raise ValueError(f"table '{self.id}': bands must rise left to right ('{band}')")
            if not self.exact_bands and prev and blo != prev + 1:
                raise ValueError(f"table '{self.id}': band '{band}' leaves a gap after {prev}")
            prev = bhi
        for roll, row in self.results.items():
            for cell in row:
                if not cell.strip():
                    raise ValueError(f"table '{self.id}': row {roll} has an empty result: write "
                                     "'-' for no effect")
                if self.terrain_effect and not re.fullmatch(r"\d+|-|—", cell):
                    raise ValueError(f"table '{self.id}': row {roll} value '{cell}' is not a "
                                     "number or '-' (terrain_effect divides the loss read)")
        for k in self.natural:
            if not is_int(k) or not lo <= int(k) <= hi:
                raise ValueError(f"table '{self.id}': natural roll '{k}' cannot be rolled on "
                                 f"{self.dice}: use {lo} to {hi}")
        if not self.bands and (self.fire_group or self.exact_bands):
            raise ValueError(f"table '{self.id}': fire_group and exact_bands need firepower "
                             "columns (bands)")
        if self.fire_group and self.exact_bands:
            raise ValueError(f"table '{self.id}': a fire group adds firepower up, so its columns "
                             "are ranges: remove exact_bands or fire_group")
        return self


class ModifiedRollTable(TableBase):
    """Roll, add modifiers, read the modified roll's row (Vimy's bombardment)."""

    kind: Literal["modified-roll"]
    dice: str = "1d6"
    results: dict[str, str] = Field(description="modified roll as printed -> result")
    modifiers: tuple[Modifier, ...] = ()
    natural: dict[str, str] = Field(default={}, description="natural roll -> result, whatever the modifiers")
    attempts: int = Field(
        default=1, ge=1, le=4,
        description="most rolls (markers) allowed against one target; the target suffers the first "
        "effect rolled and no more (Vimy 17.2: two markers, at most one hit)",
    )
    beyond_low: Literal["first-row"] = "first-row"
    beyond_high: Literal["last-row"] = "last-row"

    @model_validator(mode="after")
    def _shape(self) -> "ModifiedRollTable":
        keys = [int(k) for k in self.results if is_int(k)]
        if len(keys) != len(self.results) or keys != list(range(min(keys), max(keys) + 1)):
            raise ValueError(f"table '{self.id}': rows must be consecutive numbers, got {list(self.results)}")
        lo, hi = dice_range(self.dice)
        for k in self.natural:
            if not is_int(k) or not lo <= int(k) <= hi:
                raise ValueError(f"table '{self.id}': natural roll '{k}' cannot be rolled on {self.dice}: "
                                 f"use {lo} to {hi}")
        return self


MAX_LOOKUP_CASES = 20_000  # a victory-points table over 100 points and 20 turns has 2,000


class LookupTable(TableBase):
    """A plain lookup: a roll (or a value such as victory points) against listed conditions."""

    kind: Literal["lookup"]
    dice: str = Field(default="", description="'1d6', '2d6', or empty when the key is an input")
    key: str = Field(default="roll", description="'roll' or the id of the input looked up")
    inputs: tuple[Input, ...] = ()
    entries: tuple[Entry, ...] = Field(min_length=1, description="first matching entry wins")
    modifiers: tuple[Modifier, ...] = ()
    rounding: Rounding | None = Field(
        default=None, description="how a value with a fraction (a net of half victory points) is "
        "rounded before it is looked up; empty: the entries are read with the fraction")

    @model_validator(mode="after")
    def _shape(self) -> "LookupTable":
        names = {i.id for i in self.inputs}
        for e in self.entries:
            missing = RollSpec(e.when).names() - names
            if missing:
                raise ValueError(
                    f"table '{self.id}': entry '{e.when}' compares with {sorted(missing)}, "
                    "which is not in the table's inputs"
                )
        if self.dice:
            lo, hi = dice_range(self.dice)
            if self.key != "roll":
                raise ValueError(f"table '{self.id}': a table with dice looks up the roll (key = 'roll')")
        else:
            if self.key not in names:
                raise ValueError(f"table '{self.id}': key '{self.key}' is neither 'roll' nor an input id")
            spec = next(i for i in self.inputs if i.id == self.key)
            lo, hi = spec.min, spec.max
        ranges = {i.id: range(i.min, i.max + 1) for i in self.inputs if i.id != self.key}
        cases = (hi - lo + 1) * math.prod(len(r) for r in ranges.values())
        if cases > MAX_LOOKUP_CASES:  # every case is checked below: bound the work
            raise ValueError(f"table '{self.id}': its inputs make {cases:,} cases, more than the "
                             f"{MAX_LOOKUP_CASES:,} a lookup may have: narrow their min and max")
        samples = [dict(zip(ranges, combo)) for combo in _product(list(ranges.values()))]
        specs = [RollSpec(e.when) for e in self.entries]
        for value in range(lo, hi + 1):
            for extra in samples:
                if not any(spec.matches(value, extra) for spec in specs):
                    raise ValueError(
                        f"table '{self.id}': no entry covers {self.key} = {value}"
                        + (f" with {extra}" if extra else "")
                        + ": add one, or an 'else' entry"
                    )
        return self


def _product(ranges: list[range]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for r in ranges:
        out = [prev + (v,) for prev in out for v in r]
    return out


class ChartTable(TableBase):
    """A chart read by eye, not computed: terrain effects, set-up lists, schedules."""

    kind: Literal["chart"]
    columns: tuple[str, ...] = Field(min_length=1)
    rows: tuple[tuple[str, ...], ...] = Field(min_length=1)
    terrain: tuple[str, ...] = Field(
        default=(),
        description="makes this chart the game's one terrain effects chart: for each row, the "
        "ids of the map's terrain types, hexside types or line types it describes (several "
        "separated by spaces, '' for a row about none, e.g. entering an enemy zone of "
        "control). Each row is printed with the map's own drawing of what it names, and any "
        "of the map's terrain with effects that no row names gets a row of its own",
    )

    @model_validator(mode="after")
    def _shape(self) -> "ChartTable":
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table '{self.id}': row {i + 1} has {len(row)} cells but there are "
                    f"{len(self.columns)} columns"
                )
        if self.terrain and len(self.terrain) != len(self.rows):
            raise ValueError(
                f"table '{self.id}': 'terrain' has {len(self.terrain)} entries but there are "
                f"{len(self.rows)} rows: give one per row ('' for a row about no map feature)"
            )
        return self

    def terrain_ids(self, row: int) -> tuple[str, ...]:
        """The map terrain, hexside and line ids that row `row` describes."""
        return tuple(self.terrain[row].split()) if self.terrain else ()


class LineOfSightTable(TableBase):
    """A map rule, not a grid of results: who can see whom (Vimy 17.3 observation)."""

    kind: Literal["line-of-sight"]
    max_range: int = Field(ge=1, description="farthest hex a line of sight reaches")
    night_range: int | None = Field(
        default=None, ge=0, description="farthest hex seen on a night turn (Vimy: 1, adjacent only)"
    )
    adjacent_always: bool = Field(default=True, description="an adjacent hex is always seen")
    clear_terrain: tuple[str, ...] = Field(
        default=(),
        description="terrain ids that never block a line of sight, besides the map's default "
        "terrain (Vimy: rivers)",
    )
    blind_hexes: int = Field(
        default=0, ge=0, le=9,
        description="how many hexes behind an obstacle are hidden from a higher end: an obstacle "
        "standing above the lower end but below the higher one blocks when the lower end is within "
        "this many hexes of it (0: none; map.toml gives the levels and heights)")

    @model_validator(mode="before")
    @classmethod
    def _levels_not_high_ground(cls, data):
        if isinstance(data, dict) and "high_ground" in data:
            raise ValueError("high_ground is replaced by levels: give the high ground's terrain a "
                             "level (and an obstacle height) in map.toml, e.g. level = 2, height = "
                             "1, and remove high_ground (sight is the same both ways)")
        return data
    spotter: str = Field(
        default="",
        description="a marker that observes its own hex and the adjacent ones whatever the terrain, "
        "e.g. 'Allied aircraft marker' (Vimy 17.3); empty: none",
    )
    corner_to_corner: bool = Field(
        default=True,
        description="lines run from any corner of the observer's hex to any corner of the target's "
        "(Vimy 17.3); false: centre to centre",
    )


class RangeTable(TableBase):
    """A map rule: is a hex within so many hexes of the nearest of some others (Scheldt 14.2)."""

    kind: Literal["range"]
    max: int = Field(ge=0, description="farthest distance allowed, in hexes")
    target: str = Field(default="target", description="what the hex is, e.g. 'bombardment target'")
    origin: str = Field(default="friendly unit", description="what it is measured from")


class LimitTable(TableBase):
    """A limit players check: at most so many strength points or units in one place (Eben-Emael
    3.6: no more than 80 strength points in a sector)."""

    kind: Literal["limit"]
    most: int = Field(ge=0, description="the most allowed in one place")
    counts: Literal["strength", "units"] = Field(
        default="strength", description="what is added up: 'strength' (each unit's strength "
        "points, given one by one) or 'units' (how many units)")
    place: str = Field(default="hex", description="where the limit holds, as players say it: "
                       "'hex', 'sector', 'sector edge'")


Table = Annotated[
    Union[DifferentialTable, RatioTable, FireTable, ModifiedRollTable, LookupTable, ChartTable,
          LineOfSightTable, RangeTable, LimitTable],
    Field(discriminator="kind"),
]


class TablesFile(Model):
    tables: tuple[Table, ...] = ()

    @model_validator(mode="after")
    def _links(self) -> TablesFile:
        fire = {t.id for t in self.tables if t.kind == "fire"}
        for t in self.tables:
            link = getattr(t, "fire_first", "")
            if link and link not in fire:
                raise ValueError(f"table '{t.id}': fire_first '{link}' is not the id of a fire table "
                                 f"(fire tables: {', '.join(sorted(fire)) or 'none'})")
        return self
