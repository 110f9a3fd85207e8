"""counters.csv and markers.csv: the units and markers, one row per counter design."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from builder.model.base import Ident, Sourced

UNIT_TYPES = (
    "infantry", "armour", "armoured-infantry", "mechanised", "motorised", "paratroop",
    "glider-infantry", "engineer", "assault-engineer", "assault-gun", "anti-tank", "fortress",
    "artillery", "mortar", "machine-gun", "reconnaissance", "cavalry", "mountain", "marine",
    "headquarters", "flak", "amphibious", "flail", "outpost", "militia", "security",
)
UNIT_SIZES = (
    "", "team", "squad", "section", "platoon", "company", "battalion", "regiment", "brigade",
    "division", "corps", "army",
)
MARKS = ("strategic-reserve", "stacking-bonus", "outpost", "mobile", "non-mobile", "elite")
MARKER_KINDS = (
    "support-fire", "bombardment", "aircraft", "air-support", "turn", "phase", "sequence",
    "out-of-supply", "chit", "special-action", "glider", "amphibious", "assault-boat", "control",
    "losses", "victory-points", "equipment", "flooded", "naval", "movement", "canal", "airfield",
    "gas", "generic",
)

_FACTOR = re.compile(r"^\[?\(?\d+\)?\]?$|^[—–-]$|^\*$")


def split_factors(text: str) -> list[str]:
    """'5-7-5' -> ['5','7','5']; '(2)-6' keeps the brackets; '' -> []."""
    text = text.strip()
    if not text:
        return []
    return [part.strip() for part in text.split("-")]


NO_FACTOR = "–"  # how a factor the unit lacks is printed
_DASHES = {"—", "–", "-"}


def printed_factors(text: str) -> tuple[list[str], str]:
    """The factors as a counter prints them, and the separator between them: '5-7-5' ->
    (['5','7','5'], '-'). A unit lacking a factor ('—-—-5', a dash for each) prints it as an en
    dash, and then the separator is a dot (– · – · 5), so dashes never run together."""
    parts = split_factors(text)
    if not any(p in _DASHES for p in parts):
        return parts, "-"
    return [NO_FACTOR if p in _DASHES else p for p in parts], "·"


def factor_text(text: str) -> str:
    """The factors as one line of text: '5-7-5', or '–·–·5' (thin spaces) for a unit lacking some."""
    parts, sep = printed_factors(text)
    return sep.join(parts) if sep == "-" else f"\u2009{sep}\u2009".join(parts)


_NOT_DIGIT = re.compile(r"[^\d]")


def factor_value(part: str) -> int | None:
    """The number in a printed factor ('(2)' -> 2, '[5]' -> 5), or None for a dash."""
    digits = _NOT_DIGIT.sub("", part)
    return int(digits) if digits else None


class Unit(Sourced):
    """One unit counter design (front and back)."""

    id: Ident = Field(description="unique key used by scenarios, e.g. 'de-711'")
    side: str
    formation: str = ""
    unit: str = Field(description="unit id as printed on the counter, e.g. '413/104'")
    type: Literal[UNIT_TYPES]  # type: ignore[valid-type]
    size: Literal[UNIT_SIZES] = ""  # type: ignore[valid-type]
    front: str = Field(default="", description="factors as printed, e.g. '5-7-5' or '20'")
    back: str = Field(default="", description="depleted factors; empty for a one-sided counter")
    back_name: str = Field(default="depleted", description="what the back face is called")
    red: tuple[str, ...] = Field(default=(), description="factor names printed in red")
    marks: tuple[Literal[MARKS], ...] = ()  # type: ignore[valid-type]
    copies: int = Field(default=1, ge=1, le=1000)
    counter: str = Field(default="unit", description="counter size id from game.toml")
    counter_type: str = Field(
        default="", description="id of a game.toml counter_types entry whose factor names this "
        "counter prints; empty: the entry listing its type in unit_types, else game.toml's "
        "factor_names")

    @field_validator("front", "back")
    @classmethod
    def _factors(cls, value: str) -> str:
        for part in split_factors(value):
            if not _FACTOR.match(part):
                raise ValueError(
                    f"'{value}' is not a factor list: write numbers joined by '-', e.g. '5-7-5' or '20'"
                )
        return value

    @property
    def two_sided(self) -> bool:
        return bool(self.back)

    def factors(self, face: str = "front") -> list[int | None]:
        return [factor_value(p) for p in split_factors(self.front if face == "front" else self.back)]


class Marker(Sourced):
    """A marker, chit or token: support fire, bombardment, aircraft, turn, chits ..."""

    id: Ident
    name: str
    kind: Literal[MARKER_KINDS]  # type: ignore[valid-type]
    side: str = ""
    front: str = Field(default="", description="main text on the face, e.g. '+4' or 'Hit'")
    back: str = Field(default="", description="text on the back; empty for a blank back")
    value: int | None = Field(default=None, description="number the marker stands for (+4 -> 4)")
    red: bool = Field(default=False, description="value printed in red")
    counter: str = Field(default="marker", description="counter size id from game.toml")
    copies: int = Field(default=1, ge=1, le=1000)
    deck: str = Field(default="", description="deck id from game.toml when drawn at random")
