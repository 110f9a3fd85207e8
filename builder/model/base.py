"""Shared model pieces: immutable strict models, provenance marks, colours and lengths."""

from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field


class Model(BaseModel):
    """Immutable, strict about unknown keys (a misspelt key is an error, not a silent default)."""

    # defer_build: a model read back from the cache (load.model_cache) never needs the
    # validation schema, so it is built on first validation, not at import (0.09 s)
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True,
                              defer_build=True)


@functools.cache
def complete_schemas() -> None:
    """Build the validator and serializer of every model class, the classes a class's fields
    hold first, before a game is validated (once per process). Left deferred, each class
    validated first (a CSV row, a TOML file, the Game) generated its own copy of every class
    inside it, and forked workers each built again what they dumped (keys.slice_digest): a
    campaign game's load and digests took 0.08 s longer, a small game's 0.1 s."""
    done: set[type] = set()

    def build(cls: type) -> None:
        if cls in done:
            return
        done.add(cls)
        for f in cls.model_fields.values():
            todo = [f.annotation]
            while todo:
                a = todo.pop()
                if isinstance(a, type) and issubclass(a, Model):
                    build(a)
                todo.extend(getattr(a, "__args__", ()) or ())
        cls.model_rebuild()

    todo = list(Model.__subclasses__())
    while todo:
        cls = todo.pop(0)
        build(cls)
        todo.extend(cls.__subclasses__())


class Sourced(Model):
    """Anything that can say where it came from, and whether the rule documents give it."""

    assumed: bool | tuple[str, ...] = Field(
        default=False,
        description="true when the rule documents do not give this item (it was reconstructed); "
        "or the names of just the fields that were reconstructed",
    )
    source: str = Field(default="", description="where the rules give it, e.g. '11.2' or '18.0'")
    note: str = Field(default="", description="a remark for designers: why assumed, how read")

    def assumed_fields(self) -> tuple[str, ...]:
        """The reconstructed fields; ('*',) when the whole item is reconstructed."""
        if self.assumed is True:
            return ("*",)
        if self.assumed is False:
            return ()
        return tuple(self.assumed)


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _colour(value: object) -> str:
    text = str(value).strip()
    if not _COLOUR.match(text):
        raise ValueError(f"'{value}' is not a colour: write '#rrggbb', e.g. '#c8a96e'")
    return text.lower()


Colour = Annotated[str, BeforeValidator(_colour, json_schema_input_type=str)]

_UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, '"': 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|\"|pt)\s*$")


def parse_length(value: object) -> float:
    """'5/8in', '0.75 in', '19mm', '1"' -> millimetres."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # ValueError, not TypeError: pydantic turns only ValueError into a located message
        raise ValueError(  # noqa: TRY004
            f"{value} has no unit: write it with one, e.g. '{value}mm' or '{value}in'"
        )
    m = _LENGTH.match(str(value))
    if not m:
        raise ValueError(f"'{value}' is not a length: write a number and a unit, e.g. '5/8in' or '16mm'")
    mm = float(Fraction(m.group(1))) * _UNITS_MM[m.group(2)]
    if not 0.5 <= mm <= 5000:
        raise ValueError(f"'{value}' ({mm:.1f} mm) is not a sane size: use 0.5 mm to 5 m")
    return mm


Length = Annotated[float, BeforeValidator(parse_length, json_schema_input_type=str)]

_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


def _ident(value: object) -> str:
    text = str(value).strip()
    if not _ID.match(text):
        raise ValueError(
            f"'{value}' is not an id: use lower-case letters, digits, '-', '_' or '.', e.g. 'west-wall'"
        )
    return text


Ident = Annotated[str, BeforeValidator(_ident, json_schema_input_type=str)]
