"""Hypothesis strategies: random tables of every computed kind, valid by construction.

Each strategy builds the TOML-shaped dict a designer would write (ids, bands, rows covering
every roll), so the model's validators see exactly what the loader would give them.
"""

from __future__ import annotations

from hypothesis import strategies as st

from builder.model.tables import dice_range

DICE = ("1d6", "2d6", "1d10", "1d4", "3d6")
CODES = ("—", "-", "A1", "Ae", "D1", "De", "EX", "DR", "NE", "A2/D1")
ROUNDINGS = ("half-down", "half-up", "down", "up", "nearest")
BEYOND = ("first-column", "last-column", "not-allowed")
TERRAIN = ("clear", "woods", "town", "sea")  # the terrain types of tests/fixtures/mini

codes = st.sampled_from(CODES)


def _rolls(dice: str) -> list[str]:
    lo, hi = dice_range(dice)
    return [str(n) for n in range(lo, hi + 1)]


@st.composite
def results_grid(draw, dice: str, width: int, cell=codes) -> dict:
    return {r: draw(st.lists(cell, min_size=width, max_size=width)) for r in _rolls(dice)}


@st.composite
def shifts(draw) -> list[dict]:
    n = draw(st.integers(0, 2))
    return [{"id": f"shift-{i}", "label": f"Shift {i}", "columns": draw(st.integers(-3, 3)),
             "max_uses": draw(st.none() | st.integers(1, 2))} for i in range(n)]


@st.composite
def modifiers(draw, terrain: bool = True) -> list[dict]:
    n = draw(st.integers(0, 3))
    out = []
    for i in range(n):
        m = {"id": f"drm-{i}", "label": f"Modifier {i}", "value": draw(st.integers(-3, 3)),
             "group": draw(st.sampled_from(["", "", "g"])),
             "max_uses": draw(st.none() | st.integers(1, 3))}
        if terrain and draw(st.booleans()):
            m["terrain"] = draw(st.lists(st.sampled_from(TERRAIN), min_size=1, max_size=2, unique=True))
        out.append(m)
    return out


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


@st.composite
def bands(draw, count: int) -> list[str]:
    """Consecutive differential bands: '<=-2', '-1', '0', '+1..+2', '>=+3'."""
    start = draw(st.integers(-8, 4))
    widths = draw(st.lists(st.integers(1, 3), min_size=count, max_size=count))
    out, lo = [], start
    for i, w in enumerate(widths):
        hi = lo + w - 1
        if i == 0 and count > 1 and draw(st.booleans()):
            out.append(f"<={_signed(hi)}")
        elif i == count - 1 and count > 1 and draw(st.booleans()):
            out.append(f">={_signed(lo)}")
        else:
            out.append(_signed(lo) if w == 1 else f"{_signed(lo)}..{_signed(hi)}")
        lo = hi + 1
    return out


@st.composite
def differential(draw) -> dict:
    dice = draw(st.sampled_from(DICE[:3]))
    columns = draw(st.integers(1, 10))
    n_rows = draw(st.integers(1, 3))
    rows = []
    for i in range(n_rows):
        row = {"name": f"Row {i}", "differentials": draw(bands(draw(st.integers(1, columns))))}
        if i and draw(st.booleans()):
            row["terrain"] = draw(st.lists(st.sampled_from(TERRAIN), min_size=1, max_size=2, unique=True))
        if i and draw(st.integers(0, 4)) == 0:
            row["condition"] = f"condition {i}"
        rows.append(row)
    return {"id": "t", "name": "Random CRT", "kind": "differential", "dice": dice,
            "columns": columns, "terrain_rows": rows,
            "default_row": draw(st.sampled_from([r["name"] for r in rows])),
            "results": draw(results_grid(dice, columns)),
            "beyond_low": draw(st.sampled_from(BEYOND)), "beyond_high": draw(st.sampled_from(BEYOND)),
            "shifts": draw(shifts()), "modifiers": draw(modifiers())}


