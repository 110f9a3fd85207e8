"""Assemble a game's VASSAL module: buildFile.xml, moduledata, images, charts, rules and set-ups.

Game semantics live here and in pieces/boxes; components, traits and encoding only mirror VASSAL.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from xml.sax.saxutils import escape

from builder import vassal_combat
from builder.buildtime import build_epoch
from builder.model.game_model import Game
from builder.model.scenario import Scenario
from builder.vassal import boxes as bx
from builder.vassal import changes, html, images, pieces, turn_events, victory
from builder.vassal import components as c
from builder.vassal import expr as x
from builder.vassal import traits as t
from builder.vassal.archive import zip_bytes
from builder.vassal.encoding import CTRL, NAMED, encode_sequence, keystroke, nest
from builder.vassal.geometry import MARGIN_ZONE, BoardGeometry, margin_points
from builder.vassal.ids import (  # noqa: F401  (the names the tests and outputs read from here)
    BOX_BOARD,
    BOX_IMAGE,
    BOX_MAP,
    BOX_MAP_ID,
    MAIN_BOARD,
    MAIN_MAP,
    MAIN_MAP_ID,
    MAP_IMAGE,
    VASSAL_VERSION,
    hex_or_none,
    sector_label,
)
from builder.vassal.piece_ids import NEXT, PieceIdClash, PieceIds, derived
from builder.vassal.piece_texts import TextTable
from builder.vassal.savegame import Placed, encoded_texts, saved_game, vsav_bytes


@dataclass(frozen=True)
class Target:
    """Where a placement puts a piece: a map, a point, and the location name VASSAL should give."""

    map: str
    location: str
    key: str  # 'hex:2717', 'sector:x', a box key, or 'deck:<id>' (held by the deck)


@dataclass
class ModuleBuild:
    """The module's archive entries, and what the tests compare the engine's answers with."""

    entries: dict[str, bytes] = field(default_factory=dict)
    setups: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    make_probes: Callable[[], list[tuple[str, int, int, str]]] = list  # see probes
    decks: dict[str, int] = field(default_factory=dict)
    deck_held: dict[str, int] = field(default_factory=dict)
    slot_ids: dict[str, int] = field(default_factory=dict)  # every slot's key and id (piece_ids)
    content_digest: str = ""  # what reached the module, less its version (changes)
    snapshot: dict = field(default_factory=dict)  # what players see, for the next version

    def vmod(self) -> bytes:
        return zip_bytes(self.entries)

    @cached_property
    def probes(self) -> list[tuple[str, int, int, str]]:
        """Points and the location names the engine must give them (made when a test asks:
        a campaign map's 34,000 hexes took a build seconds it did not need)."""
        return self.make_probes()


class SourceProblem(ValueError):
    """The sources ask for something the module cannot show (reported with where and a fix)."""


# --- placements -------------------------------------------------------------------------------
def resolve(game: Game, at: str, counter_id: str, box_names: dict[str, str]) -> Target:
    """The target of a placement's 'at' (hex, sector, box:<id>, turn:<n>, off-map)."""
    marker = game.marker_by_id.get(counter_id)
    text = at.strip()
    h = hex_or_none(game, text)
    if h is not None:
        return Target(MAIN_MAP, game.grid.label(h), f"hex:{game.grid.label(h)}")
    if not game.is_hex and text in game.sector_by_id:
        return Target(MAIN_MAP, sector_label(game, text), f"sector:{text}")
    key = "off-map" if text == "off-map" else text
    if marker and marker.deck and key in ("off-map", f"box:{marker.deck}"):
        # A deck's card set up off the map or in its pool starts in its deck (VASSAL names a
        # deck's spot after the deck); set up anywhere else, it stands there.
        deck = next(d for d in game.info.decks if d.id == marker.deck)
        return Target(BOX_MAP, deck.name, f"deck:{marker.deck}")
    if key not in box_names:
        raise SourceProblem(
            f"placement of '{counter_id}' at '{at}': no hex, sector or box of that name "
            f"(boxes: {', '.join(sorted(box_names))})")
    return Target(BOX_MAP, box_names[key], key)


def scenario_targets(game: Game, sc: Scenario, box_names: dict[str, str]):
    """(counter id, target, note) for every set-up placement and waiting reinforcement."""
    out = []
    for p in sc.setup:
        note = _choice_note(p)
        out.append((p.unit, resolve(game, p.at, p.unit, box_names), note))
    for r in sc.reinforcements:
        if r.returns:
            continue  # the counter set up at the start comes back: no second piece
        if r.box:
            key = f"box:{r.box}"
        elif r.turn is not None and f"turn:{r.turn}" in box_names:
            key = f"turn:{r.turn}"
        else:
            key = "off-map"
        where = (" at " + " or ".join(r.at)) if r.at else ""
        when = f"turn {r.turn}" if r.turn is not None else (r.condition or "by condition")
        out.append((r.unit, Target(BOX_MAP, box_names[key], key), f"Arrives {when}{where}"))
    return out


def _choice_note(p) -> str:
    parts = []
    if p.also:
        parts.append("or " + ", ".join(p.also))
    if p.within:
        parts.append(f"or within {p.within} hex{'es' if p.within > 1 else ''}")
    if p.region:
        parts.append(f"anywhere in region {p.region}")
    text = ("Set up on " + p.at + " " + " ".join(parts)).strip() if parts else ""
    if p.instruction:
        text = f"{text}. {p.instruction}" if text else p.instruction
    if p.note:
        text = f"{text}. {p.note}" if text else p.note
    return text


# --- pieces -----------------------------------------------------------------------------------
class PieceBook:
    """Every piece definition of the module, and the slot ids (piece_ids: derived from what
    each slot holds, so a new version keeps them)."""

    def __init__(self, game: Game):
        self.game = game
        self.protos = pieces.prototypes(game, vassal_combat.unit_traits(game)).pieces
        self.ids = PieceIds()
        # set-up pieces that are not their palette slot's piece: (scenario key, counter id) ->
        # {definition: slot id}, and the hidden slots holding them (setup_window)
        self._variants: dict[tuple[str, str], dict[str, str]] = {}
        self.setup_slots: dict[str, list[tuple[str, str, str]]] = {}
        self.decks = {d.id: d for d in game.info.decks}
        # the units' encoded texts, kept between builds (piece_texts): a unit's piece is made
        # from its row and game.toml; expanded, also from the prototypes
        self._definitions = TextTable(game, "definition")
        protos = [(name, p.definition()) for name, p in self.protos.items()]
        self._saved = {face: TextTable(game, f"saved-{face}", protos) for face in ("front", "back")}

    def save_texts(self) -> None:
        self._definitions.save()
        for table in self._saved.values():
            table.save()

    def definition(self, counter_id: str) -> str:
        """The piece's AddPiece text, as a PieceSlot holds it."""
        u = self.game.unit_by_id.get(counter_id)
        if u is None:
            return self.piece(counter_id).definition()
        return self._definitions.text(u, lambda: self.piece(counter_id).definition())

    def saved_texts(self, counter_id: str, face: str,
                    outer: tuple[t.Trait, ...]) -> tuple[str, str]:
        """The encoded type and state (savegame.encoded_texts) of a counter as a saved game
        holds it: `face` up, `outer` traits round it, prototypes expanded."""
        u = self.game.unit_by_id.get(counter_id)

        def base() -> str:  # a unit set up reduced: the flip layer shows the back
            return json.dumps(encoded_texts(self.faced(counter_id, face).expanded(self.protos)))

        inner = json.loads(base() if u is None else self._saved[face].text(u, base))
        wrapped = t.Piece(tuple(outer) + (t.BasicPiece("", ""),)).expanded(self.protos).traits
        return (nest([tr.type_text() for tr in wrapped[:-1]] + [inner[0]]),
                nest([tr.state_text() for tr in wrapped[:-1]] + [inner[1]]))

    def slot_id(self, key: str, what: str) -> str:
        """The id of a new slot (piece_ids.PieceIds.slot: a clash is a SourceProblem)."""
        try:
            return self.ids.slot(key, what)
        except PieceIdClash as exc:
            raise SourceProblem(str(exc)) from None

    def what(self, counter_id: str) -> str:
        """A counter as a clash message names it: its printed name and its row's id."""
        u = self.game.unit_by_id.get(counter_id)
        if u is not None:
            return f"the unit {pieces.unit_name(u)} (counters.csv id '{u.id}')"
        m = self.game.marker_by_id[counter_id]
        return f"the marker {m.name} (markers.csv id '{m.id}')"

    def placed_id(self, sc: Scenario, counter_id: str, face: str,
                  outer: tuple[t.Trait, ...]) -> str:
        """The slot id a set-up's piece carries. Its counter's palette slot when it is that
        piece (a face is a state, which the refresher keeps); else a slot of its own in the
        hidden set-up window, so the refresher keeps what the set-up added round the counter
        (a reinforcement's arrival, a withdrawal, a set-up note; a card outside its deck)."""
        m = self.game.marker_by_id.get(counter_id)
        if not outer and not (m and m.deck):
            return self.ids.of(("marker:" if m else "unit:") + counter_id)
        definition = t.Piece(tuple(outer) + self.faced(counter_id, face).traits).definition()
        sk = scenario_key(sc)
        known = self._variants.setdefault((sk, counter_id), {})
        if definition not in known:
            n = len(known) + 1  # a counter set up twice in one scenario, differently
            key = f"setup:{sk}:{counter_id}" + (f"#{n}" if n > 1 else "")
            name = pieces.unit_name(self.game.unit_by_id[counter_id]) if m is None else m.name
            known[definition] = self.slot_id(key, f"{self.what(counter_id)} as the scenario "
                                                  f"{sc.name} sets it up")
            self.setup_slots.setdefault(sc.name, []).append((name, definition, known[definition]))
        return known[definition]

    def victory_id(self, sc: Scenario, piece: t.Piece) -> str:
        """The slot id of a scenario's 'Victory standing' piece (a hidden set-up slot)."""
        gpid = self.slot_id(f"victory:{scenario_key(sc)}",
                            f"the victory standing piece of the scenario {sc.name}")
        self.setup_slots.setdefault(sc.name, []).append(
            (piece.basic.name or "Victory standing", piece.definition(), gpid))
        return gpid

    def faced(self, counter_id: str, face: str) -> t.Piece:
        """The counter's piece with `face` up (a unit set up reduced shows its back)."""
        piece = self.piece(counter_id)
        if face == "back":
            piece = t.Piece(tuple(replace(tr, level=2) if isinstance(tr, t.Layer) and
                                  tr.layer_name == pieces.LAYER else tr for tr in piece.traits))
        return piece

    def piece(self, counter_id: str) -> t.Piece:
        if counter_id in self.game.unit_by_id:
            return pieces.unit_piece(self.game, self.game.unit_by_id[counter_id])
        if counter_id in self.game.marker_by_id:
            return pieces.marker_piece(self.game, self.game.marker_by_id[counter_id])
        raise SourceProblem(f"'{counter_id}' is neither a unit in counters.csv nor a marker")

    def card(self, marker_id: str) -> t.Piece:
        m = self.game.marker_by_id[marker_id]
        deck = self.decks[m.deck]
        return pieces.marker_piece(self.game, m, deck_name=deck.name,
                                   returns=deck.draw == "returned-each-turn")


def _slot(cls, name: str, text: str, gpid: str, size: int):
    return cls(body=text, entryName=name, gpid=gpid, width=size, height=size)


def palette(game: Game, book: PieceBook, geom: BoardGeometry) -> c.Component:
    """The counter palette: a list per side, a panel per formation; markers by kind."""
    size = geom.counter_px("unit")
    tabs = []
    for side in game.info.sides:
        groups: dict[str, list] = {}
        order = [f.id for f in side.formations]
        for u in game.units:
            if u.side == side.id:
                groups.setdefault(u.formation, []).append(u)
        panels = []
        for fid in order + sorted(k for k in groups if k not in order):
            if fid not in groups:
                continue
            fname = next((f.name for f in side.formations if f.id == fid), fid or "Other units")
            slots = [_slot(c.PieceSlot, pieces.unit_name(u), book.definition(u.id),
                           book.slot_id(f"unit:{u.id}", book.what(u.id)), size)
                     for u in groups[fid]]
            panels.append(c.PanelWidget(*slots, entryName=fname, nColumns=6))
        if panels:
            tabs.append(c.ListWidget(*panels, entryName=side.name, divider=160))
    kinds: dict[str, list] = {}
    for m in game.markers:
        kinds.setdefault(m.kind, []).append(m)
    mpanels = []
    for kind in sorted(kinds):
        slots = []
        for m in kinds[kind]:
            piece = book.card(m.id) if m.deck else book.piece(m.id)
            slots.append(_slot(c.PieceSlot, m.name, piece.definition(),
                               book.slot_id(f"marker:{m.id}", book.what(m.id)),
                               geom.counter_px(m.counter)))
        mpanels.append(c.PanelWidget(*slots, entryName=kind.replace("-", " ").capitalize(),
                                     nColumns=6))
    if mpanels:
        tabs.append(c.ListWidget(*mpanels, entryName="Markers", divider=160))
    return c.PieceWindow(c.TabWidget(*tabs, entryName="Counters"), name="Counters", text="Counters",
                         tooltip="Show or hide the counter palette", hotkey=keystroke(75, CTRL))


# --- maps -------------------------------------------------------------------------------------
def _hex_grid(spec, numbering_format: str = "$gridLocation$") -> c.Component:
    numbering = c.HexGridNumbering(
        first="H", sep="", hType="N", vType="N", hLeading=spec.h_leading, vLeading=spec.v_leading,
        hOff=spec.h_off, vOff=spec.v_off, stagger=False, visible=False,
        locationFormat=numbering_format)
    return c.HexGrid(numbering, dx=repr(round(spec.dx, 6)), dy=repr(round(spec.dy, 6)),
                     x0=spec.x0, y0=spec.y0, sideways=False, snapTo=True, visible=False,
                     edgesLegal=False, cornersLegal=False, dotsVisible=False)


def _path(points) -> str:
    return ";".join(f"{x},{y}" for x, y in points)


def main_grid(game: Game, geom: BoardGeometry) -> c.Component:
    """The board's zones: the hexes (one zone, or one per sheet of a multi-sheet map) or the
    sectors, then the margin around them, so no point off the playing area has a hex name."""
    if not game.is_hex:
        zones = []
        for s in game.map.sectors:
            label = sector_label(game, s.id)
            x, y = geom.sector_point(s.id)
            region = c.Region(name=label, originx=x, originy=y)
            zones.append(c.Zone(c.RegionGrid(region, snapto=True, visible=False), name=label,
                                path=_path(geom.sector_outline_px(s.id)),
                                locationFormat="$gridLocation$", useParentGrid=False))
    elif len(geom.sheets) == 1 and geom.sheets[0] == "":
        zones = [c.Zone(_hex_grid(geom.grid_spec("")), name="Hexes",
                        path=_path(geom.hexes_outline_px(game.grid.all_hexes())),
                        locationFormat="$gridLocation$", useParentGrid=False)]
    else:
        zones = [c.Zone(_hex_grid(geom.grid_spec(s)), name=f"Sheet {s}",
                        path=_path(geom.sheet_outline_px(s)), locationFormat=f"{s}:$gridLocation$",
                        useParentGrid=False)
                 for s in geom.sheets]
    # the first zone holding a point names it: the margin zone (the whole board) comes last
    w, h = geom.size_px
    zones.append(c.Zone(name=MARGIN_ZONE, path=_path([(0, 0), (w, 0), (w, h), (0, h)]),
                        locationFormat="$name$", useParentGrid=False))
    return c.ZonedGrid(*zones)


def uses_line_of_sight(game: Game) -> bool:
    """True when a table or the rules speak of line of sight."""
    if any(getattr(tb, "kind", "") == "line-of-sight" for tb in game.tables):
        return True
    if game.rules:
        return any(re.search(r"line[- ]of[- ]sight|\bLOS\b", s.title + " " + s.text, re.IGNORECASE)
                   for s in game.rules.sections)
    return False


def _map_tools(name: str, los: bool, overview: bool) -> list[c.Component]:
    tools = [
        c.StackMetrics(exSepX=8, exSepY=16, unexSepX=3, unexSepY=4),
        c.ForwardToKeyBuffer(), c.Scroller(), c.ForwardToChatter(), c.MenuDisplayer(),
        c.MapCenterer(), c.StackExpander(), c.PieceMover(), c.KeyBufferer(),
        c.SelectionHighlighters(), c.HighlightLastMoved(),
        c.CounterDetailViewer(
            description="Mouse-over stack viewer", showgraph=True, showgraphsingle=True,
            showtext=True, showtextsingle=True, minDisplayPieces=0, showNoStack=True,
            summaryReportFormat="$LocationName$", counterReportFormat="$PieceName$",
            emptyHexReportForma="$LocationName$", zoomlevel="1.0", delay=500),
        c.Zoomer(zoomLevels="0.25,0.333,0.5,0.75,1.0,1.5", zoomStart=3),
        c.HidePiecesButton(tooltip=f"Hide the pieces on the {name}", buttonText=""),
    ]
    if overview:
        tools.append(c.GlobalMap(scale="0.15", tooltip="Show or hide the overview map"))
    if los:
        tools.append(c.LOSThread(
            threadName="Line of sight", label="LOS", tooltip="Check line of sight", snapStart=True,
            snapEnd=True, drawRange=True, scale="0", hideCounters=False,
            # AllLocationsChecked: every hex the thread's end passed over while it was drawn
            # from the firer to the target, the hexes to look at for blocking terrain
            report="$playerId$ checked line of sight from $FromLocation$ to $ToLocation$ "
                   "(range $Range$), crossing $AllLocationsChecked$"))
    return tools


def main_map(game: Game, geom: BoardGeometry) -> c.Component:
    w, h = geom.size_px
    board = c.Board(main_grid(game, geom), name=MAIN_BOARD, image=MAP_IMAGE, width=w, height=h)
    return c.Map(
        c.BoardPicker(board, title="Choose Boards"),
        *_map_tools("map", uses_line_of_sight(game), overview=True),
        mapName=MAIN_MAP, markMoved="Always", markUnmovedText="", buttonName="",
        markUnmovedTooltip="Mark all pieces on the map as not moved",
        markUnmovedHotkey=keystroke(85, CTRL))


def box_map(game: Game, board: bx.BoxBoard, book: PieceBook, geom: BoardGeometry,
            outside: Counter) -> c.Component:
    zones = [c.Zone(name=b.name, path=b.path(), locationFormat="$name$", useParentGrid=False)
             for b in board.boxes]
    piles = []
    for b in board.boxes:
        if not b.deck:
            continue
        deck = book.decks[b.deck]
        cards = []
        for m in game.markers:
            if m.deck == deck.id:
                card = book.card(m.id)
                for n in range(1, max(0, m.copies - outside[m.id]) + 1):
                    # each copy a slot of its own (the refresher refuses a module whose slots
                    # share an id): the card's key, then '#2', '#3' for its further copies
                    key = f"card:{deck.id}:{m.id}" + (f"#{n}" if n > 1 else "")
                    cards.append(_slot(c.CardSlot, m.name, card.definition(),
                                       book.slot_id(key, f"copy {n} of the card {m.name} in the "
                                                         f"deck {deck.name}"),
                                       geom.counter_px(m.counter)))
        x, y = b.deck_point(board.cell)
        size = board.cell - 8
        piles.append(c.DrawPile(
            *cards, name=deck.name, owningBoard=BOX_BOARD, x=x, y=y, width=size, height=size,
            shuffle="Always", faceDown="Always", drawFaceUp=True, allowMultiple=True,
            allowSelect=False, reversible=False, draw=True, reshufflable=False,
            shuffleCommand="Shuffle", shuffleFormat=f"$playerSide$ shuffles {deck.name}",
            reshuffleCommand="", canSave=False,
            faceDownFormat="", color="0,0,0", maxStack=10,
            restrictOption=False, expressionCounting=False))
    boxboard = c.Board(c.ZonedGrid(*zones), name=BOX_BOARD, image=BOX_IMAGE, width=board.width,
                       height=board.height)
    return c.Map(
        c.BoardPicker(boxboard, title="Choose Boards"),
        *_map_tools("off-map boxes", los=False, overview=False),
        *piles,
        mapName=BOX_MAP, markMoved="Never", buttonName="Boxes", launch=True,
        tooltip="Turn track, holding boxes and decks", hotkey=keystroke(66, CTRL))


# --- other components -------------------------------------------------------------------------
def dice_used(game: Game) -> list[tuple[int, int]]:
    """(dice, sides) of every roll the tables use; 1d6 when no table says."""
    found = set()
    for tb in game.tables:
        m = re.fullmatch(r"\s*(\d*)d(\d+)\s*", str(getattr(tb, "dice", "") or ""))
        if m:
            found.add((int(m.group(1) or 1), int(m.group(2))))
    return sorted(found) or [(1, 6)]


def dice_buttons(game: Game) -> list[c.Component]:
    out = []
    for i, (n, sides) in enumerate(dice_used(game)):
        name = f"{n}d{sides}"
        out.append(c.DiceButton(
            name=name, text=name, tooltip=f"Roll {name}", nDice=n, nSides=sides, plus=0,
            addToTotal=0, reportTotal=n > 1, keepDice=False, sortDice=False, prompt=False,
            hotkey=keystroke(112 + i, CTRL),
            reportFormat="** $name$ = $result$ *** <$PlayerName$>"))
    return out


TURN_SHOWN = "Turn $value$"  # a turn level's turnFormat: how the tracker shows a turn
PHASE_JOIN = " - "  # between the turn and the phase in the tracker's text
TURN_SHOWN_KEY = keystroke(NAMED, 0, "TurnShown")  # the tracker moved: Turn and Phase follow it


def turn_tracker(game: Game, hotkeys: list[c.Component]) -> list[c.Component]:
    """Turns by name (night turns marked), phases from the sequence of play as the turn record
    plays them; the turn events' hotkeys (turn_events) fire as a turn's first phase begins.
    Returns the tracker and the global properties Turn and Phase (turn_properties).

    VASSAL gives one phase list to every turn of a level, so consecutive turns that play the
    same phases make one 'Turn' level each (a phase played on turn 1 only: a level for turn 1
    and one for the rest), and the tracker steps from one level to the next. Levels that share
    a property write it in level order whenever the tracker is reset or restored (new game,
    set-up, saved game; 3.7.26 TurnTracker.reset/setState), so a shared 'Turn' would read the
    LAST level's turn until the first step. Each level has a property of its own instead, and
    Turn and Phase are global properties (turn_properties) that follow what the tracker shows."""
    runs: list[tuple[list[int], list[str]]] = []
    for n in bx.turns(game):
        phases = turn_events.phases_of_turn(game, n)
        if runs and runs[-1][1] == phases:
            runs[-1][0].append(n)
        else:
            runs.append(([n], phases))
    levels = []
    for i, (turns, phases) in enumerate(runs, 1):
        names = [turn_events.turn_label(game, n) for n in turns]
        phase_level = (c.ListTurnLevel(name="Phase", property=f"TrackerPhase{i}",
                                       list=encode_sequence(phases, ","), turnFormat="$value$",
                                       configFirst=False, configList=False)
                       if phases else None)
        name = "Turn" if len(runs) == 1 else (
            f"Turn {turns[0]}" if len(turns) == 1 else f"Turns {turns[0]}-{turns[-1]}")
        levels.append(c.ListTurnLevel(phase_level, name=name, property=f"TrackerTurn{i}",
                                      list=encode_sequence(names, ","), turnFormat=TURN_SHOWN,
                                      configFirst=False, configList=False))
    any_phases = any(phases for _, phases in runs)
    # first among the tracker's hotkeys: the turn events' conditions read Turn and Phase
    shown = c.TurnGlobalHotkey(name="Turn and Phase follow the tracker", hotkey=TURN_SHOWN_KEY,
                               match="", reportFormat="")
    tracker = c.TurnTracker(shown, *levels, *hotkeys, name="Turn", buttonText="Turn",
                            # the turn label's tooltip (3.7.26 gives the button's no attribute)
                            tooltip="The current turn and phase (Ctrl+Right: next, Ctrl+Left: "
                                    "back)",
                            turnFormat="$level1$" + (PHASE_JOIN + "$level2$" if any_phases else ""),
                            reportFormat="* Turn updated from $oldTurn$ to $newTurn$",
                            hotkey=keystroke(84, CTRL), nexthotkey=keystroke(39, CTRL),
                            prevhotkey=keystroke(37, CTRL))
    return [tracker, turn_properties(game, runs, any_phases)]


def turn_properties(game: Game, runs: list[tuple[list[int], list[str]]],
                    any_phases: bool) -> c.Component:
    """The global properties Turn and Phase: the game's first turn and phase at the start of
    every game (a new game and every set-up: VASSAL sets a global property back to its initial
    value as a game closes), saved and restored with a game, and set from the tracker's own
    text (its 'Turn_value' property, what it shows) each time it moves, by a change-property
    button its first global hotkey presses (Next, Back and Set all run the tracker's hotkeys)."""
    labels = [turn_events.turn_label(game, n) for turns, _ in runs for n in turns]
    first_phase = next(iter(runs[0][1]), "") if runs else ""
    shown = [(TURN_SHOWN.replace("$value$", label) + (PHASE_JOIN if any_phases else ""), label)
             for label in labels]
    shown.sort(key=lambda s: -len(s[0]))  # the longest first: a label that begins another's
    turn_cases, phase_cases = [], []
    for text, label in shown:
        test = (f"Turn_value.startsWith({x.lit(text)})" if any_phases
                else f"Turn_value == {x.lit(text)}")
        turn_cases.append((test, x.lit(label)))
        # the phase is the rest of the text (Java counts UTF-16 units)
        phase_cases.append((test, f"Turn_value.substring({len(text.encode('utf-16-le')) // 2})"))
    props = [c.GlobalProperty(
        c.ChangePropertyButton(desc="Turn follows the turn tracker", hotkey=TURN_SHOWN_KEY,
                               propChanger=encode_sequence(
                                   ["P", "{" + x.choose(turn_cases, "Turn") + "}"], ",")),
        name="Turn", initialValue=labels[0] if labels else "",
        description="The current turn, as the turn tracker shows it")]
    if any_phases:
        props.append(c.GlobalProperty(
            c.ChangePropertyButton(desc="Phase follows the turn tracker", hotkey=TURN_SHOWN_KEY,
                                   propChanger=encode_sequence(
                                       ["P", "{" + x.choose(phase_cases, "Phase") + "}"], ",")),
            name="Phase", initialValue=first_phase,
            description="The current phase, as the turn tracker shows it"))
    return c.GlobalProperties(*props)


def charts(game: Game, entries: dict[str, bytes]) -> c.Component:
    """The chart window: the rules, then every player-aid card as printed (tables, terrain,
    sequence of play, turn record, set-ups), then what changed since the previous version
    (its page is added by build_module)."""
    items = []
    if game.rules:
        entries["rules.html"] = html.rules_html(game).encode("utf-8")
        items.append(c.HtmlChart(chartName="Rules", fileName="rules.html"))
    seen: Counter = Counter()
    for title, png in images.chart_pngs(game):
        base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "chart"
        seen[base] += 1
        name = f"chart-{base}{'-' + str(seen[base]) if seen[base] > 1 else ''}.png"
        entries["images/" + name] = png
        items.append(c.Chart(chartName=title, fileName=name))
    items.append(c.HtmlChart(chartName=changes.TITLE, fileName=changes.PAGE))
    return c.ChartWindow(c.TabWidget(*items, entryName="Charts"), name="Charts", text="Charts",
                         tooltip="Rules, tables and charts", hotkey=keystroke(72, CTRL))


def moduledata(game: Game) -> bytes:
    """The moduledata entry: name, version, description and the VASSAL version written for."""
    info = game.info
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">'
            f"<version>{escape(info.version)}</version><extra1/><extra2/>"
            f"<VassalVersion>{VASSAL_VERSION}</VassalVersion><dateSaved>{build_epoch() * 1000}</dateSaved>"
            f"<name>{escape(info.title)}</name><description>{escape(_description(game))}"
            "</description></data>\n").encode()


