"""Saved games (.vsav) that a PredefinedSetup loads: pieces, stacks and board choices.

The savedGame entry is one command list separated by ESC, as the engine writes it: begin_save,
each piece as an AddPiece command with its prototypes expanded, a stack per position holding
its pieces' ids, each map's board choice, end_save. No SETUP_STACK line: the game counts as new,
so the module's at-start stacks (the decks) are placed as well.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.vassal.archive import zip_bytes
from builder.vassal.encoding import add_piece_command, encode_sequence, nest
from builder.vassal.traits import BasicPiece, Piece

ESC = "\x1b"
# Where the BasicPiece's state (its map, point and id) goes in a piece's encoded state: the rest
# of a unit's state is encoded once and kept between builds (module.PieceBook.saved_texts).
# Nesting escapes TABs and quotes a text starting or ending with a backslash or a quote; a
# BasicPiece state placed here holds none of them (checked), so it nests as this mark does.
BASIC_STATE = "\x00basic-state\x00"


@dataclass(frozen=True)
class Placed:
    """A piece standing on a map at a board pixel: the piece, or its encoded texts (type, and
    state with BASIC_STATE where its BasicPiece's goes: encoded_texts)."""

    piece: Piece | None
    map_id: str
    x: int
    y: int
    gpid: str
    texts: tuple[str, str] | None = None


def encoded_texts(piece: Piece) -> tuple[str, str]:
    """A piece's type text, and its state text with BASIC_STATE for its BasicPiece's state."""
    return piece.type_text(), nest([t.state_text() for t in piece.traits[:-1]] + [BASIC_STATE])


def saved_game(placed: list[Placed], boards: dict[str, str], first_id: int = 1000) -> str:
    """The savedGame text: pieces, then one stack per (map, point), then board choices."""
    commands = ["begin_save"]
    stacks: dict[tuple[str, int, int], list[str]] = {}
    for i, p in enumerate(placed):
        pid = str(first_id + i)
        # Pieces in a stack keep no map of their own; the stack command puts them on the map.
        if p.texts is None:
            piece = p.piece.placed("null", p.x, p.y, p.gpid)
            commands.append(add_piece_command(piece.type_text(), piece.state_text(), pid))
        else:
            basic = BasicPiece("", "", "null", p.x, p.y, p.gpid).state_text()
            if any(ch in basic for ch in "\t\\'"):
                raise ValueError(f"a piece's position {basic!r} cannot be nested as encoded")
            type_text, state = p.texts
            commands.append(add_piece_command(type_text, state.replace(BASIC_STATE, basic), pid))
        stacks.setdefault((p.map_id, p.x, p.y), []).append(pid)
    sid = first_id + len(placed)
    for (map_id, x, y), ids in stacks.items():
        state = encode_sequence([map_id, x, y, *ids, "@@-1"], ";")
        commands.append(add_piece_command("stack", state, str(sid)))
        sid += 1
    for map_id, board in boards.items():
        commands.append(f"{map_id}BoardPicker\t{board}\t0\t0")
    commands.append("end_save")
    return ESC.join(commands)


def vsav_bytes(text: str, moduledata: bytes) -> bytes:
    """The .vsav archive: the (plain, unobfuscated) savedGame and the module's metadata."""
    return zip_bytes({"savedGame": text.encode("utf-8"), "moduledata": moduledata})
