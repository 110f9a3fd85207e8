"""What the module does when the turn marker moves: the scenario's turn-by-turn events.

Entering a turn's first phase (the TurnTracker's global hotkey for that turn) brings on that
turn's reinforcements: a Global Key Command sends 'Enter the map' to every piece scheduled for
the turn that still stands in the box it was set up in, and the piece's Send-to-location trait
puts it on its entry hex. Then one chat line says what the turn brings: arrivals, the per-turn
track values (artillery allotments, support-fire draws), deck draws and replacements.

Nothing moves twice: a unit already brought on (or moved by hand, or eliminated) is no longer
in its set-up box, so stepping the turn back and forward again moves nothing; the chat line
says so. Conditional reinforcements (no turn) keep the same 'Enter the map' command for the
player to use when the condition is met.

Withdrawals work the same way in the other direction: as the turn a unit leaves begins (the
next turn for a withdrawal at the end of a turn), a Global Key Command sends 'Withdraw' to every
piece scheduled for it that is still on the main map, and its Send-to-location trait moves it
to its box ('Withdrawn' unless the scenario names one). A unit already off the map (eliminated,
or withdrawn by hand for an earlier reason) is not moved; stepping the turn back does not bring
a withdrawn unit back, and the chat line says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.model.game_model import Game
from builder.model.scenario import Scenario
from builder.vassal import boxes as bx
from builder.vassal import components as c
from builder.vassal import traits as t
from builder.vassal.encoding import CTRL, NAMED, keystroke
from builder.vassal.geometry import BoardGeometry

ENTER_KEY = keystroke(69, CTRL)  # Ctrl+E: 'Enter the map'
WAITING = "WaitsIn"  # marker: the name of the box a reinforcement was set up in
ENTRY_TURN = "EntryTurn"
WITHDRAW_KEY = keystroke(NAMED, 0, "Withdraw")
WITHDRAW_TURN = "WithdrawTurn"  # marker: the turn whose start moves the unit off the map
WITHDRAWN = "Withdrawn"  # the box withdrawn units go to when the scenario names none
MENU = "Turn events"


def turn_label(game: Game, n: int) -> str:
    """The turn's name in the TurnTracker list ('3', '2 (April 9 Evening) night')."""
    _, sub, night = bx.turn_label(game, n)
    text = f"{n}" + (f" ({sub})" if sub else "")
    if night and "night" not in sub.lower():
        text += " night"
    return text


def phases_of_turn(game: Game, n: int) -> list[str]:
    """The phases played on turn n, in order (a phase skipped on that turn left out)."""
    return [p.name for p in game.info.sequence if n not in p.skip_on_turns]


@dataclass
class TurnEvents:
    """Everything the scenarios schedule for one turn."""

    turn: int
    arrivals: list[str] = field(default_factory=list)  # chat text per arrival group
    movers: int = 0  # pieces the Global Key Command brings on
    notes: list[str] = field(default_factory=list)  # tracks, draws, replacements
    leaving: list[str] = field(default_factory=list)  # chat text per withdrawal

    def line(self, game: Game) -> str:
        parts = []
        if self.arrivals:
            parts.append("reinforcements " + "; ".join(self.arrivals)
                         + (" (brought on from their box; a unit no longer there is not moved)"
                            if self.movers else ""))
        if self.leaving:
            parts.append("withdrawn " + "; ".join(self.leaving)
                         + " (moved off the map if still on it; stepping the turn back does not "
                           "bring a unit back)")
        parts.extend(self.notes)
        return f"Turn {self.turn}: " + ". ".join(parts)


def _unit_name(game: Game, uid: str) -> str:
    from builder.vassal.pieces import unit_name

    u = game.unit_by_id.get(uid)
    return unit_name(u) if u else game.marker_by_id[uid].name


def _entry(game: Game, r) -> str:
    """The hex a reinforcement is placed on (the first entry hex), '' when it has none."""
    from builder.vassal.ids import hex_or_none

    for at in r.at:
        h = hex_or_none(game, at)
        if h is not None:
            return game.grid.label(h)
    return ""