def _description(game: Game) -> str:
    info = game.info
    return info.description or info.subtitle or info.title


def scenario_key(sc: Scenario) -> str:
    """The scenario as its set-up pieces' slot keys name it (piece_ids)."""
    return sc.id or sc.name


def scenario_file(sc: Scenario) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", scenario_key(sc)).strip("-") + ".vsav"


def setup_window(book: PieceBook, size: int) -> list[c.Component]:
    """A hidden piece window holding the set-up pieces that are not a palette slot's piece, a
    panel per scenario: players never see it; VASSAL's Game Refresher finds them in it."""
    panels = [c.PanelWidget(*[_slot(c.PieceSlot, name, text, gpid, size)
                              for name, text, gpid in slots], entryName=sc_name, nColumns=6)
              for sc_name, slots in book.setup_slots.items()]
    if not panels:
        return []
    return [c.PieceWindow(c.TabWidget(*panels, entryName="Set-up pieces"), name="Set-up pieces",
                          text="", tooltip="", hidden=True)]


# --- the whole module -------------------------------------------------------------------------
def build_module(game: Game, since: changes.Baseline | None = None) -> ModuleBuild:
    """Everything the module holds, from the game model (as players see it: no notes, assumed
    marks or readings, builder.views); its 'What changed' page compares with `since`, the
    previous version (changes.baseline), or calls this the first version."""
    from builder.views import player_view

    game = player_view(game)
    out = ModuleBuild()
    geom = BoardGeometry(game)
    book = PieceBook(game)
    cell = max(geom.counter_px(s.id) for s in game.info.counter_sizes) + 10
    box_names = dict(bx.box_keys(game))

    per_scenario = {sc.name: scenario_targets(game, sc, box_names) for sc in game.scenarios}
    counts: Counter = Counter()
    for sc in game.scenarios:
        here = Counter(tg.key for _, tg, _ in per_scenario[sc.name] if tg.map == BOX_MAP
                       and not tg.key.startswith("deck:"))
        for w in sc.withdrawals:
            here[turn_events.withdrawal_box_key(w)] += 1  # the withdrawn stand after the set-up
        here["off-map"] += 1  # the scenario's 'Victory standing' piece
        for k, n in here.items():
            counts[k] = max(counts[k], n)
    board = bx.layout(game, counts, cell)
    # Deck markers a set-up puts elsewhere (on a track, in a hex) leave the deck.
    outside: Counter = Counter()
    for targets in per_scenario.values():
        here = Counter(cid for cid, tg, _ in targets if not tg.key.startswith("deck:")
                       and game.marker_by_id.get(cid) and game.marker_by_id[cid].deck)
        for k, n in here.items():
            outside[k] = max(outside[k], n)
    boxes_by_key = board.by_key()

    entries: dict[str, bytes] = {}
    entries["images/" + MAP_IMAGE] = images.board_png(game, geom.px_per_mm)
    entries["images/" + BOX_IMAGE] = images.drawing_png(bx.board_svg(board))
    if game.scenarios:  # the picture of each set-up's 'Victory standing' piece
        entries["images/" + victory.IMAGE] = images.drawing_png(victory.image_svg())
    for cid, face in pieces.faces(game):
        entries["images/" + pieces.image_name(cid, face)] = images.counter_png(
            game, cid, face, geom.piece_px_per_mm)
    # a counter of an earlier version keeps its pictures, marked removed: a game saved then
    # opens in this version without VASSAL's 'Image not found' error
    for cid, (name, last) in sorted(changes.removed_counters(game, since).items()):
        png = images.drawing_png(changes.removed_counter_svg(name, last),
                                 geom.counter_px(game.info.counter_sizes[0].id) / 64)
        for face in ("front", "back"):
            entries.setdefault("images/" + pieces.image_name(cid, face), png)

    protos = [c.PrototypeDefinition(body=p.definition(), name=name, description="")
              for name, p in book.protos.items()]
    pal = palette(game, book, geom)
    maps = [main_map(game, geom), box_map(game, board, book, geom, outside)]
    setups = []
    md = moduledata(game)
    for sc in game.scenarios:
        targets = per_scenario[sc.name]
        placed: list[Placed] = []
        fill: Counter = Counter()
        expected = []
        arriving = [r for r in sc.reinforcements if not r.returns]  # as scenario_targets lists them
        leaving = {w.unit: w for w in sc.withdrawals}
        withdrawn_slot = Counter(tg.key for _, tg, _ in targets if tg.map == BOX_MAP)
        faces = [p.face for p in sc.setup] + ["front"] * len(arriving)
        for i, ((cid, target, note), face) in enumerate(zip(targets, faces, strict=True)):
            expected.append((cid, target.map, target.location))
            if target.key.startswith("deck:"):
                continue  # the deck holds it
            outer: tuple[t.Trait, ...] = ()  # traits this placement adds round the unit's piece
            if i >= len(sc.setup):  # a reinforcement: its turn, its box, 'Enter the map'
                r = arriving[i - len(sc.setup)]
                outer = turn_events.arrival_traits(game, geom, r, target.location) + outer
            w = leaving.get(cid)
            if w is not None:  # due to leave: its turn and 'Withdraw' to a free slot of its box
                key = turn_events.withdrawal_box_key(w)
                wx, wy = boxes_by_key[key].slot_point(withdrawn_slot[key], board.cell)
                withdrawn_slot[key] += 1
                outer = turn_events.withdrawal_traits(game, w, BOX_MAP_ID, BOX_BOARD, wx,
                                                      wy) + outer
            if note:
                outer = (t.Marker((("SetupNote", note),)),) + outer
            if target.map == MAIN_MAP:
                x, y = _main_point(game, geom, target)
            else:
                x, y = boxes_by_key[target.key].slot_point(fill[target.key], board.cell)
                fill[target.key] += 1
            placed.append(Placed(None, target.map, x, y, book.placed_id(sc, cid, face, outer),
                                 book.saved_texts(cid, face, outer)))
        # the Victory button's piece: counts the board for this scenario's victory conditions
        x, y = boxes_by_key["off-map"].slot_point(fill["off-map"], board.cell)
        standing = victory.victory_piece(game, sc)
        placed.append(Placed(standing, BOX_MAP, x, y, book.victory_id(sc, standing)))
        fname = scenario_file(sc)
        text = saved_game(placed, {MAIN_MAP: MAIN_BOARD, BOX_MAP: BOX_BOARD})
        entries[fname] = vsav_bytes(text, md)
        setups.append(c.PredefinedSetup(name=sc.name, file=fname, useFile=True, isMenu=False))
        out.setups[sc.name] = expected
        out.deck_held[sc.name] = sum(1 for _, tg, _ in targets if tg.key.startswith("deck:"))
    chart_window = charts(game, entries)

    out.decks = {d.name: sum(max(0, m.copies - outside[m.id]) for m in game.markers
                             if m.deck == d.id) for d in game.info.decks}
    out.make_probes = lambda: probes(game, geom, board)

    event_hotkeys, event_commands = turn_events.components(game)
    root = c.GameModule(
        c.BasicCommandEncoder(),
        c.GlobalOptions(),
        c.PlayerRoster([s.name for s in game.info.sides]),
        c.PrototypesContainer(*protos),
        *maps,
        pal,
        *setup_window(book, geom.counter_px("unit")),
        *dice_buttons(game),
        *turn_tracker(game, event_hotkeys),
        *event_commands,
        *victory.components(game),
        chart_window,
        c.NotesWindow(),
        *setups,
        # Combat resolution generated from the tables (issue 7): markers, their palette, map data.
        *combat_components(game, geom, book, entries),
        name=game.info.title, version=game.info.version, description=_description(game),
        VassalVersion=VASSAL_VERSION, nextPieceSlotId=NEXT)
    entries["buildFile.xml"] = c.build_file(root)
    book.save_texts()
    entries["moduledata"] = md
    out.content_digest = changes.content_digest(entries, game.info.version)
    out.snapshot = changes.snapshot(game)
    entries[changes.PAGE] = changes.page(game, since, out.snapshot).encode("utf-8")
    out.entries = entries
    out.slot_ids = book.ids.keys()
    return out


