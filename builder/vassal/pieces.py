"""The game's counters as VASSAL pieces: prototypes per side and unit type, units, markers, cards.

Each unit carries its properties (Side, Formation, Type, UnitId and the printed factors, by the
game's factor names) so automation can read them; two-sided counters flip with Ctrl+F, and the
factors and Step follow the face shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from builder.model.counters import Marker, Unit, factor_value, split_factors
from builder.model.game_model import Game
from builder.vassal import traits as t
from builder.vassal.lookups import start_traits

UNIT = "Unit"
MARKER = "Marker"
LAYER = "Step"


def image_name(counter_id: str, face: str) -> str:
    """The archive image of one counter face."""
    return f"{re.sub(r'[^A-Za-z0-9_.-]', '_', counter_id)}-{face}.png"


def side_prototype(game: Game, side_id: str) -> str:
    return f"Side {game.sides[side_id].name}" if side_id in game.sides else f"Side {side_id}"


def type_prototype(unit_type: str) -> str:
    return f"Type {unit_type}"


def unit_name(u: Unit) -> str:
    """The piece name players see: the printed unit id and its type."""
    return f"{u.unit} {u.type.replace('-', ' ')}".strip()


def marker_name(m: Marker) -> str:
    return m.name


def prop_name(factor: str) -> str:
    """'attack' -> 'Attack' (the property holding that printed factor)."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", factor) if part)


@dataclass(frozen=True)
class Prototypes:
    """The PrototypeDefinitions of a game, by name."""

    pieces: dict[str, t.Piece]


def prototypes(game: Game, type_traits: dict[str, list] | None = None) -> Prototypes:
    """A common Unit and Marker prototype, one per side and one per unit type in use (with the
    traits the module's calculators give that type's units: type_traits)."""
    out: dict[str, t.Piece] = {
        UNIT: t.prototype_piece([t.MarkMoved(image="moved.gif"), t.Delete(), t.Clone()]),
        MARKER: t.prototype_piece([t.Delete(), t.Clone()]),
    }
    for side in game.info.sides:
        out[side_prototype(game, side.id)] = t.prototype_piece(
            [t.UsePrototype(UNIT), t.Marker((("Side", side.name), ("SideId", side.id)))])
    for unit_type in sorted({u.type for u in game.units}):
        out[type_prototype(unit_type)] = t.prototype_piece(
            list((type_traits or {}).get(unit_type, ())) + [t.Marker((("Type", unit_type),))])
    return Prototypes(out)


def _formation_name(game: Game, u: Unit) -> str:
    side = game.sides.get(u.side)
    if side:
        for f in side.formations:
            if f.id == u.formation:
                return f.name
    return u.formation


def _factors(game: Game, u: Unit, face: str) -> list[tuple[str, str]]:
    """(property, printed value) for each factor of a face, named by the unit's own factor
    names (its counter type's, else game.toml's)."""
    names = [prop_name(n) for n in game.factor_names_of(u, face)]
    values = [factor_value(p) for p in split_factors(u.front if face == "front" else u.back)]
    return [(n, "" if v is None else str(v)) for n, v in zip(names, values)]


def unit_piece(game: Game, u: Unit) -> t.Piece:
    """A unit: its side and type prototypes, a flip layer for a back, its properties."""
    front = image_name(u.id, "front")
    name = unit_name(u)
    fixed = [("UnitId", u.id), ("Unit", u.unit), ("Formation", _formation_name(game, u)),
             ("FormationId", u.formation), ("Size", u.size)]
    traits: list[t.Trait] = [t.UsePrototype(side_prototype(game, u.side)),
                             t.UsePrototype(type_prototype(u.type))]
    if u.two_sided:
        back = image_name(u.id, "back")
        traits.append(t.Layer(LAYER, (front, back), ("", f"+ ({u.back_name})")))
        # The printed factors of the face shown: the layer's level picks front or back.
        fronts, backs = dict(_factors(game, u, "front")), dict(_factors(game, u, "back"))
        for key in list(fronts) + [k for k in backs if k not in fronts]:
            traits.append(t.CalculatedProperty(key, _pick(fronts.get(key, ""),
                                                          backs.get(key, ""))))
        traits.append(t.CalculatedProperty("Step", f"{LAYER}_Level"))
        fixed += [(f"{k}Front", v) for k, v in fronts.items()] + \
            [(f"{k}Back", v) for k, v in backs.items()]
    else:
        fixed += _factors(game, u, "front") + [("Step", "1")]
    traits.append(t.Marker(tuple(fixed)))
    traits.extend(start_traits(game, u.id))  # 'Where it starts': the scenario lookup in the chat
    traits.append(t.BasicPiece(front, name))
    return t.Piece(tuple(traits))


def _pick(front: str, back: str) -> str:
    def lit(v: str) -> str:
        return v if re.fullmatch(r"-?\d+", v) else f'"{v}"'
    return f"({LAYER}_Level == 1) ? {lit(front)} : {lit(back)}"


def marker_piece(game: Game, m: Marker, deck_name: str = "", returns: bool = False) -> t.Piece:
    """A marker (or a deck's card: masked face down, and sent back to its deck if it returns)."""
    front = image_name(m.id, "front")
    props = [("MarkerId", m.id), ("Kind", m.kind), ("Side", game.sides[m.side].name
                                                  if m.side in game.sides else m.side),
             ("Value", "" if m.value is None else str(m.value))]
    traits: list[t.Trait] = []
    if deck_name:
        traits.append(t.Mask(image_name(m.id, "back")))
        if returns:
            traits.append(t.ReturnToDeck(deck_name, name=f"Return to {deck_name}"))
    traits.append(t.UsePrototype(MARKER))
    if m.back and not deck_name:
        traits.append(t.Layer("Face", (front, image_name(m.id, "back")), ("", f"+ ({m.back})")))
    traits.append(t.Marker(tuple(props)))
    traits.append(t.BasicPiece(front, marker_name(m)))
    return t.Piece(tuple(traits))


def faces(game: Game) -> list[tuple[str, str]]:
    """Every (counter id, face) drawn as an image: unit fronts and backs, marker faces."""
    out = []
    for u in game.units:
        out.append((u.id, "front"))
        if u.two_sided:
            out.append((u.id, "back"))
    for m in game.markers:
        out.append((m.id, "front"))
        if m.back or m.deck:
            out.append((m.id, "back"))
    return out
