"""Saved games (.vsav) that a PredefinedSetup loads: pieces, stacks and board choices.

The savedGame entry is one command list separated by ESC, as the engine writes it: begin_save,
each piece as an AddPiece command with its prototypes expanded, a stack per position holding
its pieces' ids, each map's board choice, end_save. No SETUP_STACK line: the game counts as new,
so the module's at-start stacks (the decks) are placed as well.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.vassal.archive import zip_bytes
from builder.vassal.encoding import add_piece_command, encode_sequence
from builder.vassal.traits import Piece

ESC = "\x1b"


@dataclass(frozen=True)
class Placed:
    """A piece standing on a map at a board pixel."""

    piece: Piece
    map_id: str
    x: int
    y: int
    gpid: str


def saved_game(placed: list[Placed], boards: dict[str, str], first_id: int = 1000) -> str:
    """The savedGame text: pieces, then one stack per (map, point), then board choices."""
    commands = ["begin_save"]
    stacks: dict[tuple[str, int, int], list[str]] = {}
    for i, p in enumerate(placed):
        pid = str(first_id + i)
        # Pieces in a stack keep no map of their own; the stack command puts them on the map.
        piece = p.piece.placed("null", p.x, p.y, p.gpid)
        commands.append(add_piece_command(piece.type_text(), piece.state_text(), pid))
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
