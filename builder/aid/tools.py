"""Which tools the aid page offers: only those the game's tables use.

The engine keeps every calculator `builder calc` has (so its answers stay equal to the CLI's);
this decides what the page shows a player, from the model alone:
- the built-in line-of-sight calculator only when a table is about line of sight;
- a dice button per dice spec some table rolls (no 2d6 button where no table rolls 2d6);
- the losses-to-fire input of a combat table only when the game has a fire table.
"""

from __future__ import annotations

import re

from builder.model.game_model import Game

# inputs about fire before a combat: no use where no table resolves fire
FIRE_INPUTS = frozenset({"attack_loss"})


def _has_sight_table(game: Game) -> bool:
    return any(t.kind == "line-of-sight" for t in game.tables)


def _has_fire_table(game: Game) -> bool:
    return any(t.kind == "fire" for t in game.tables)


def hidden_inputs(game: Game) -> frozenset[str]:
    """Input ids the page leaves out of every form (the engine still accepts them)."""
    return frozenset() if _has_fire_table(game) else FIRE_INPUTS


def offered(game: Game, calculators: list[dict]) -> list[dict]:
    """The calculators the page shows, each with the inputs its form asks for."""
    hide = hidden_inputs(game)
    out = []
    for c in calculators:
        if c["kind"] == "map" and c["id"] == "los" and not _has_sight_table(game):
            continue
        out.append({**c, "inputs": [i for i in c["inputs"] if i["id"] not in hide]})
    return out


def _dice_key(spec: str) -> tuple[int, int]:
    n, sides = re.fullmatch(r"(\d+)d(\d+)", spec).groups()
    return (int(sides), int(n))


def dice(game: Game) -> list[dict]:
    """A button per dice spec the tables roll, fewest dice first: {spec, label, name}."""
    specs = {t.dice for t in game.tables if getattr(t, "dice", "")}
    words = {1: "one die", 2: "two dice", 3: "three dice"}
    out = []
    for spec in sorted(specs, key=_dice_key):
        sides, n = _dice_key(spec)
        out.append({"spec": spec, "label": spec if n > 1 else f"d{sides}",
                    "name": "roll " + words.get(n, f"{n} dice")
                            + ("" if sides == 6 else f" of {sides} sides")})
    return out
