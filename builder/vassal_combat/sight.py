"""The map-rule tables in the module: range (Scheldt 14.2) and line of sight (Vimy 17.3).

A check marker is dropped on the target's hex; the player types the hex of the unit it is
measured from (the nearest friendly unit, or the observer) in its menu, and 'Resolve' writes the
answer to the chat. The distance comes from the same grid `builder calc` uses: every hex's cube
coordinates (builder.geometry.hexgrid) are compiled into the module as packed global properties,
and the marker computes max(|dq|, |dr|, |dq + dr|) from its own hex and the typed one.

Range is answered in full, as calc answers it, and so is line of sight: what the distance
settles (the same hex, an adjacent hex, a spotter next to the target, a night turn beyond the
night range, beyond the maximum range) from the coordinates, and within range by day from each
hex's view, worked out at build time by builder.sightmap with the rule `builder calc` applies
(levels, obstacle heights, crests and walls, blind hexes) and compiled into the module as one
text per hex.
"""

from __future__ import annotations

from builder.vassal import expr as x
from builder.vassal_combat.calculator import PREFIX, Calculator, Input
from builder.vassal_combat.locations import Field, Packer, key_text

P = PREFIX
KINDS = ("range", "line-of-sight")


def _plain(text: str) -> str:
    return text.replace("$", "").replace("{", "(").replace("}", ")")


def _coordinates(game, c: Calculator, tid: str) -> tuple[Packer, Packer]:
    """Packed cube coordinates of every hex: one reader for the marker's hex, one for the typed
    hex. A hex the map does not have reads V = 0."""
    cubes = {game.grid.label(h): game.grid.cube(h)[:2] for h in game.grid.all_hexes()}
    q0 = min(q for q, _ in cubes.values())
    r0 = min(r for _, r in cubes.values())
    fields = [Field("Q", max(q for q, _ in cubes.values()) - q0 + 1),
              Field("R", max(r for _, r in cubes.values()) - r0 + 1), Field("V", 2)]
    none = {"Q": 0, "R": 0, "V": 0}
    here = Packer(f"{tid}@", fields, f"{P}Here")
    there = Packer(f"{tid}@", fields, f"{P}There")
    c.data.update(here.data([key_text(k) for k in cubes],
                            [{"Q": q - q0, "R": r - r0, "V": 1} for q, r in cubes.values()], none))
    for name, e in here.word_props("LocationName", none):
        c.prop(name, e)
    for name, e in there.word_props(f"{P}From", none):
        c.prop(name, e)
    return here, there


def build(game, t) -> Calculator | None:
    """The check marker of a range or line-of-sight table (hex maps only)."""
    if not game.is_hex or t.kind not in KINDS:
        return None
    los = t.kind == "line-of-sight"
    c = Calculator(t.id, t.name, t.kind, marker=f"Check: {t.name}")
    who = "observer" if los else (t.origin or "origin")
    c.inputs.append(Input(f"{P}From", f"hex of the {who}", "hex", default="0",
                          api="observer" if los else "origins"))
    here, there = _coordinates(game, c, x.ident(t.id))
    dq = f"({here.field('Q')} - {there.field('Q')})"
    dr = f"({here.field('R')} - {there.field('R')})"
    c.prop(f"{P}Dist", f"Math.max(Math.abs({dq}), Math.max(Math.abs({dr}), Math.abs({dq} + {dr})))")
    d = f"{P}Dist"
    known = f"{there.field('V')} == 1"
    hexes = f'{d} + ({d} == 1 ? " hex" : " hexes")'
    cases: list[tuple[str, str]] = [
        (f"{here.field('V')} != 1", '"drop the marker on the target\'s hex"'),
        (f"!({known})", '"no such hex: type the hex number as printed"')]
    if los:
        if t.spotter:
            sp = f"{P}Spotter"
            c.inputs.append(Input(sp, f"{t.spotter} in or next to the target hex", "toggle",
                                  api="spotters"))
            cases.append((f"{sp} == 1", x.lit(f"observed: {t.spotter} observes its hex and the "
                                              "adjacent ones")))
        cases.append((f"{d} == 0", '"observed: the same hex"'))
        if t.adjacent_always:
            cases.append((f"{d} == 1", '"observed: adjacent, always observed"'))
        if t.night_range is not None:
            night = f"{P}Night"
            c.inputs.append(Input(night, "night turn", "toggle", api="night"))
            cases.append((f"{night} == 1 && {d} > {t.night_range}", x.lit(
                f"not observed: night turn, no line of sight beyond {t.night_range} hex"
                + ("es" if t.night_range != 1 else ""))))
        cases.append((f"{d} > {t.max_range}", f'"not observed: " + {hexes} + '
                      f'{x.lit(f" is beyond the {t.max_range}-hex maximum")}'))
        seen = _view(game, t, c, x.ident(t.id), here, there)
        c.prop(f"{P}Result", x.choose(cases, f'{seen} ? "observed: " + {hexes} + ", a clear '
                                             f'line" : "not observed: " + {hexes} + ", every '
                                             'line is blocked"'))
    else:
        cases.append((f"{d} <= {t.max}", f'"in range: " + {hexes} + '
                      f'{x.lit(f", within {t.max}")}'))
        c.prop(f"{P}Result", x.choose(cases, f'"out of range: " + {hexes} + '
                                             f'{x.lit(f", more than {t.max}")}'))
    c.prop(f"{P}Banned", "false")
    c.prop(f"{P}Meaning", '""')
    c.prop(f"{P}ColumnLabel", f'{d} + " hexes"')
    c.prop(f"{P}FromText", _as_printed(game, f"{P}From"))
    c.report = (f"{_plain(t.name)}: from ${P}FromText$ to $LocationName$ -> ${c.line}$"
                + (f" ({_plain(t.source)})" if t.source else ""))
    c.prop(c.line, f"{P}Result")
    return c


