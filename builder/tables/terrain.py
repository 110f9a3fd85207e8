"""Terrain effects a calculator reads: divisors by terrain type, from a choice or from the map."""

from __future__ import annotations

from fractions import Fraction

from builder.tables.result import Calculation
from builder.tables.rounding import show


def effect_terrains(game, effects) -> list:
    """Terrain types that carry any of these effects (e.g. 'divisor', 'shift'), in map order."""
    effects = [effects] if isinstance(effects, str) else [e for e in effects if e]
    return [t for t in game.map.terrain_types if any(e in t.effects for e in effects)]


def terrain_shift(game, effect: str, ids: list[str] | None, calc: Calculation,
                  choice: str = "best-for-defender", sides=()) -> int:
    """Column shift from the defender's terrain and the hexsides attacked across ((type, shift)
    pairs): the one best for the defender (most to the left), or all added when cumulative."""
    found = []
    for i in (ids or []) if effect else []:
        t = game.terrain_types.get(i)
        if t is None or effect not in t.effects:
            continue
        try:
            found.append((t, int(t.effects[effect])))
        except (TypeError, ValueError):
            continue  # a shift written in words is for people, not for the calculator
    found += [(ht, v) for ht, v in sides]
    if not found:
        return 0

    def cols(n: int) -> str:
        return f"{n:+d} column{'s' if abs(n) != 1 else ''}"

    if choice == "cumulative":
        total = sum(v for _, v in found)
        calc.step("terrain shifts: " + " ".join(f"{t.name} {v:+d}" for t, v in found)
                  + f" = {cols(total)} (cumulative)")
        return total
    best_t, best = min(found, key=lambda tv: tv[1])
    calc.step(f"terrain: {best_t.name}, {cols(best)}"
              + (" (the best for the defender of " + ", ".join(t.name for t, _ in found) + ")"
                 if len(found) > 1 else "") + (f" ({best_t.source})" if best_t.source else ""))
    return best


def divisor(game, effect: str, ids: list[str] | None, choice: str, calc: Calculation,
            what: str) -> Fraction:
    """The divisor the terrain gives: the best for the defender (largest), or all multiplied."""
    if not ids:
        return Fraction(1)
    found = [(game.terrain_types[i], Fraction(str(game.terrain_types[i].effects[effect])))
             for i in ids if i in game.terrain_types and effect in game.terrain_types[i].effects]
    if not found:
        return Fraction(1)
    if choice == "cumulative":
        value = Fraction(1)
        for _, v in found:
            value *= v
        calc.step(f"{what}: " + " x ".join(f"{t.name} {show(v)}" for t, v in found)
                  + f" = {show(value)} (cumulative)")
        return value
    best_t, best = max(found, key=lambda tv: tv[1])
    if len(found) > 1:
        calc.step(f"{what}: " + ", ".join(f"{t.name} {show(v)}" for t, v in found)
                  + f": not cumulative, the best for the defender applies: {best_t.name} {show(best)}"
                  + (f" ({best_t.source})" if best_t.source else ""))
    else:
        calc.step(f"{what}: {best_t.name}, {effect} {show(best)}"
                  + (f" ({best_t.source})" if best_t.source else ""))
    return best
