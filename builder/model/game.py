"""game.toml: title, credits, sides and formations, turns, sequence of play, counter sizes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from builder.model.base import Colour, Ident, Length, Model, Sourced


class Credit(Model):
    role: str = Field(description="as printed, e.g. 'Game Design'")
    names: tuple[str, ...]


class Scale(Sourced):
    hex: str = Field(default="", description="ground one hex covers, e.g. '~160 m'")
    turn: str = Field(default="", description="time one turn covers, e.g. '6 hours'")
    unit: str = Field(default="", description="unit scale, e.g. 'battalion'")


class Formation(Sourced):
    id: Ident
    name: str
    color: Colour | None = Field(default=None, description="counter colour; the side's when absent")
    text_color: Colour | None = None


class Side(Sourced):
    id: Ident
    name: str
    color: Colour = Field(description="counter background colour")
    text_color: Colour = "#000000"
    formations: tuple[Formation, ...] = ()


class CounterSize(Sourced):
    id: Ident = Field(description="referred to by counters.csv / markers.csv 'counter' column")
    size: Length = Field(description="edge of a square counter or diameter of a round one, e.g. '5/8in'")
    shape: Literal["square", "round"] = "square"


class CounterType(Sourced):
    """Counters whose printed numbers mean something of their own: a leader's morale and
    modifier, a machine gun's firepower and range, a tank's gun, armour and movement."""

    id: Ident = Field(description="referred to by counters.csv's counter_type column")
    name: str = Field(default="", description="what players call these counters, e.g. 'Leader'")
    unit_types: tuple[str, ...] = Field(
        default=(), description="counters.csv 'type' values whose counters use these factors "
        "unless a row names another counter_type, e.g. ['machine-gun']")
    factor_names: tuple[str, ...] = Field(
        min_length=1, description="what the numbers of the front mean, in order, e.g. "
        "['morale', 'modifier'] for a printed '8-1'")
    back_factor_names: tuple[str, ...] = Field(
        default=(), description="what the back's numbers mean when they differ from the front's, "
        "e.g. ['morale'] for a broken squad; empty: as the front")


class TurnDetail(Sourced):
    """One turn of the turn record: its name, date and period, and whether it is a night turn."""

    number: int = Field(ge=1)
    name: str = Field(default="", description="as printed on the turn track, e.g. 'April 9 Morning'")
    date: str = Field(default="", description="the date printed on the turn record, e.g. '1917-04-09'")
    period: str = Field(default="", description="e.g. 'morning', 'day', 'evening', 'night'")
    night: bool = Field(default=False, description="a night turn (printed dark on the track)")
    text: str = Field(default="", description="printed on the turn record card and in the aid "
                      "for this turn (player text; 'note' is the designer's remark, as everywhere)")


class Turns(Sourced):
    count: int = Field(ge=1, le=1000)
    first: int = Field(default=1, description="number of the first turn on the track")
    detail: tuple[TurnDetail, ...] = Field(default=(), description="names, dates, night turns")


class Phase(Sourced):
    name: str
    side: str = Field(default="", description="side id whose phase this is; empty for both")
    steps: tuple[str, ...] = ()
    skip_on_turns: tuple[int, ...] = ()


class Deck(Sourced):
    id: Ident
    name: str
    side: str = ""
    draw: Literal["returned-each-turn", "without-replacement", "once"] = Field(
        description="returned-each-turn: drawn and put back (Scheldt's support fire); "
        "without-replacement: drawn counters leave play; once: one draw in the game"
    )
    per_turn: str = Field(default="", description="how many are drawn, e.g. '1' or 'per turn track'")


class Box(Sourced):
    id: Ident
    name: str
    side: str = ""
    kind: Literal["reserves", "eliminated", "holding", "losses", "off-map"] = "holding"


class GameInfo(Sourced):
    """The whole of game.toml."""

    title: str
    subtitle: str = ""
    series: str = ""
    publisher: str = ""
    year: int | None = None
    version: str = Field(
        default="1.0", description="the module's version, as VASSAL shows it to players: raise it "
        "with every module you publish (builder build warns when the module changed and the "
        "version did not); a new version's 'What changed' chart lists what differs from the "
        "previous one")
    changes: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="the designer's notes on each version, for players: "
        "version -> sentences, e.g. \"1.1\" = [\"Errata: the 21st Panzer's attack is 6.\"]; "
        "the current version's notes head the module's 'What changed' chart, earlier ones "
        "follow")
    description: str = ""
    credits: tuple[Credit, ...] = ()
    scale: Scale = Scale()
    sides: tuple[Side, ...] = Field(min_length=2)
    first_player: str = Field(description="side id")
    turns: Turns
    sequence: tuple[Phase, ...] = Field(default=(), description="the sequence of play, in order")
    counter_sizes: tuple[CounterSize, ...] = Field(min_length=1)
    factor_names: tuple[str, ...] = Field(
        default=("attack", "defense", "movement"),
        description="what the numbers of a printed '5-7-5' mean, in order (counters of a "
        "counter_types entry use its own names)",
    )
    counter_types: tuple[CounterType, ...] = Field(
        default=(), description="counters with factors of their own (leaders, weapons, vehicles, "
        "a broken side): each type's factor names, front and back")
    paper: Literal["letter", "a4"] = "letter"
    decks: tuple[Deck, ...] = ()
    boxes: tuple[Box, ...] = Field(default=(), description="holding boxes: reserves, eliminated, losses")

    @field_validator("changes", mode="before")
    @classmethod
    def _changes_by_version(cls, value):
        """A version unquoted (1.1 = [...]) is a TOML table: say how to write it; a single
        sentence is a list of one."""
        if not isinstance(value, dict):
            return value
        out = {}
        for version, notes in value.items():
            if isinstance(notes, dict):
                inner = next(iter(notes), "1")
                # a ValueError: pydantic reports it with the key and line (not a TypeError)
                raise ValueError(  # noqa: TRY004
                    f'write the version in quotes: "{version}.{inner}" = ["..."] '
                    f"(unquoted, TOML reads {version}.{inner} as a table)")
            out[str(version)] = (notes,) if isinstance(notes, str) else notes
        return out

    @property
    def people(self) -> list[str]:
        """Everyone credited, in credit order, each once (a designer who also developed is
        named once in a PDF's author field)."""
        return list(dict.fromkeys(n for c in self.credits for n in c.names))