# what the combat calculators read: not the counters (tests/perf/test_keys.py pins it)
COMBAT_SLICES = ("info", "map", "tables", "scenarios", "rules")


def combat_components(game: Game, geom: BoardGeometry, book: PieceBook,
                      entries: dict[str, bytes]) -> list[c.Component]:
    """vassal_combat.components_for, from the build cache while what the calculators read is
    unchanged: the location facts of a campaign map's 34,000 hexes took half a second of every
    rebuild after one counter changed."""
    import pickle

    from builder import cache, keys

    sizes = [geom.counter_px(s.id) for s in game.info.counter_sizes]

    def made() -> bytes:
        from lxml import etree

        added: dict[str, bytes] = {}
        slots: list[tuple[str, str]] = []

        def gpid(key: str, what: str) -> str:  # registered with the book below, cached or not
            slots.append((key, what))
            return str(derived(key))

        comps = vassal_combat.components_for(game, geom, gpid, added)
        xml = [etree.tostring(comp.element()) for comp in comps]  # kept as XML: see Prebuilt
        return pickle.dumps((xml, added, slots), pickle.HIGHEST_PROTOCOL)

    xml, added, slots = pickle.loads(cache.cached(
        ("module-combat-xml", game.slug, geom.px_per_mm, sizes,
         *(keys.slice_digest(game, part) for part in COMBAT_SLICES)), made))
    for key, what in slots:  # the same ids: each derived from its key alone
        book.slot_id(key, what)
    entries.update(added)
    return [c.Prebuilt(text) for text in xml]