RATIOS = ("1:6", "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "8:1")


@st.composite
def ratio(draw) -> dict:
    dice = draw(st.sampled_from(DICE[:2]))
    columns = sorted(draw(st.lists(st.sampled_from(RATIOS), min_size=1, max_size=8, unique=True)),
                     key=RATIOS.index)
    paired = draw(st.booleans())
    cell = (st.tuples(st.integers(0, 4), st.integers(0, 4)).map(lambda p: f"{p[0]}/{p[1]}")
            if paired else codes)
    t = {"id": "t", "name": "Random odds CRT", "kind": "ratio", "dice": dice, "columns": columns,
         "results": draw(results_grid(dice, len(columns), cell)),
         "result_format": "attacker/defender" if paired else "single",
         "rounding": draw(st.sampled_from(ROUNDINGS)),
         "terrain_effect": draw(st.sampled_from(["", "divisor"])),
         "terrain_choice": draw(st.sampled_from(["best-for-defender", "cumulative"])),
         "edge_cap": draw(st.none() | st.integers(1, 30)),
         "retreat_reduces": draw(st.integers(0, 2)),
         "beyond_low": draw(st.sampled_from(BEYOND)), "beyond_high": draw(st.sampled_from(BEYOND)),
         "shifts": draw(shifts()), "modifiers": draw(modifiers())}
    if draw(st.booleans()):
        t["divisor_rounding"] = draw(st.sampled_from(ROUNDINGS))
    return t


@st.composite
def fire(draw) -> dict:
    dice = draw(st.sampled_from(DICE[:2]))
    n = draw(st.integers(1, 6))
    exact = draw(st.booleans())
    lo = draw(st.integers(0, 3))
    bands_ = []
    for i in range(n):
        if exact:
            bands_.append(str(lo))
            lo += draw(st.integers(1, 4))
        else:
            w = draw(st.integers(1, 4))
            last = i == n - 1 and draw(st.booleans())
            bands_.append(f"{lo}+" if last else (str(lo) if w == 1 else f"{lo}-{lo + w - 1}"))
            lo += w
    cell = st.integers(0, 6).map(str) | st.just("-")
    return {"id": "t", "name": "Random fire table", "kind": "fire", "dice": dice, "bands": bands_,
            "exact_bands": exact, "results": draw(results_grid(dice, n, cell)),
            "rounding": draw(st.sampled_from(ROUNDINGS)),
            "terrain_effect": draw(st.sampled_from(["", "divisor"]))}


@st.composite
def modified_roll(draw) -> dict:
    dice = draw(st.sampled_from(DICE[:2]))
    lo, hi = dice_range(dice)
    first = lo - draw(st.integers(0, 3))
    last = hi + draw(st.integers(0, 3))
    results = {str(k): draw(codes) for k in range(first, last + 1)}
    natural = {str(k): draw(codes) for k in draw(st.lists(st.integers(lo, hi), max_size=2, unique=True))}
    return {"id": "t", "name": "Random modified roll", "kind": "modified-roll", "dice": dice,
            "results": results, "natural": natural, "attempts": draw(st.integers(1, 3)),
            "modifiers": draw(modifiers())}


@st.composite
def _cover(draw, lo: int, hi: int) -> list[dict]:
    """Entries whose conditions cover lo..hi: consecutive ranges, sometimes ending in 'else'."""
    entries, at = [], lo
    while at <= hi:
        end = min(hi, at + draw(st.integers(0, 4)))
        when = str(at) if end == at else draw(st.sampled_from([f"{at}-{end}", f"{at}..{end}"]))
        if at == lo and draw(st.booleans()):
            when = f"<={end}"
        if end == hi and draw(st.booleans()):
            when = f">={at}" if at != lo else "else"
        entries.append({"when": when, "result": draw(codes)})
        at = end + 1
        if at <= hi and draw(st.integers(0, 5)) == 0:
            entries.append({"when": "else", "result": draw(codes)})
            break
    return entries


@st.composite
def lookup(draw) -> dict:
    t = {"id": "t", "name": "Random lookup", "kind": "lookup"}
    if draw(st.booleans()):
        t["dice"] = draw(st.sampled_from(DICE))
        lo, hi = dice_range(t["dice"])
    else:
        lo = draw(st.integers(-20, 10))
        hi = lo + draw(st.integers(0, 40))
        t["key"] = "vp"
        t["inputs"] = [{"id": "vp", "name": "Victory points", "min": lo, "max": hi}]
    t["entries"] = draw(_cover(lo, hi))
    if "dice" in t:
        t["modifiers"] = draw(modifiers(terrain=False))
    return t


TABLES = {"differential": differential(), "ratio": ratio(), "fire": fire(),
          "modified-roll": modified_roll(), "lookup": lookup()}
