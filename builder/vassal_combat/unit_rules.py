"""Which of a fire table's rules the module works out on each firing unit (its distance to the
target, its printed range), known to both the rules compiler and the fire calculator."""

from __future__ import annotations


def unit_rule(t, r) -> bool:
    """A rule the module applies on each firing unit: a condition on the firing unit's distance
    alone (and its range) with a whole-number firepower multiplier or divisor, a roll modifier or
    a refusal (each when it holds for any firing unit)."""
    if t.kind != "fire" or r.when is None or r.group:
        return False
    nodes = list(r.when.walk())
    if len(nodes) != 1 or nodes[0].keys() != ["distance"]:
        return False
    if r.effect in ("attack_divisor", "attack_multiplier"):
        return float(r.value).is_integer() and not r.rounding and bool(t.bands)
    return r.effect in ("drm", "prohibited")


def unit_rule_unsupported(game, t, r) -> str:
    """Why the module cannot apply a rule on a firing unit's distance ('' when it can)."""
    if not unit_rule(t, r):
        return ("a condition on the firing unit's distance with other conditions, a group, a "
                "rounding of its own or a factor that is not a whole number")
    if "range" in r.when.distance and not _range_everywhere(game, t):
        return "some firing units print no range"
    return ""


def firing_types(game, t) -> tuple[str, ...]:
    """The unit types whose counters print the factor the columns read."""
    want = t.strength
    return tuple(sorted({u.type for u in game.units
                         if want in game.factor_names_of(u, "front")}))


def _range_everywhere(game, t) -> bool:
    return all("range" in game.factor_names_of(u, "front") for u in game.units
               if u.type in firing_types(game, t))
