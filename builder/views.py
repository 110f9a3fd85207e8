"""Designer and player views of one game: the one place that decides what a player sees.

The model carries provenance (`source`, `assumed`, `note` on every item), other readings of
ambiguous tables and the editor's notes in the rules text. That is designer material: the
print files, the HTML aid and the VASSAL module are built from `player_view(game)`, which has
none of it; the designer's proof (builder.outputs.proof) and `builder check --assumed` show
all of it. Section references (`source = "11.2"`) are rules references a player uses, so
they stay.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from typing import Any

from pydantic import BaseModel

from builder.model.base import Sourced
from builder.model.game_model import Game
from builder.model.scenario import Section
from builder.model.tables import TableBase

# Words and shapes that belong to the designer's proof, never to a player's page: provenance
# marks, the extraction's history, readings, raw keys (snake_case, key=value, quoted ids).
# "it is assumed that" / "are assumed to" are published rules wording (Scheldt 11.1, 15.3).
DESIGNER_ONLY = re.compile(
    r"(?<!it is )(?<!are )\bassumed\b"
    r"|\breconstruct\w*"
    r"|\bextract(?:ion|ed)\b"
    r"|\breadings?\b"
    r"|\brule documents?\b"
    r"|\beditor's note\b"
    r"|\brules\.md\b"
    r"|\bsee the [\w&]+ standard rules\b"
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
    r"|\b[a-z][\w-]*=[\w.-]+"
    r"|'[a-z][a-z0-9]*(?:-[a-z0-9]+)+'",
    re.IGNORECASE,
)

# an editor's note is a block quote opening with it; it runs to the next blank line
_EDITOR_NOTE = re.compile(r"(?m)^>[ \t]*\*\*Editor's note[^\n]*(?:\n>[^\n]*)*\n?")


def designer_words(text: str) -> list[str]:
    """Every designer-only word or raw id in text a player would read (empty: clean)."""
    return [m.group(0) for m in DESIGNER_ONLY.finditer(text)]


# abbreviations a key may use, as a player reads them
_KEY_WORDS = {"los": "line of sight", "mp": "MP", "zoc": "ZOC", "ezoc": "EZOC", "vp": "VP",
              "rp": "RP", "srp": "SRP", "crt": "CRT", "mg": "MG", "hmg": "heavy MG"}


def key_label(key: str) -> str:
    """A source key as a player reads it: 'defense_divisor' -> 'Defense divisor', 'los' ->
    'Line of sight'."""
    words = [_KEY_WORDS.get(w, w) for w in re.split(r"[_\-\s]+", key.strip()) if w]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def editor_notes(markdown: str) -> list[str]:
    """The editor's notes of a rules text, each as one line of plain text."""
    return [" ".join(line.lstrip(">").strip() for line in m.group(0).splitlines()).replace("**", "")
            for m in _EDITOR_NOTE.finditer(markdown)]


def strip_editor_notes(markdown: str) -> str:
    """Rules text without its editor's notes (how the extraction was read or rebuilt)."""
    return re.sub(r"\n{3,}", "\n\n", _EDITOR_NOTE.sub("", markdown)).strip("\n")


_PLAIN = {str, int, float, bool, type(None)}  # nothing to strip: not walked into (110,000 of a
# campaign game's 130,000 values)


