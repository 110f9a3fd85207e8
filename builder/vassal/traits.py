"""A thin typed mirror of the VASSAL piece traits the modules use: each knows its type and state.

Field orders are those of the engine's myGetType()/myGetState() (see shared/vassal/README.md and
engine-defaults.txt). A Piece is its traits outermost first, ending with the BasicPiece.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from builder.vassal.encoding import CTRL, add_piece_command, encode_sequence, keystroke, nest


class Trait:
    """One decorator (or the BasicPiece): its type text and its state text."""

    ID = ""

    def fields(self) -> list[object]:
        raise NotImplementedError

    def type_text(self) -> str:
        return self.ID + encode_sequence(self.fields(), ";")

    def state_text(self) -> str:
        return ""

    def images(self) -> list[str]:
        """Image files (in images/) the trait draws."""
        return []


@dataclass(frozen=True)
class BasicPiece(Trait):
    """The innermost trait: image, name, and on a map its position."""

    image: str
    name: str
    map_id: str = "null"
    x: int = 0
    y: int = 0
    gpid: str = ""

    ID = "piece;"

    def fields(self) -> list[object]:
        return ["", "", self.image, self.name.replace("\t", " ")]  # the engine splits this on TAB

    def state_text(self) -> str:
        return encode_sequence([self.map_id, self.x, self.y, self.gpid, 0], ";")

    def images(self) -> list[str]:
        return [self.image] if self.image else []


@dataclass(frozen=True)
class Marker(Trait):
    """Constant properties (Marker trait): keys and their values."""

    props: tuple[tuple[str, str], ...]

    ID = "mark;"

    def type_text(self) -> str:
        return self.ID + encode_sequence([k for k, _ in self.props], ",")

    def state_text(self) -> str:
        return encode_sequence([v for _, v in self.props], ",")


@dataclass(frozen=True)
class Layer(Trait):
    """An always-active Layer (Embellishment, 'emb2;') stepped by a key, e.g. Ctrl+F flip.

    Level names: '+ text' appends to the piece name, 'text +' prefixes it, '' leaves it.
    """

    layer_name: str
    images_: tuple[str, ...]
    level_names: tuple[str, ...]
    command: str = "Flip"
    key: str = keystroke(70, CTRL)
    loop: bool = True
    level: int = 1

    ID = "emb2;"

    def fields(self) -> list[object]:
        return [
            "", 128, "",  # activate command, modifiers, key (unused: always active)
            self.command, 128, "",  # increase command, modifiers, key (the key is below)
            "", 128, "",  # decrease command, modifiers, key
            "", "", 1,  # reset command, key, level
            False, 0, 0,  # draw underneath when selected, x and y offset
            encode_sequence(self.images_, ","),
            encode_sequence(self.level_names, ","),
            self.loop, self.layer_name,
            "", "",  # random key, random text
            False, "", 1,  # follow property, its name, first level value
            1, True,  # version, always active
            "", self.key, "",  # activate, increase, decrease key strokes
            self.layer_name, "1.0", "", True,
        ]

    def state_text(self) -> str:
        return str(self.level)

    def images(self) -> list[str]:
        return [i for i in self.images_ if i]


@dataclass(frozen=True)
class CalculatedProperty(Trait):
    """A property computed from an expression each time it is read ('calcProp;')."""

    name: str
    expression: str

    ID = "calcProp;"

    def fields(self) -> list[object]:
        return [self.name, trait_expression(self.expression), ""]


def trait_expression(e: str) -> str:
    """An expression as a CalculatedProperty holds it. VASSAL 3.7 reads a lone name as the
    property to look up, 'true' and 'false' too (Java identifiers to it): a constant truth is
    written in parentheses so that BeanShell evaluates it."""
    return f"({e.strip()})" if e.strip() in ("true", "false", "null") else e


@dataclass(frozen=True)
class UsePrototype(Trait):
    """Use the traits of a named PrototypeDefinition."""

    prototype: str

    ID = "prototype;"

    def fields(self) -> list[object]:
        return [self.prototype]


@dataclass(frozen=True)
class Delete(Trait):
    name: str = "Delete"
    key: str = keystroke(68, CTRL)

    ID = "delete;"

    def fields(self) -> list[object]:
        return [self.name, self.key, ""]


@dataclass(frozen=True)
class Clone(Trait):
    name: str = "Clone"
    key: str = keystroke(67, CTRL)

    ID = "clone;"

    def fields(self) -> list[object]:
        return [self.name, self.key, ""]


@dataclass(frozen=True)
class MarkMoved(Trait):
    """Shows the map's 'moved' marker on a piece once it has moved (MovementMarkable)."""

    image: str = "moved.png"
    x: int = 0
    y: int = 0

    ID = "markmoved;"

    def fields(self) -> list[object]:
        return [self.image, self.x, self.y, "Mark moved", keystroke(77, CTRL), "", False,
                "Mark piece as moved", "", "Mark piece as unmoved", ""]

    def state_text(self) -> str:
        return "false"

    def images(self) -> list[str]:
        return [self.image]


