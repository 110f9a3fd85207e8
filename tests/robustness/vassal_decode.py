"""VASSAL's own reading of piece definitions, ported line for line from the engine's Java
(VASSAL.tools.SequenceEncoder.Decoder and BasicCommandEncoder.createPiece), so the tests decode
a module as the engine does and not with the builder's own decoder."""

from __future__ import annotations


def tokens(value: str, delim: str) -> list[str]:
    """Every token SequenceEncoder.Decoder(value, delim).nextToken() returns, in order."""
    out: list[str] = []
    val: str | None = value
    while val is not None:
        i = val.find(delim)
        if i < 0:
            token, val = val, None
        else:
            buffer: list[str] = []
            begin, end = 0, i
            while begin < end:  # a delimiter after a backslash belongs to the token
                if val[end - 1] == "\\":
                    buffer.append(val[begin:end - 1])
                    begin = end
                    end = val.find(delim, end + 1)
                else:
                    break
            if end < 0:
                buffer.append(val[begin:])
                val = None
            else:
                buffer.append(val[begin:end])
                val = "" if end >= len(val) - 1 else val[end + 1:]
            token = "".join(buffer)
        if token.startswith("'") and token.endswith("'") and len(token) > 1:
            token = token[1:-1]
        out.append(token)
    return out


def _first_two(value: str, delim: str) -> tuple[str, str | None]:
    parts = tokens(value, delim)  # the engine reads two tokens and ignores any third
    return parts[0], (parts[1] if len(parts) > 1 else None)


def traits(type_text: str, state_text: str) -> list[tuple[str, str]]:
    """(type, state) of each trait, outermost first, the basic piece last (createPiece order)."""
    out: list[tuple[str, str]] = []
    t: str | None = type_text
    s: str | None = state_text
    while t is not None:
        my_type, inner_type = _first_two(t, "\t")
        my_state, inner_state = _first_two(s, "\t") if s is not None else ("", None)
        out.append((my_type, my_state))
        t, s = inner_type, inner_state
    return out


def add_piece(command: str) -> tuple[str, str]:
    """(type, state) of an AddPiece command '+/id/type/state' (BasicCommandEncoder.decode)."""
    assert command.startswith("+/"), command[:40]
    parts = tokens(command[2:], "/")
    return parts[1], (parts[2] if len(parts) > 2 else "")


def piece_name(type_text: str) -> str:
    """The name BasicPiece.mySetType reads: 'piece;clone;delete;image;name'."""
    basic = traits(type_text, "")[-1][0]
    assert basic.startswith("piece;"), f"the innermost trait is not a basic piece: {basic[:60]}"
    fields = tokens(basic, ";")
    return fields[4] if len(fields) > 4 else ""


def properties(type_text: str, state_text: str) -> dict[str, str]:
    """Constant properties of the Marker ('mark;') traits: key -> value."""
    props: dict[str, str] = {}
    for t, s in traits(type_text, state_text):
        if t.startswith("mark;"):
            props.update(zip(tokens(t[len("mark;"):], ","), tokens(s, ",")))
    return props


def prototype_refs(type_text: str) -> list[str]:
    """Names of the prototypes a piece uses (UsePrototype: 'prototype;name')."""
    return [tokens(t[len("prototype;"):], ";")[0]
            for t, _ in traits(type_text, "") if t.startswith("prototype;")]