def probes(game: Game, geom: BoardGeometry, board: bx.BoxBoard) -> list[tuple[str, int, int, str]]:
    """Points and the location names the engine must give them: every hex or sector, points
    spread over the main board outside them (the margin), every box of the boxes window."""
    out = []
    if game.is_hex:
        for h in game.grid.all_hexes():
            x, y = geom.hex_point(h)
            out.append((MAIN_MAP, x, y, game.grid.label(h)))
        outlines = [geom.sheet_outline_px(s) for s in geom.sheets]
    else:
        for s in game.map.sectors:
            x, y = geom.sector_point(s.id)
            out.append((MAIN_MAP, x, y, sector_label(game, s.id)))
        outlines = [geom.sector_outline_px(s.id) for s in game.map.sectors]
    out.extend((MAIN_MAP, x, y, MARGIN_ZONE) for x, y in margin_points(outlines, geom.size_px))
    for b in board.boxes:
        out.append((BOX_MAP, b.x + b.w // 2, b.y + bx.LABEL // 2, b.name))
    return out


def _main_point(game: Game, geom: BoardGeometry, target: Target) -> tuple[int, int]:
    kind, _, ref = target.key.partition(":")
    if kind == "hex":
        return geom.hex_point(ref)
    return geom.sector_point(ref)