def _turn_set(text: str, game: Game) -> set[int]:
    """'1-10', '3', 'night', 'all' -> turn numbers (as `builder calc GAME turn` reads them)."""
    from builder.tables.scenario_lookups import turn_set

    return turn_set(game, text)


def scenario_events(game: Game, sc: Scenario) -> dict[int, TurnEvents]:
    """Turn -> the events of one scenario."""
    sides = {s.id: s.name for s in game.info.sides}
    decks = {d.id: d.name for d in game.info.decks}
    out: dict[int, TurnEvents] = {}
    first = sc.turns[0] if sc.turns else game.info.turns.first
    last = sc.turns[1] if sc.turns else first + game.info.turns.count - 1

    def ev(n: int) -> TurnEvents:
        return out.setdefault(n, TurnEvents(n))

    groups: dict[tuple[int, str], list[str]] = {}
    for r in sc.reinforcements:
        if r.turn is None:
            continue
        hexes = ", ".join(r.at)
        groups.setdefault((r.turn, hexes), []).append(_unit_name(game, r.unit))
        if _entry(game, r):
            ev(r.turn).movers += 1
    for (n, hexes), names in groups.items():
        ev(n).arrivals.append(", ".join(names) + (f" at {hexes}" if hexes else ""))
    for w in sc.withdrawals:
        n = w.leaves_as_turn_begins()
        if first <= n <= last:
            box = withdrawal_box_name(game, w)
            ev(n).leaving.append(f"{_unit_name(game, w.unit)} ({w.timing()}) to the {box}"
                                 + ("" if box.lower().endswith("box") else " box"))
    rows = {tr.id: tr for tr in sc.tracks}
    drawn_by_track = {d.count.split()[-1]: d for d in sc.draws if d.count.startswith("per track ")}
    for tr in sc.tracks:
        for i, v in enumerate(tr.per_turn):
            if v is None or not first <= first + i <= last:
                continue
            d = drawn_by_track.get(tr.id)
            ev(first + i).notes.append(
                f"{decks.get(d.deck, d.deck)}: draw {v} ({d.when})" if d else f"{tr.name} {v}")
    for d in sc.draws:
        if d.count.startswith("per track ") and d.count.split()[-1] in rows:
            continue  # said with the track's value above
        for n in range(first, last + 1):
            ev(n).notes.append(f"{decks.get(d.deck, d.deck)}: draw {d.count} ({d.when})")
    for a in sc.allowances:
        for n in sorted(_turn_set(a.turns, game)):
            if first <= n <= last:
                ev(n).notes.append(f"{sides.get(a.side, a.side)} {a.kind}s ({a.turns}): {a.count}")
    return dict(sorted(out.items()))


def arrival_traits(game: Game, geom: BoardGeometry, r, box_name: str) -> tuple[t.Trait, ...]:
    """What a waiting reinforcement carries: its turn, its set-up box and 'Enter the map'."""
    from builder.vassal.ids import MAIN_BOARD, MAIN_MAP_ID

    hx = _entry(game, r)
    if not hx:
        return ()
    x, y = geom.hex_point(hx)
    props = [(WAITING, box_name)] + ([(ENTRY_TURN, str(r.turn))] if r.turn is not None else [])
    where = ", ".join(r.at)
    return (t.Marker(tuple(props)),
            t.SendToLocation(f"Enter the map at {hx}", ENTER_KEY, MAIN_MAP_ID, MAIN_BOARD, x, y,
                             description=f"Reinforcement: enters at {where}"))


def withdrawal_box_key(w) -> str:
    """The off-map box a withdrawn unit goes to ('box:<id>'; 'box:withdrawn' by default)."""
    return f"box:{w.box or 'withdrawn'}"


def withdrawal_box_name(game: Game, w) -> str:
    return next((b.name for b in game.info.boxes if b.id == w.box), WITHDRAWN)


