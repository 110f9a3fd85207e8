"""VASSAL's SequenceEncoder and the AddPiece text of a piece definition, escaped as the engine does.

A trait's type (and state) is a SequenceEncoder list: fields joined by a delimiter, a delimiter
inside a field escaped with a backslash, and a field starting with a backslash or wrapped in
single quotes quoted with ''. A piece nests its traits the same way with TAB as the delimiter
(each level adding one backslash), and the AddPiece command wraps type and state with '/'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def _field(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def encode_sequence(values: Iterable[object], delim: str) -> str:
    """Join values like VASSAL's SequenceEncoder(delim).append(...).getValue()."""
    escaped = "\\" + delim
    out: list[str] = []
    for raw in values:  # written for speed: a campaign module encodes 300,000 fields
        text = raw if type(raw) is str else _field(raw)
        if text:
            first, last = text[0], text[-1]
            if first == "\\" or last == "\\" or (first == "'" and last == "'"):
                text = f"'{text}'"
            if delim in text:
                text = text.replace(delim, escaped)
        out.append(text)
    return delim.join(out)


def decode_sequence(text: str, delim: str) -> list[str]:
    """Split a SequenceEncoder value back into fields (the inverse of encode_sequence)."""
    fields: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] == delim:
            cur.append(delim)
            i += 2
            continue
        if ch == delim:
            fields.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    fields.append("".join(cur))
    return [_unquote(f) for f in fields]


def _unquote(text: str) -> str:
    if len(text) > 1 and text.startswith("'") and text.endswith("'"):
        return text[1:-1]
    return text


def nest(parts: Sequence[str]) -> str:
    """Join traits outermost first as Decorator nesting does: a TAB, then 1, 2 ... backslashes.

    Decorator.getType() is encode([myType, inner.getType()], TAB), applied from the innermost
    trait outwards, so each level escapes the TABs (and leading backslashes) of everything inside.
    """
    if not parts:
        raise ValueError("a piece needs at least one trait")
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = encode_sequence([part, text], "\t")
    return text


def add_piece_command(type_text: str, state_text: str, piece_id: str | None = None) -> str:
    """The AddPiece command '+/id/type/state' that PieceSlots, prototypes and saves hold."""
    return encode_sequence(["+", piece_id or "null", type_text, state_text], "/")


def keystroke(code: int, modifiers: int = 0, name: str = "") -> str:
    """A NamedKeyStroke as traits store it: 'keyCode,modifiers[,name]'."""
    return f"{code},{modifiers}" + (f",{name}" if name else "")


CTRL = 130  # InputEvent.CTRL_MASK | CTRL_DOWN_MASK as VASSAL writes it
NAMED = 0xF8FF  # the key code VASSAL writes for a named key command (no real key)