@dataclass(frozen=True)
class Mask(Trait):
    """Obscurable ('obs;'): a face-down card shows its back image to everybody."""

    image: str
    key: str = keystroke(77, CTRL)

    ID = "obs;"

    def fields(self) -> list[object]:
        return [self.key, self.image, "Mask", "I", "?", "player:", "Peek", "", True, "", ""]

    def state_text(self) -> str:
        return "null"

    def images(self) -> list[str]:
        return [self.image]


@dataclass(frozen=True)
class ReturnToDeck(Trait):
    """Sends a drawn card back to its deck (ReturnToDeck, 'return;')."""

    deck: str
    name: str = "Return to deck"
    key: str = keystroke(82, CTRL)

    ID = "return;"

    def fields(self) -> list[object]:
        return [self.name, self.key, self.deck, "Select destination", "", 2, True, ""]


@dataclass(frozen=True)
class SendToLocation(Trait):
    """A menu command (and key) that moves the piece to a point of a map ('sendto;', destination
    'L': x, y on the named board). 3.7 field order: name, key, map id, board, x, y, back name,
    back key, x/y index, x/y offset, description, destination, zone, region, filter, grid."""

    name: str
    key: str
    map_id: str
    board: str
    x: int
    y: int
    description: str = ""

    ID = "sendto;"

    def fields(self) -> list[object]:
        return [self.name, self.key, self.map_id, self.board, self.x, self.y, "", "", 0, 0, 1, 1,
                self.description, "L", "", "", "", ""]

    def state_text(self) -> str:
        return encode_sequence(["", "", ""], ";")


@dataclass(frozen=True)
class Piece:
    """A piece definition: traits outermost first, BasicPiece last."""

    traits: tuple[Trait, ...]

    def __post_init__(self) -> None:
        if not self.traits or not isinstance(self.traits[-1], BasicPiece):
            raise ValueError("a piece's last (innermost) trait must be its BasicPiece")

    @property
    def basic(self) -> BasicPiece:
        return self.traits[-1]  # type: ignore[return-value]

    def type_text(self) -> str:
        return nest([t.type_text() for t in self.traits])

    def state_text(self) -> str:
        return nest([t.state_text() for t in self.traits])

    def definition(self, piece_id: str | None = None) -> str:
        """The AddPiece text a PieceSlot, CardSlot or PrototypeDefinition holds."""
        return add_piece_command(self.type_text(), self.state_text(), piece_id)

    def images(self) -> list[str]:
        out: list[str] = []
        for t in self.traits:
            out.extend(i for i in t.images() if i not in out)
        return out

    def expanded(self, prototypes: Mapping[str, Piece]) -> Piece:
        """The piece with each UsePrototype replaced by the prototype's traits (as saves hold)."""
        out: list[Trait] = []
        for t in self.traits:
            if isinstance(t, UsePrototype):
                out.extend(prototypes[t.prototype].expanded(prototypes).traits[:-1])
            else:
                out.append(t)
        return Piece(tuple(out))

    def placed(self, map_id: str, x: int, y: int, gpid: str) -> Piece:
        """The same piece standing on a map at (x, y)."""
        basic = replace(self.basic, map_id=map_id, x=x, y=y, gpid=gpid)
        return Piece(self.traits[:-1] + (basic,))


def prototype_piece(traits: Sequence[Trait]) -> Piece:
    """A PrototypeDefinition's piece: its traits around an empty BasicPiece."""
    return Piece(tuple(traits) + (BasicPiece("", ""),))


# --- traits combat resolution and the Victory button use ----------------------------------------
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