def _player(value: Any) -> Any:
    """value with provenance, readings and editor's notes removed (shared when unchanged)."""
    if isinstance(value, tuple):
        for v in value:  # most tuples (a unit's factors, a hex list) hold plain values only
            if type(v) not in _PLAIN:
                break
        else:
            return value
        items = tuple(v if type(v) in _PLAIN else _player(v) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if isinstance(value, dict):
        items = {k: v if type(v) in _PLAIN else _player(v) for k, v in value.items()}
        return value if all(items[k] is value[k] for k in value) else items
    if not isinstance(value, BaseModel):
        return value
    # only what changes is collected: most of a game's 20,000 models change nothing
    held = value.__dict__  # a model's fields (and a Game's cached lookups, not walked)
    changed = {}
    for name in _walked_fields(type(value)):
        v = held[name]
        if type(v) not in _PLAIN:
            p = _player(v)
            if p is not v and p != v:
                changed[name] = p
    if isinstance(value, Sourced):
        if value.assumed is not False:
            changed["assumed"] = False
        if value.note:
            changed["note"] = ""
    if isinstance(value, TableBase) and value.readings != ():
        changed["readings"] = ()
    if isinstance(value, Section):
        text = strip_editor_notes(value.text)
        if text != value.text:
            changed["text"] = text
    if not changed:
        return value
    fields = {name: held[name] for name in _field_names(type(value))} | changed
    # model_construct, not model_copy: a copy would keep the original's cached lookups
    # (Game.table_by_id ...), which still point at the designer's items
    return type(value).model_construct(_fields_set=value.model_fields_set, **fields)


@functools.cache
def _field_names(cls: type[BaseModel]) -> tuple[str, ...]:
    return tuple(cls.model_fields)


@functools.cache
def _walked_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields that may hold a model, a tuple or a dict: a field declared a str, a number or
    a flag (or None) holds nothing to strip inside it (its own text is handled by name)."""
    out = []
    for name, f in cls.model_fields.items():
        a = f.annotation
        union = typing.get_origin(a) in (typing.Union, types.UnionType)
        options = typing.get_args(a) if union else (a,)
        if not all(o in _PLAIN for o in options):
            out.append(name)
    return tuple(out)


# fields that hold ids or references, not words a player reads
_REFERENCES = {"id", "kind", "folder", "slug", "terrain_effect", "defence_effect", "effect",
               "group", "key", "fire_first", "hexside_applies", "terrain", "hexsides", "type",
               "formation", "side", "counter", "deck", "unit", "at", "also", "region", "style",
               "pattern", "except_terrain", "default_terrain", "victory_table", "shift",
               "rounding", "rounding_below", "draw", "marks", "red", "setup_file", "line"}


def designer_text(game: Game) -> list[tuple[str, list[str]]]:
    """(where, designer words) for each text of the player view that a page prints and that
    says what belongs in a `note` ('assumed', 'reading', a raw key). Empty: clean."""
    out: list[tuple[str, list[str]]] = []

    # where a value is, as (parent, step): a step is a field name, a list item's (index, item)
    # (named by its id when it has one) or a dict entry's (key, None); written out only for a
    # text that is found (a campaign map has 34,000 hexes)
    def written(where) -> str:
        steps = []
        while where is not None:
            where, step = where
            if isinstance(step, str):
                steps.append(f".{step}")
            else:
                index, item = step
                steps.append(f"[{getattr(item, 'id', index)}]")
        return "".join(reversed(steps)).lstrip(".")

    read: dict[type, list[str]] = {}  # each model class's fields holding words, not ids
    clean: set[str] = set()  # texts already found clean (unit types, names, repeat often)

    def walk(value: Any, where) -> None:
        if isinstance(value, str):
            if value not in clean:
                if DESIGNER_ONLY.search(value):
                    out.append((written(where), designer_words(value)))
                else:
                    clean.add(value)
        elif isinstance(value, BaseModel):
            cls = type(value)
            names = read.get(cls)
            if names is None:
                names = read[cls] = [n for n in cls.model_fields if n not in _REFERENCES]
            for name in names:
                if not (name == "rules" and where is None):
                    walk(getattr(value, name), (where, name))
        elif isinstance(value, (tuple, list)):
            for i, item in enumerate(value):
                walk(item, (where, (i, item)))
        elif isinstance(value, dict):
            for k, item in value.items():
                walk(item, (where, (k, None)))

    walk(player_view(game), None)
    return out


_VIEWS: dict[int, tuple[Game, Game]] = {}


def player_view(game: Game) -> Game:
    """The game as a player sees it: no notes, no assumed marks, no readings, no editor's
    notes (the same object for the same game, so the print cache is shared by formats)."""
    if any(view is game for _, view in _VIEWS.values()):
        return game
    hit = _VIEWS.get(id(game))
    if hit and hit[0] is game:
        return hit[1]
    view = _player(game)  # the game itself when it has nothing to hide
    _VIEWS.clear()  # one game at a time, as the print cache keeps it
    _VIEWS[id(game)] = (game, view)
    return view
