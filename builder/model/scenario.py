"""scenarios/<id>.toml and scenarios/<id>.setup.csv: set-ups, reinforcements, tracks, victory."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from builder.model.base import Ident, Model, Sourced


class Placement(Sourced):
    """Where one counter starts: a hex, a sector, a box, or a choice around them."""

    unit: str = Field(description="unit or marker id")
    at: str = Field(
        description="hex number, sector id, 'box:<id>', 'turn:<n>' (the turn track) or 'off-map'"
    )
    also: tuple[str, ...] = Field(default=(), description="other locations the rules allow")
    within: int = Field(default=0, ge=0, description="may also be this many hexes from 'at'/'also'")
    region: str = Field(default="", description="region id: may set up anywhere in it")
    face: Literal["front", "back"] = Field(
        default="front", description="the side the counter starts on: 'back' for a unit that starts "
        "reduced (set-up card, module and map follow it)")
    code: str = Field(default="", max_length=4, description="a set-up code or symbol printed in the "
                      "hex on the map (e.g. 'A', '3', '★'); 'at' must be a hex")
    instruction: str = Field(default="", description="printed on the set-up card with the placement "
                             "(player text, e.g. 'in a trench hex'); 'note' is for designers")
    line: int = Field(default=0, description="line in the .setup.csv file, for messages")


class Reinforcement(Sourced):
    """A unit that enters after the set-up: on a turn, or from a box when a condition is met."""

    unit: str = Field(description="unit id from counters.csv; a unit is either set up or a reinforcement, "
                      "never both")
    turn: int | None = Field(default=None, description="arrival turn; empty for a conditional arrival")
    at: tuple[str, ...] = Field(
        default=(), description="where it enters (any one of them): hexes of an entry edge of map.toml "
        "([[edges]] kind = \"entry\" of the unit's side), or sectors")
    box: str = Field(default="", description="box id it waits in before it enters (reserves)")
    condition: str = Field(default="", description="when it may enter, in words (printed on the card)")
    earliest: int | None = Field(
        default=None, description="a conditional arrival's first possible turn, when the rules give "
        "one (Turn 12 or later: 12): the turn lookup lists it from that turn on, not before")
    returns: bool = Field(
        default=False, description="true for a unit that is set up, leaves play and comes back: "
        "the set-up counter re-enters, so no second counter is placed for it")
    entry_exception: str = Field(
        default="", description="why it enters at hexes that are not entry hexes (e.g. 'lands by "
        "parachute anywhere in 1.3'); without it every hex in 'at' must be an entry hex")


    @model_validator(mode="after")
    def _earliest_only_when_conditional(self) -> Reinforcement:
        if self.earliest is not None and self.turn is not None:
            raise ValueError(f"reinforcement '{self.unit}': 'earliest' is for a conditional "
                             f"arrival; this one arrives on turn {self.turn} (drop one of them)")
        return self


class Withdrawal(Sourced):
    """A unit that leaves play on a scheduled turn (it may come back later as a reinforcement
    with returns = true)."""

    unit: str = Field(description="unit id from counters.csv; every counter of it on the map leaves")
    turn: int = Field(description="the turn it leaves: at its start, or at its end with "
                      "when = \"end\"")
    when: Literal["start", "end"] = Field(
        default="start", description="'start': removed as the turn begins; 'end': removed at the "
        "end of the turn (the module moves it as the next turn begins)")
    box: str = Field(default="", description="box id (game.toml [[boxes]]) it is moved to; empty: "
                     "the module's 'Withdrawn' box")
    condition: str = Field(default="", description="an earlier or other reason it leaves, in words "
                           "(printed with the withdrawal; the players apply it)")

    def timing(self) -> str:
        """When it leaves, as players read it: 'start of turn 8' or 'end of turn 8'."""
        return f"{self.when} of turn {self.turn}"

    def leaves_as_turn_begins(self) -> int:
        """The turn whose start moves it off the map (the next turn for when = 'end')."""
        return self.turn + (1 if self.when == "end" else 0)


class Proviso(Model):
    """Another count that must stand at a number for a count's result to hold (Vimy 12.1: the
    instant win needs no German unit in Petit Vimy)."""

    count: str = Field(description="id of another victory count of the scenario")
    at_least: float | None = Field(default=None, description="it must be at least this")
    at_most: float | None = Field(default=None, description="it must be at most this")


class VictoryCount(Sourced):
    """One thing the victory conditions count: places held by a side, a side's pieces in a box or
    region (their printed factor summed, or weighed by an attribute), or something only the
    players can count (by_hand). The same definition answers `builder calc GAME victory`, the
    aid's victory calculator and the module's Victory button (which names what it cannot count
    for the players to add)."""

    id: Ident | None = Field(default=None, description="the count's input name in `builder calc "
                             "GAME victory` (default: made from its name)")
    name: str = Field(description="what is counted, as players read it (e.g. 'Peaks held by the "
                      "Allied player')")
    side: str = Field(description="side id: the side holding the places, or whose pieces are counted")
    held: tuple[str, ...] = Field(
        default=(), description="hexes or sector ids; a place is held by 'side' when a unit of "
        "that side is on it and no unit of another side is")
    pieces_in: str = Field(
        default="", description="instead of 'held': 'box:<id>' (a box of game.toml), "
        "'region:<id>' (a region of map.toml) or 'map' (anywhere on the map): counts the side's "
        "units there")
    by_hand: bool = Field(default=False, description="instead of 'held' or 'pieces_in': a number "
                          "the board cannot show (units out of supply, units exited): the players "
                          "count it; the calculators ask for it, the module names it")
    left: bool = Field(default=False, description="with pieces_in = 'box:<id>': count the side's "
                       "units that start in that box and are no longer in it (reserves committed)")
    factor: str = Field(default="", description="with pieces_in: sum this printed factor (a name "
                        "of factor_names) instead of counting units, e.g. soldiers lost")
    weigh_by: str = Field(default="", description="with pieces_in: weigh each unit by this "
                          "counter attribute (type, size or formation) as 'weights' gives, e.g. a "
                          "half-squad 1/2, a squad 1")
    weights: dict[str, float] = Field(default={}, description="with weigh_by: attribute value -> "
                                      "what one unit of it counts (0.5 for a half), for every "
                                      "value the side's units have")
    per: Literal["", "formation"] = Field(default="", description="'formation': the count is the "
                                          "most units of one formation (Vimy 12.1: three units of "
                                          "the same division)")
    vp: float = Field(default=0, description="victory points per place held or per unit (point) "
                      "counted, halves allowed (0.5); negative for points against the side scoring")
    all: bool = Field(default=False, description="with held: the vp are scored once, only when "
                      "every place is held")
    threshold: float | None = Field(default=None, description="the vp are scored once, when the "
                                    "count reaches this number (instead of per unit or place)")
    only_if: str = Field(default="", description="id of a question in the scenario's "
                         "victory_questions: the count scores only when the players answer yes")
    at_least: float | None = Field(default=None, description="the count decides the game when it "
                                   "reaches this number: the standing is 'result'")
    at_most: float | None = Field(default=None, description="the count decides the game when it "
                                  "is at most this number: the standing is 'result'")
    result: str = Field(default="", description="the result when at_least / at_most is met "
                        "(player text, e.g. 'Automatic Belgian victory')")
    provided: tuple[Proviso, ...] = Field(
        default=(), description="other counts that must stand as given for 'result' to hold, e.g. "
        "[{ count = 'germans-in-petit-vimy', at_most = 0 }]")

    @model_validator(mode="after")
    def _default_id(self) -> VictoryCount:
        if self.id is None:
            object.__setattr__(self, "id", re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-"))
        return self


class Allowance(Sourced):
    """Replacements or rebuilds: how many, for whom, in which turns."""

    side: str
    kind: Literal["rebuild", "replacement"]
    turns: str = Field(description="e.g. '1-10' or 'night'")
    count: int = Field(ge=0)


class TrackRow(Sourced):
    """Per-turn numbers printed on a track: bombardment allotments, support fire draws."""

    id: Ident
    name: str
    side: str
    per_turn: tuple[int | None, ...] = Field(description="one value per turn, first turn first")


class DeckDraw(Sourced):
    deck: str
    count: str = Field(default="1", description="how many, or 'per track <id>'")
    when: str = "each turn"


class Scenario(Sourced):
    id: str = ""
    name: str
    description: str = ""
    turns: tuple[int, int] | None = Field(default=None, description="[first, last] turn played")
    first_player: str = ""
    setup_file: str = Field(default="", description="set-up CSV; default '<id>.setup.csv'")
    setup_note: str = Field(default="", description="the set-up rule in words")
    setup: tuple[Placement, ...] = ()
    not_in_play: tuple[str, ...] = Field(
        default=(), description="unit ids this scenario does not use; every other unit of counters.csv "
        "must be set up (in the .setup.csv) or listed as a reinforcement")
    reinforcements: tuple[Reinforcement, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = Field(
        default=(), description="units leaving play on a turn (moved off the map by the module)")
    allowances: tuple[Allowance, ...] = ()
    tracks: tuple[TrackRow, ...] = ()
    draws: tuple[DeckDraw, ...] = ()
    victory: tuple[str, ...] = Field(default=(), description="victory conditions as the rules state them")
    victory_table: str = Field(default="", description="table id that turns points into a level")
    victory_counts: tuple[VictoryCount, ...] = Field(
        default=(), description="what the module's Victory button counts on the board (places "
        "held, units in a box or region); their vp added up are looked up in victory_table")
    victory_questions: dict[Ident, str] = Field(
        default={}, description="yes/no questions counts depend on (only_if), as players answer "
        "them: id -> question, e.g. { road-supply = 'The Allied player can trace a road supply "
        "line (12.1.2) between the east and west map edges' }")
    victory_default: str = Field(
        default="", description="the standing when no count decides and there is no "
        "victory_table (e.g. 'German victory')")
    victory_by_hand: tuple[str, ...] = Field(
        default=(), description="victory points the board cannot show (supply, exits ...), "
        "named in the Victory chat line for the players to add")
    special_rules: tuple[str, ...] = ()


class Rules(Model):
    """The rules text split into numbered sections."""

    title: str
    sections: tuple[Section, ...]


class Section(Sourced):
    """One numbered section. A heading may end in an attribute block that is not displayed:
    '### 17.4 Night {assumed note="reconstructed from 17.2"}' (keys assumed, source, note)."""

    id: str = Field(description="section number as printed, e.g. '16.1' or '41.A.4.a'")
    title: str = Field(description="the heading as displayed, without its number or attributes")
    level: int
    text: str = Field(description="Markdown body of the section")
    line: int
    refs: tuple[str, ...] = Field(default=(), description="section numbers this one cites")


Rules.model_rebuild()
