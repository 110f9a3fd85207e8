"""The piece traits combat resolution needs beyond those in builder.vassal.traits.

Same mirror as builder.vassal.traits (each trait knows its type and state, field orders as the
engine's myGetType: see shared/vassal/engine-defaults.txt); encoded with the same SequenceEncoder.
Named key commands are written '0,0,Name' (the engine gives them a key code when it loads them).
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.vassal.encoding import encode_sequence
from builder.vassal.traits import Trait


def named(name: str) -> str:
    """A named key command (no real key stroke)."""
    return f"0,0,{name}"


def changer_set(value: str) -> str:
    """'Set value directly' ('{...}' makes it an expression)."""
    return encode_sequence(["P", value], ",")


def changer_increment(by: int) -> str:
    return encode_sequence(["I", str(by)], ",")


def changer_prompt(prompt: str) -> str:
    return encode_sequence(["R", prompt], ",")


def changer_choose(prompt: str, values: tuple[str, ...]) -> str:
    return encode_sequence(["E", prompt, *values], ",")


@dataclass(frozen=True)
class Command:
    """A menu command (or a hidden one when menu is '') of a Dynamic or Set Global Property."""

    menu: str
    key: str
    changer: str

    def text(self) -> str:
        return encode_sequence([self.menu, self.key, self.changer], ":")


def _commands(commands: tuple[Command, ...]) -> str:
    return encode_sequence([c.text() for c in commands], ",")


def _constraints(numeric: bool, lo: int, hi: int) -> str:
    return encode_sequence([numeric, lo, hi, False], ",")


@dataclass(frozen=True)
class DynamicProperty(Trait):
    """A property the piece stores and its commands change ('PROP;')."""

    name: str
    value: str
    commands: tuple[Command, ...] = ()
    numeric: bool = False
    min: int = 0
    max: int = 100

    ID = "PROP;"

    def fields(self) -> list[object]:
        return [self.name, _constraints(self.numeric, self.min, self.max), _commands(self.commands),
                ""]

    def state_text(self) -> str:
        return self.value


@dataclass(frozen=True)
class SetGlobalProperty(Trait):
    """Commands that set a global property (searched in zone, map, then module: 'setprop;')."""

    name: str
    commands: tuple[Command, ...]

    ID = "setprop;"

    def fields(self) -> list[object]:
        return [self.name, _constraints(False, 0, 100), _commands(self.commands), "",
                "Current Zone/Current Map/Module", ""]


@dataclass(frozen=True)
class ReportState(Trait):
    """Writes a line to the chat log when one of its keys is pressed ('report;')."""

    keys: tuple[str, ...]
    format: str
    description: str = ""

    ID = "report;"

    def fields(self) -> list[object]:
        return [encode_sequence(self.keys, ","), self.format, "", "", self.description, False]

    def state_text(self) -> str:
        return "-1"


@dataclass(frozen=True)
class TriggerAction(Trait):
    """A menu command (and key) that presses other keys in turn ('macro;')."""

    menu: str
    key: str
    actions: tuple[str, ...]
    description: str = ""

    ID = "macro;"

    def fields(self) -> list[object]:
        return [self.description, self.menu, self.key, "", "", encode_sequence(self.actions, ","),
                False, "", "", "counted", "", "", "", False, "", "1", "1"]


@dataclass(frozen=True)
class SubMenu(Trait):
    """Groups menu commands under one entry ('submenu;')."""

    menu: str
    commands: tuple[str, ...]

    ID = "submenu;"

    def fields(self) -> list[object]:
        return [self.menu, encode_sequence(self.commands, ","), ""]
