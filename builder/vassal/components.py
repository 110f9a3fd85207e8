"""A thin typed mirror of VASSAL's buildFile components: each class knows its tag and attributes.

A component is built with the attributes that differ from the engine's defaults; every other
known attribute is written with its default, so the buildFile says everything explicitly. An
attribute the engine does not know is refused here (VASSAL would ignore it without a word).
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from builder.vassal.engine_attributes import DEFAULTS, P

# Attributes a fresh instance leaves out of its build element (null), and elements the engine
# could not print alone, as VASSAL 3.7 names them (checked against the engine by the tests).
EXTRA: dict[str, dict[str, str]] = {
    P + "module.PrototypeDefinition": {},
    P + "module.map.boardPicker.Board": {"image": "", "name": ""},
    P + "module.map.SetupStack": {"name": "", "owningBoard": "", "location": ""},
    P + "module.map.DrawPile": {"name": "", "owningBoard": ""},
    P + "module.PieceWindow": {"name": "", "icon": ""},
    P + "widget.TabWidget": {"entryName": ""},
    P + "widget.ListWidget": {"entryName": ""},
    P + "widget.PanelWidget": {"entryName": ""},
    P + "widget.BoxWidget": {"entryName": ""},
    P + "widget.PieceSlot": {"entryName": ""},
    P + "widget.CardSlot": {"entryName": ""},
    P + "module.turn.ListTurnLevel": {"name": "", "property": ""},
    P + "module.turn.CounterTurnLevel": {"name": "", "property": ""},
    P + "module.ChartWindow": {"icon": ""},
    P + "widget.Chart": {"chartName": "", "fileName": ""},
    P + "widget.HtmlChart": {"chartName": "", "fileName": ""},
    P + "module.PredefinedSetup": {"name": "", "file": ""},
    P + "module.map.boardPicker.board.RegionGrid": {},
    P + "module.Map": {
        "mapName": "", "allowMultiple": "false", "backgroundcolor": "255,255,255",
        "buttonName": "", "changeFormat": "$message$", "color": "255,0,0",
        "createFormat": "$pieceName$ created in $location$ *", "edgeHeight": "0",
        "edgeWidth": "0", "hideKey": "", "hotkey": "", "icon": "", "launch": "false",
        "markMoved": "Always", "markUnmovedHotkey": "", "markUnmovedIcon": "/images/unmoved.gif",
        "markUnmovedText": "", "markUnmovedTooltip": "Mark all pieces on this map as not moved",
        "moveKey": "", "moveToFormat": "$pieceName$ moves $previousLocation$ -> $location$ *",
        "moveWithinFormat": "$pieceName$ moves $previousLocation$ -> $location$ *",
        "markUnmovedReport": "", "showKey": "", "thickness": "3", "tooltip": "",
    },
    P + "module.map.HidePiecesButton": {
        "buttonText": "", "hiddenIcon": "/images/globe_selected.gif", "hotkey": "",
        "showingIcon": "/images/globe_unselected.gif", "tooltip": "Hide all pieces on this map",
    },
    P + "module.map.GlobalMap": {
        "buttonText": "", "color": "255,0,0", "hotkey": "", "icon": "/images/overview.gif",
        "scale": "0.2", "thickness": "2", "tooltip": "Show/Hide overview window",
    },
    P + "module.map.HighlightLastMoved": {"color": "255,0,0", "enabled": "true", "thickness": "2"},
    P + "module.map.PieceMover": {},
    P + "module.map.KeyBufferer": {},
    P + "module.map.MenuDisplayer": {},
    P + "module.map.ForwardToKeyBuffer": {},
    P + "module.map.ForwardToChatter": {},
    P + "module.map.Scroller": {},
    P + "module.map.MapCenterer": {},
    P + "module.map.StackExpander": {},
    P + "module.map.SelectionHighlighters": {},
    P + "module.map.ImageSaver": {},
    # the turn label's tooltip in the turn window (3.7 source: TurnTracker TOOLTIP; the button's
    # own, 'buttonTooltip', is not an attribute the engine reads from the buildFile)
    P + "module.turn.TurnTracker": {"tooltip": ""},
    # a TurnTracker child engine-defaults.txt does not print (3.7 source: name, hotkey, match,
    # reportFormat; the same in the test engine)
    P + "module.turn.TurnGlobalHotkey": {"name": "", "hotkey": "", "match": "", "reportFormat": ""},
    P + "module.properties.GlobalProperty": {"name": ""},
    # a GlobalProperty's toolbar button (3.7.26 ChangePropertyButton and AbstractToolbarItem
    # getAttributeNames; no name attribute: its name key is empty)
    P + "module.properties.ChangePropertyButton": {
        "desc": "", "text": "", "tooltip": "", "icon": "", "hotkey": "", "canDisable": "false",
        "propertyGate": "", "reportFormat": "", "propChanger": "P"},
}


def known_attributes(tag: str) -> dict[str, str]:
    """The attributes (with defaults) VASSAL knows for an element; KeyError for an unknown tag."""
    if tag not in DEFAULTS and tag not in EXTRA:
        raise KeyError(tag)
    return {**DEFAULTS.get(tag, {}), **EXTRA.get(tag, {})}


class Component:
    """One buildFile element: the Java class name, attributes, children and optional body text
    (a piece slot's or prototype's definition). `text=` is an attribute like any other (a
    toolbar button's label), never the body."""

    TAG = ""
    WRITE_DEFAULTS = True  # write every known attribute (False: only the given ones)

    def __init__(self, *children: Component | Iterable[Component] | None, body: str | None = None,
                 **attrs: object):
        known = known_attributes(self.TAG)
        unknown = sorted(set(attrs) - set(known))
        if unknown:
            raise ValueError(f"{self.TAG} has no attribute {', '.join(unknown)}")
        self.attrs = {k: _text(v) for k, v in attrs.items()}
        self.body = body
        self.children: list[Component] = []
        for c in children:
            if c is None:
                continue
            if isinstance(c, Component):
                self.children.append(c)
            else:
                self.children.extend(x for x in c if x is not None)

    def all_attributes(self) -> dict[str, str]:
        base = known_attributes(self.TAG) if self.WRITE_DEFAULTS else {}
        return dict(sorted({**base, **self.attrs}.items()))

    def element(self) -> etree._Element:
        el = etree.Element(self.TAG)
        for k, v in self.all_attributes().items():
            el.set(k, v)
        if self.body is not None:
            el.text = self.body
        for c in self.children:
            el.append(c.element())
        self.extra_xml(el)
        return el

    def extra_xml(self, el: etree._Element) -> None:
        """Non-component child elements (PlayerRoster entries, GlobalOptions options)."""

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


class Prebuilt(Component):
    """A component kept as its buildFile XML (etree.tostring of its element): parsed back, not
    built again from Python objects (the combat components of a campaign map are 9,000
    elements: 0.3 s to unpickle and build, 0.04 s to parse)."""

    def __init__(self, xml: bytes):  # no tag, attributes or children to check
        self.attrs, self.body, self.children = {}, None, []
        self.xml = xml

    def element(self) -> etree._Element:
        return etree.fromstring(self.xml)


def _text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _component(tag: str, name: str, write_defaults: bool = True) -> type[Component]:
    cls = type(name, (Component,), {"TAG": P + tag, "WRITE_DEFAULTS": write_defaults,
                                    "__doc__": f"<{P + tag}>"})
    return cls


GameModule = _component("GameModule", "GameModule")
BasicCommandEncoder = _component("module.BasicCommandEncoder", "BasicCommandEncoder")
PrototypesContainer = _component("module.PrototypesContainer", "PrototypesContainer")
PrototypeDefinition = _component("module.PrototypeDefinition", "PrototypeDefinition")
Map = _component("module.Map", "Map")
BoardPicker = _component("module.map.BoardPicker", "BoardPicker")
Board = _component("module.map.boardPicker.Board", "Board")
HexGrid = _component("module.map.boardPicker.board.HexGrid", "HexGrid")
HexGridNumbering = _component("module.map.boardPicker.board.mapgrid.HexGridNumbering",
                              "HexGridNumbering")
ZonedGrid = _component("module.map.boardPicker.board.ZonedGrid", "ZonedGrid")
Zone = _component("module.map.boardPicker.board.mapgrid.Zone", "Zone")
RegionGrid = _component("module.map.boardPicker.board.RegionGrid", "RegionGrid")
Region = _component("module.map.boardPicker.board.Region", "Region")
StackMetrics = _component("module.map.StackMetrics", "StackMetrics")
SetupStack = _component("module.map.SetupStack", "SetupStack")
DrawPile = _component("module.map.DrawPile", "DrawPile")
Zoomer = _component("module.map.Zoomer", "Zoomer")
CounterDetailViewer = _component("module.map.CounterDetailViewer", "CounterDetailViewer")
LOSThread = _component("module.map.LOS_Thread", "LOSThread")
HidePiecesButton = _component("module.map.HidePiecesButton", "HidePiecesButton")
GlobalMap = _component("module.map.GlobalMap", "GlobalMap")
HighlightLastMoved = _component("module.map.HighlightLastMoved", "HighlightLastMoved")
PieceMover = _component("module.map.PieceMover", "PieceMover")
KeyBufferer = _component("module.map.KeyBufferer", "KeyBufferer")
MenuDisplayer = _component("module.map.MenuDisplayer", "MenuDisplayer")
ForwardToKeyBuffer = _component("module.map.ForwardToKeyBuffer", "ForwardToKeyBuffer")
ForwardToChatter = _component("module.map.ForwardToChatter", "ForwardToChatter")
Scroller = _component("module.map.Scroller", "Scroller")
MapCenterer = _component("module.map.MapCenterer", "MapCenterer")
StackExpander = _component("module.map.StackExpander", "StackExpander")
SelectionHighlighters = _component("module.map.SelectionHighlighters", "SelectionHighlighters")
PieceWindow = _component("module.PieceWindow", "PieceWindow")
TabWidget = _component("widget.TabWidget", "TabWidget")
ListWidget = _component("widget.ListWidget", "ListWidget")
PanelWidget = _component("widget.PanelWidget", "PanelWidget")
PieceSlot = _component("widget.PieceSlot", "PieceSlot")
CardSlot = _component("widget.CardSlot", "CardSlot")
DiceButton = _component("module.DiceButton", "DiceButton")
TurnTracker = _component("module.turn.TurnTracker", "TurnTracker")
ListTurnLevel = _component("module.turn.ListTurnLevel", "ListTurnLevel")
CounterTurnLevel = _component("module.turn.CounterTurnLevel", "CounterTurnLevel")
ChartWindow = _component("module.ChartWindow", "ChartWindow")
Chart = _component("widget.Chart", "Chart")
HtmlChart = _component("widget.HtmlChart", "HtmlChart")
PredefinedSetup = _component("module.PredefinedSetup", "PredefinedSetup")
Inventory = _component("module.Inventory", "Inventory")
NotesWindow = _component("module.NotesWindow", "NotesWindow")
Documentation = _component("module.Documentation", "Documentation")
GlobalOptions = _component("module.GlobalOptions", "GlobalOptions")
TurnGlobalHotkey = _component("module.turn.TurnGlobalHotkey", "TurnGlobalHotkey")
GlobalKeyCommand = _component("module.GlobalKeyCommand", "GlobalKeyCommand")
ToolbarMenu = _component("module.ToolbarMenu", "ToolbarMenu")
GlobalProperties = _component("module.properties.GlobalProperties", "GlobalProperties")
GlobalProperty = _component("module.properties.GlobalProperty", "GlobalProperty")
ChangePropertyButton = _component("module.properties.ChangePropertyButton",
                                  "ChangePropertyButton")


class PlayerRoster(Component):
    """The sides players can take; each is an <entry> child."""

    TAG = P + "module.PlayerRoster"

    def __init__(self, sides: Iterable[str], **attrs: object):
        super().__init__(**attrs)
        self.sides = list(sides)

    def extra_xml(self, el: etree._Element) -> None:
        for side in self.sides:
            entry = etree.SubElement(el, "entry")
            entry.text = side


def build_file(root: Component) -> bytes:
    """The buildFile.xml bytes of a module (UTF-8, standalone declaration as VASSAL writes)."""
    el = root.element()
    # VASSAL takes one GlobalProperties per module ('No more than one [Global Properties]
    # allowed'): the properties the module's parts bring (turn, combat map data) join the first
    groups = el.findall(P + "module.properties.GlobalProperties")
    for extra in groups[1:]:
        groups[0].extend(list(extra))
        el.remove(extra)
    body = etree.tostring(el, encoding="unicode")
    head = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
    return (head + body + "\n").encode("utf-8")
