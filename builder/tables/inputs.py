"""Calculator inputs described as data, and turning what a player typed into checked values."""

from __future__ import annotations

import re
from dataclasses import dataclass

TYPES = ("int", "choice", "bool", "hex")
_TRUE = {"yes", "y", "true", "1", "on"}
_FALSE = {"no", "n", "false", "0", "off", "none"}


class CalcError(ValueError):
    """A calculator was asked something it cannot answer: the message says what is allowed."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    aliases: tuple[str, ...] = ()  # other words accepted for it (terrain ids for a terrain row)

    def to_dict(self) -> dict:
        d = {"value": self.value, "label": self.label}
        if self.aliases:
            d["aliases"] = list(self.aliases)
        return d


@dataclass(frozen=True)
class InputSpec:
    """One input of a calculator: what the rules call it, its type and the values allowed."""

    id: str
    label: str
    type: str  # int | choice | bool | hex
    default: object = None  # None: optional, and leaving it out changes the calculation (see help)
    required: bool = False
    min: int | None = None
    max: int | None = None
    choices: tuple[Choice, ...] = ()
    multiple: bool = False  # several values, comma-separated on the command line
    help: str = ""
    source: str = ""

    def allowed(self) -> str:
        """The allowed values in words, for messages and listings."""
        if self.type == "int":
            if self.min is not None and self.max is not None:
                text = f"a whole number from {self.min} to {self.max}"
            elif self.min is not None:
                text = f"a whole number, at least {self.min}"
            else:
                text = "a whole number"
        elif self.type == "bool":
            text = "yes or no"
        elif self.type == "hex":
            text = "a hex number as printed on the map"
        else:
            text = "one of: " + ", ".join(c.value for c in self.choices)
        return text + (" (several allowed, comma-separated)" if self.multiple else "")

    def to_dict(self) -> dict:
        """Plain data for JSON (the HTML aid and module read this)."""
        d = {"id": self.id, "label": self.label, "type": self.type, "required": self.required,
             "multiple": self.multiple, "default": self.default, "allowed": self.allowed()}
        if self.type == "int":
            d["min"], d["max"] = self.min, self.max
        if self.type == "choice":
            d["choices"] = [c.to_dict() for c in self.choices]
        if self.help:
            d["help"] = self.help
        if self.source:
            d["source"] = self.source
        return d

    # --- parsing ---------------------------------------------------------------------------
    def parse(self, raw, hex_parser=None):
        """A checked value (a list when multiple) from a string or a Python value."""
        items = raw if isinstance(raw, (list, tuple)) else (
            [p for p in re.split(r"\s*,\s*", str(raw).strip()) if p != ""] if self.multiple
            else [raw])
        if (self.multiple and self.type == "choice" and [str(x).lower() for x in items] == ["none"]
                and "none" not in {c.value for c in self.choices}):
            return []  # none of them, said outright (no place held)
        if not self.multiple and len(items) != 1:
            raise CalcError(self._bad(raw, "give one value"))
        if self.multiple and not items:
            raise CalcError(self._bad(raw, "give at least one value"))
        values = [self._one(v, hex_parser) for v in items]
        return values if self.multiple else values[0]

    def _bad(self, raw, why: str = "") -> str:
        return (f"{self.id}={raw!s}" + (f": {why}" if why else "") + f"; {self.label} must be "
                f"{self.allowed()}")

    def _one(self, raw, hex_parser):
        if self.type == "int":
            if isinstance(raw, bool):
                raise CalcError(self._bad(raw))
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise CalcError(self._bad(raw, "not a whole number")) from None
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise CalcError(self._bad(raw, "out of range"))
            return value
        if self.type == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise CalcError(self._bad(raw))
        if self.type == "hex":
            try:
                return hex_parser(str(raw)) if hex_parser else str(raw)
            except ValueError as exc:
                raise CalcError(f"{self.id}={raw}: {exc}") from None
        text = str(raw).strip()
        for c in self.choices:
            if text.lower() in (c.value.lower(), c.label.lower()):
                return c.value
        for c in self.choices:
            if text.lower() in (a.lower() for a in c.aliases):
                return c.value
        raise CalcError(self._bad(raw, "not allowed"))


# Names players type for an input the table calls otherwise: US and British spelling, and the
# names the place inputs had before every kind took 'terrain' and 'hex' / 'sector'
# (builder.tables.place).
_ALIASES = {"defense": ("defence",), "defence": ("defense",),
            "defender_hex": ("hex",), "target_hex": ("hex",), "target_sector": ("sector",),
            "defender_terrain": ("terrain",), "target_terrain": ("terrain",),
            "defence_terrain": ("terrain",), "defense_terrain": ("terrain",)}


def _alias(name: str, by_id: dict) -> str:
    if name in by_id:
        return name
    return next((other for other in _ALIASES.get(name, ()) if other in by_id), name)


def canonical_name(name: str, specs: list[InputSpec]) -> str:
    """The table's own name for an input a player named (after aliases)."""
    return _alias(name, {s.id: s for s in specs})


def resolve(specs: list[InputSpec], given: dict, hex_parser=None) -> dict:
    """Every input's value: given ones parsed, the rest their defaults; unknown names rejected."""
    by_id = {s.id: s for s in specs}
    named: dict = {}
    for k, v in given.items():
        key = _alias(k, by_id)
        if key in named:
            raise CalcError(f"{key} is given twice ({k} is another name for {key}): give it once")
        named[key] = v
    given = named
    unknown = [k for k in given if k not in by_id]
    if unknown:
        raise CalcError(
            f"unknown input{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; this table takes: "
            + ", ".join(s.id for s in specs)
        )
    values = {}
    for s in specs:
        if s.id in given and given[s.id] is not None:
            values[s.id] = s.parse(given[s.id], hex_parser)
        elif s.required:
            raise CalcError(f"missing input {s.id} ({s.label}): give {s.id}=VALUE, {s.allowed()}")
        else:
            values[s.id] = s.default
    return values