def withdrawal_traits(game: Game, w, box_map_id: str, board: str, x: int, y: int
                      ) -> tuple[t.Trait, ...]:
    """What a unit due to leave carries: the turn that moves it, and 'Withdraw'."""
    box = withdrawal_box_name(game, w)
    return (t.Marker(((WITHDRAW_TURN, str(w.leaves_as_turn_begins())),)),
            t.SendToLocation(f"Withdraw ({w.timing()})", WITHDRAW_KEY, box_map_id, board, x, y,
                             description=f"Withdrawal: to {box}"))


def components(game: Game) -> tuple[list[c.Component], list[c.Component]]:
    """(TurnTracker children, module components): a turn hotkey per turn with events, and a
    Global Key Command per turn with arrivals (also in the 'Turn events' toolbar menu, to
    bring a turn's units on by hand)."""
    per_turn: dict[int, list[tuple[str, TurnEvents]]] = {}
    for sc in game.scenarios:
        for n, e in scenario_events(game, sc).items():
            per_turn.setdefault(n, []).append((sc.name, e))
    from builder.vassal.ids import MAIN_MAP

    hotkeys, commands = [], []
    for n, found in sorted(per_turn.items()):
        lines = {e.line(game) for _, e in found}
        if len(lines) == 1:
            text = lines.pop()
        else:  # scenarios differ: each says its own
            text = " / ".join(f"{name}: {e.line(game)}" for name, e in found)
        match = f'Turn=="{_quote(turn_label(game, n))}"'
        phase = next(iter(phases_of_turn(game, n)), "")  # the first phase played that turn
        if phase:
            match += f' && Phase=="{_quote(phase)}"'
        key = ""
        if any(e.movers for _, e in found):
            key = keystroke(NAMED, 0, f"TurnArrivals{n}")
            name = f"Bring on turn {n} reinforcements"
            commands.append(c.GlobalKeyCommand(
                name=name, buttonText=name, tooltip=name, buttonHotkey=key, hotkey=ENTER_KEY,
                filter=f'{{{ENTRY_TURN}=="{n}" && CurrentZone=={WAITING}}}', singleMap=False,
                reportSingle=True, reportFormat=""))
        report = _safe(text)
        if key:
            hotkeys.append(c.TurnGlobalHotkey(name=f"Turn {n} events", hotkey=key,
                                              match="{" + match + "}", reportFormat=report))
            report = ""  # one chat line per turn
        if any(e.leaving for _, e in found):
            wkey = keystroke(NAMED, 0, f"TurnWithdrawals{n}")
            name = f"Withdraw turn {n} units"
            commands.append(c.GlobalKeyCommand(
                name=name, buttonText=name, tooltip=name, buttonHotkey=wkey, hotkey=WITHDRAW_KEY,
                filter=f'{{{WITHDRAW_TURN}=="{n}" && CurrentMap=="{_quote(MAIN_MAP)}"}}',
                singleMap=False, reportSingle=True, reportFormat=""))
            hotkeys.append(c.TurnGlobalHotkey(name=f"Turn {n} withdrawals", hotkey=wkey,
                                              match="{" + match + "}", reportFormat=report))
        elif not key:
            hotkeys.append(c.TurnGlobalHotkey(name=f"Turn {n} events", hotkey="",
                                              match="{" + match + "}", reportFormat=report))
    if commands:
        commands = [c.ToolbarMenu(text=MENU, description=MENU,
                                  tooltip="Bring on reinforcements" + (
                                      ", withdraw units" if any("Withdraw" in x.attrs["buttonText"]
                                                                for x in commands) else ""),
                                  menuItems=",".join(x.attrs["buttonText"] for x in commands)),
                    *commands]
    return hotkeys, commands


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _safe(text: str) -> str:
    """Chat text with no property references or expressions."""
    return text.replace("$", "").replace("{", "(").replace("}", ")")