def _as_printed(game, prop: str) -> str:
    """The typed hex as printed: an all-digit hex number is read as a number by the engine
    ('0822' -> 822), so its leading zeros are put back."""
    labels = {game.grid.label(h) for h in game.grid.all_hexes()}
    widths = {len(k) for k in labels}
    if len(widths) != 1 or not all(k.isdigit() for k in labels):
        return f'"" + {prop}'
    w = widths.pop()
    return x.choose([(f"{prop} < {10 ** k}", x.lit("0" * (w - k))) for k in range(1, w)],
                    '""').join(["(", ")"]) + f" + {prop}"


def view_texts(game, t) -> dict[str, str]:
    """Each hex's day view as text, by hex label: 'v' then one character per step (dq, dr) of the
    square -R..R x -R..R, in order: '1' the hex that far sees this one, '0' it does not, '-'
    beyond the range or adjacent (settled by the distance). From builder.sightmap, the rule
    builder calc applies; kept in the build cache with the map and the table."""
    import json

    from builder import cache, keys, sightmap

    def make() -> str:
        v = sightmap.view(game, t)
        r = t.max_range
        square = [(dq, dr) for dq in range(-r, r + 1) for dr in range(-r, r + 1)]
        out = {}
        for (q, rr), label in v.labels.items():
            chars = ["v"]
            for d in square:
                if d in v.seen and (d != (0, 0)):
                    arr = v.seen[d]
                    chars.append("1" if arr[q - v.q0, rr - v.r0] else "0")
                else:
                    chars.append("-")
            out[label] = "".join(chars)
        return json.dumps(out, sort_keys=True)

    return json.loads(cache.cached_text(("sight-view", keys.slice_digest(game, "map"),
                                         t.model_dump_json()), make))


def _view(game, t, c: Calculator, tid: str, here: Packer, there: Packer) -> str:
    """The expression 'the typed hex sees the marker's', read from the marker's hex's view."""
    r = t.max_range
    for label, text in view_texts(game, t).items():
        c.data[f"{tid}~@{key_text(label)}"] = text
    c.prop(f"{P}View", f'"" + GetProperty({x.lit(tid + "~@")} + LocationName)')
    vq = f"({there.field('Q')} - {here.field('Q')})"
    vr = f"({there.field('R')} - {here.field('R')})"
    c.prop(f"{P}ViewAt", f"({vq} + {r}) * {2 * r + 1} + ({vr} + {r}) + 1")
    return (f'({P}View.length() > {P}ViewAt && '
            f'{P}View.substring({P}ViewAt, {P}ViewAt + 1) == "1")')


def calculators(game) -> list[Calculator]:
    """A check marker for every range and line-of-sight table of a hex map."""
    return [c for t in game.tables if t.kind in KINDS for c in [build(game, t)] if c is not None]
