"""A structural validator for .vmod files, independent of the code that writes them.

Checks what VASSAL would reject or silently get wrong: element classes and attributes unknown
to VASSAL 3.7 (engine-defaults.txt), referenced images and files missing from the archive, a
piece whose state does not have exactly one entry per trait, and at-start or saved pieces placed
outside their board.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from pathlib import Path

from lxml import etree

from builder.vassal.encoding import decode_sequence

P = "VASSAL.build."
DEFAULTS_FILE = Path(__file__).resolve().parents[3] / "shared" / "vassal" / "engine-defaults.txt"

# Elements engine-defaults.txt could not print (no default instance) or that print no
# attributes, with the attributes VASSAL gives them (3.6/3.7 getAttributeNames()).
SUPPLEMENT: dict[str, set[str]] = {
    P + "module.Map": {
        "allowMultiple", "backgroundcolor", "buttonName", "changeFormat", "color", "createFormat",
        "edgeHeight", "edgeWidth", "hideKey", "hotkey", "icon", "launch", "mapName", "markMoved",
        "markUnmovedHotkey", "markUnmovedIcon", "markUnmovedReport", "markUnmovedText",
        "markUnmovedTooltip", "moveKey", "moveToFormat", "moveWithinFormat", "showKey",
        "thickness", "tooltip"},
    P + "module.map.HidePiecesButton": {"buttonText", "hiddenIcon", "hotkey", "showingIcon",
                                        "tooltip"},
    P + "module.map.GlobalMap": {"buttonText", "color", "hotkey", "icon", "scale", "thickness",
                                 "tooltip"},
    P + "module.map.HighlightLastMoved": {"color", "enabled", "thickness"},
    P + "module.map.boardPicker.board.Region": {"name", "originx", "originy"},
    P + "module.map.boardPicker.board.mapgrid.Zone": {"highlightProperty", "locationFormat",
                                                      "name", "path", "useHighlight",
                                                      "useParentGrid"},
    P + "module.map.boardPicker.Board": {"name", "image"},
    P + "module.map.SetupStack": {"name", "owningBoard", "location"},
    P + "module.map.DrawPile": {"name", "owningBoard"},
    P + "module.PieceWindow": {"name", "icon"},
    P + "module.turn.TurnTracker": {"tooltip"},
    P + "widget.TabWidget": {"entryName"},
    P + "widget.ListWidget": {"entryName"},
    P + "widget.PanelWidget": {"entryName"},
    P + "widget.BoxWidget": {"entryName"},
    P + "widget.PieceSlot": {"entryName"},
    P + "widget.CardSlot": {"entryName"},
    P + "module.turn.ListTurnLevel": {"name", "property", "prompt"},
    P + "module.turn.CounterTurnLevel": {"name", "property"},
    P + "module.ChartWindow": {"icon"},
    P + "widget.Chart": {"chartName", "fileName"},
    P + "widget.HtmlChart": {"chartName", "fileName"},
    P + "module.PredefinedSetup": {"name", "file"},
    P + "module.properties.GlobalProperty": {"name"},
    P + "module.turn.TurnGlobalHotkey": {"name", "hotkey", "match", "reportFormat"},
    P + "module.properties.ChangePropertyButton": {
        "desc", "text", "tooltip", "icon", "hotkey", "canDisable", "propertyGate", "reportFormat",
        "propChanger"},
    **{P + "module.map." + n: set() for n in (
        "PieceMover", "KeyBufferer", "MenuDisplayer", "ForwardToKeyBuffer", "ForwardToChatter",
        "Scroller", "MapCenterer", "StackExpander", "SelectionHighlighters", "ImageSaver")},
}
# Images the engine ships inside Vengine.jar (a module may name them without including them).
ENGINE_IMAGES = {"moved.gif", "unmoved.gif", "die.gif", "thread.gif", "zoomIn.gif", "zoomOut.gif",
                 "zoom.png", "globe_selected.gif", "globe_unselected.gif", "overview.gif",
                 "inventory.gif", "notes.gif"}
CHILD_ELEMENTS = {"entry", "option", "setup"}  # non-component children some elements hold


def engine_attributes() -> dict[str, set[str]]:
    """Element -> attribute names VASSAL 3.7.26 knows: engine-defaults.txt plus SUPPLEMENT."""
    if DEFAULTS_FILE.exists():
        lines = DEFAULTS_FILE.read_text().splitlines()
        known: dict[str, set[str]] = {}
        for line in lines:
            line = line.strip()
            if line.startswith("<VASSAL"):
                el = etree.fromstring(line)
                known[el.tag] = set(el.attrib)
    else:  # outside the workspace: the generated copy of the same file
        from builder.vassal.engine_attributes import DEFAULTS

        known = {k: set(v) for k, v in DEFAULTS.items()}
    for tag, names in SUPPLEMENT.items():
        known.setdefault(tag, set()).update(names)
    return known


# --- pieces ----------------------------------------------------------------------------------
def split_traits(text: str) -> list[str]:
    """Undo Decorator nesting: 'a<TAB>b\\<TAB>c' -> ['a', 'b', 'c']."""
    out = []
    while True:
        parts = decode_sequence(text, "\t")
        if len(parts) == 1:
            out.append(parts[0])
            return out
        if len(parts) != 2:
            raise ValueError(f"a trait list splits into {len(parts)} parts, not 2: {text[:80]!r}")
        out.append(parts[0])
        text = parts[1]


def parse_piece(definition: str) -> tuple[list[str], list[str]]:
    """An AddPiece text '+/id/type/state' -> (trait types, trait states)."""
    fields = decode_sequence(definition, "/")
    if len(fields) != 4 or fields[0] != "+":
        raise ValueError(f"not an AddPiece command: {definition[:80]!r}")
    return split_traits(fields[2]), split_traits(fields[3])


def trait_images(trait_type: str) -> list[str]:
    """Image files a trait type names."""
    ident, _, rest = trait_type.partition(";")
    fields = decode_sequence(rest, ";")
    if ident == "piece" and len(fields) >= 3:
        return [fields[2]] if fields[2] else []
    if ident == "emb2" and len(fields) >= 16:
        return [i for i in decode_sequence(fields[15], ",") if i]
    if ident in ("obs", "markmoved") and len(fields) >= 2:
        img = fields[1] if ident == "obs" else fields[0]
        return [img] if img else []
    return []


def png_size(data: bytes) -> tuple[int, int]:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


# --- the validator ---------------------------------------------------------------------------
class Report:
    def __init__(self):
        self.problems: list[str] = []
        self.pieces = 0
        self.saved_pieces = 0

    def add(self, text: str) -> None:
        self.problems.append(text)


def validate(vmod: bytes | Path) -> Report:
    """Every structural problem in a module (an empty report.problems means none)."""
    data = vmod.read_bytes() if isinstance(vmod, Path) else vmod
    zf = zipfile.ZipFile(io.BytesIO(data))
    names = set(zf.namelist())
    rep = Report()
    for need in ("buildFile.xml", "moduledata"):
        if need not in names:
            rep.add(f"archive has no {need}")
    if rep.problems:
        return rep
    etree.fromstring(zf.read("moduledata"))
    root = etree.fromstring(zf.read("buildFile.xml"))
    known = engine_attributes()
    images = {n[len("images/"):] for n in names if n.startswith("images/")}

    def need_image(img: str, where: str) -> None:
        if img and img not in images and img not in ENGINE_IMAGES:
            rep.add(f"{where}: image '{img}' is not in images/")

    boards: dict[str, tuple[int, int]] = {}
    for el in root.iter():
        tag = el.tag
        if tag in CHILD_ELEMENTS:
            continue
        if tag not in known:
            rep.add(f"<{tag}>: not a VASSAL 3.7 component")
            continue
        for a in el.attrib:
            if a not in known[tag]:
                rep.add(f"<{tag}>: attribute '{a}' is unknown to VASSAL (ignored silently)")
        if tag == P + "module.map.boardPicker.Board":
            img = el.get("image", "")
            need_image(img, f"board {el.get('name')}")
            if img in images:
                boards[el.get("name")] = png_size(zf.read("images/" + img))
        if tag in (P + "widget.PieceSlot", P + "widget.CardSlot", P + "module.PrototypeDefinition"):
            label = el.get("entryName") or el.get("name")
            _check_piece(rep, el.text or "", f"{tag.rsplit('.', 1)[1]} '{label}'", need_image)
            rep.pieces += 1
        if tag in (P + "widget.HtmlChart", P + "widget.Chart"):
            fname = el.get("fileName", "")
            if tag.endswith("HtmlChart"):
                if fname not in names:
                    rep.add(f"chart '{el.get('chartName')}': file '{fname}' missing")
                else:
                    _check_html(rep, zf.read(fname).decode("utf-8"), fname, need_image)
            else:
                need_image(fname, f"chart '{el.get('chartName')}'")
        if tag == P + "module.PredefinedSetup" and el.get("useFile") == "true":
            fname = el.get("file", "")
            if fname not in names:
                rep.add(f"set-up '{el.get('name')}': file '{fname}' missing")
    # at-start stacks and decks on their boards
    for el in root.iter(P + "module.map.SetupStack", P + "module.map.DrawPile"):
        board = el.get("owningBoard")
        if board not in boards:
            rep.add(f"at-start '{el.get('name')}': board '{board}' does not exist")
            continue
        if el.get("useGridLocation") == "true":
            rep.add(f"at-start '{el.get('name')}': grid location '{el.get('location')}' "
                    "cannot be checked here (write x/y)")
        x, y = int(el.get("x", "0")), int(el.get("y", "0"))
        w, h = boards[board]
        if not (0 <= x < w and 0 <= y < h):
            rep.add(f"at-start '{el.get('name')}' at ({x},{y}) is outside board '{board}' {w}x{h}")
    # saved set-ups: pieces decode, one state per trait, on a known map inside its board
    maps = {m.get("mapName"): [b.get("name") for b in m.iter(P + "module.map.boardPicker.Board")]
            for m in root.iter(P + "module.Map")}
    for el in root.iter(P + "module.PredefinedSetup"):
        fname = el.get("file", "")
        if fname in names:
            _check_save(rep, zf.read(fname), fname, maps, boards, need_image)
    return rep


def _check_piece(rep: Report, text: str, where: str, need_image) -> list[str]:
    try:
        types, states = parse_piece(text)
    except ValueError as exc:
        rep.add(f"{where}: {exc}")
        return []
    if len(types) != len(states):
        rep.add(f"{where}: {len(types)} traits but {len(states)} state entries")
    if not types[-1].startswith("piece;"):
        rep.add(f"{where}: the innermost trait is not a BasicPiece")
    for tt in types:
        for img in trait_images(tt):
            need_image(img, where)
    return states


def _check_html(rep: Report, text: str, fname: str, need_image) -> None:
    for img in re.findall(r"<img[^>]+src=\"([^\"]+)\"", text):
        need_image(img, fname)
    anchors = set(re.findall(r"<a name=\"([^\"]+)\"", text))
    for target in re.findall(r"<a href=\"#([^\"]+)\"", text):
        if target not in anchors:
            rep.add(f"{fname}: link to #{target} has no anchor")


def _check_save(rep: Report, data: bytes, fname: str, maps, boards, need_image) -> None:
    z = zipfile.ZipFile(io.BytesIO(data))
    text = z.read("savedGame").decode("utf-8")
    if text.startswith("!VCSK"):
        key = int(text[5:7], 16)
        body = text[7:]
        text = bytes(int(body[i:i + 2], 16) ^ key for i in range(0, len(body), 2)).decode("utf-8")
    commands = text.split("\x1b")
    if commands[0] != "begin_save" or commands[-1] != "end_save":
        rep.add(f"{fname}: does not run begin_save ... end_save")
    ids = set()
    for cmd in commands:
        if not cmd.startswith("+/"):
            continue
        fields = decode_sequence(cmd, "/")
        if fields[2] == "stack":
            st = decode_sequence(fields[3], ";")
            map_id, x, y = st[0], int(st[1]), int(st[2])
            if map_id not in maps:
                rep.add(f"{fname}: stack on unknown map '{map_id}' (VASSAL drops it)")
                continue
            w, h = boards[maps[map_id][0]]
            if not (0 <= x < w and 0 <= y < h):
                rep.add(f"{fname}: stack at ({x},{y}) outside map '{map_id}' ({w}x{h})")
            for pid in st[3:-1]:
                if pid not in ids:
                    rep.add(f"{fname}: stack holds unknown piece {pid}")
            continue
        ids.add(fields[1])
        states = _check_piece(rep, cmd, f"{fname} piece {fields[1]}", need_image)
        rep.saved_pieces += 1
        if any(s.startswith("prototype;") for s in split_traits(fields[2])):
            rep.add(f"{fname} piece {fields[1]}: prototypes not expanded (saves expand them)")
        if states and not re.fullmatch(r"[^;]*;-?\d+;-?\d+;.*", states[-1]):
            rep.add(f"{fname} piece {fields[1]}: BasicPiece state '{states[-1]}' has no position")
