"""Cases for every calculator of a game, made from its input descriptions and its map.

Each case is (calculator id, inputs as a player types them, roll or None). The same cases go
through the Python API and through the page's engine; they must agree, errors included.
"""

from __future__ import annotations

import itertools
import random

from builder.tables import api

STRENGTHS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 20, 27, 40)


def _int_values(spec: dict) -> list[int]:
    lo = spec.get("min")
    hi = spec.get("max")
    lo = 0 if lo is None else lo
    if hi is not None and hi - lo <= 14:
        return list(range(lo, hi + 1))
    vals = [v for v in STRENGTHS if v >= lo and (hi is None or v <= hi)]
    if hi is not None:
        vals += [hi - 1, hi]
    return sorted(set(vals + [lo]))


def _hexes(game) -> dict:
    """Interesting hexes: one per terrain type, hexside pairs, a spread over the map."""
    if not game.is_hex:
        return {}
    from builder import mapinfo

    grid = game.grid
    all_hexes = sorted(grid.all_hexes())
    by_terrain: dict[str, str] = {}
    for h in all_hexes:
        for t in mapinfo.terrain_of(game, h):
            by_terrain.setdefault(t, grid.label(h))
    sides = []
    for h in all_hexes:
        for n in grid.neighbours(h):
            if h < n and mapinfo.hexside_types(game, h, n):
                sides.append((grid.label(h), grid.label(n)))
    rng = random.Random(7)
    spread = [grid.label(h) for h in rng.sample(all_hexes, min(12, len(all_hexes)))]
    return {"terrain": list(by_terrain.values()), "sides": sides[:: max(1, len(sides) // 10)][:10],
            "spread": spread, "all": [grid.label(h) for h in all_hexes]}


def _base(spec_inputs: list[dict]) -> dict:
    """Required inputs filled with a middling value."""
    base = {}
    for i in spec_inputs:
        if not i["required"]:
            continue
        if i["type"] == "int":
            vals = _int_values(i)
            base[i["id"]] = str(vals[len(vals) // 2])
        elif i["type"] == "choice":
            base[i["id"]] = i["choices"][0]["value"]
    return base


def _variants(game, calc: dict, hexes: dict) -> list[dict]:
    inputs = calc["inputs"]
    ids = {i["id"] for i in inputs}
    base = _base(inputs)
    out: list[dict] = []
    needs_hex = [i for i in inputs if i["type"] == "hex" and i["required"]]
    if needs_hex:  # map calculators: pairs of hexes from the map
        rng = random.Random(len(hexes.get("all", [])) + len(calc["id"]))
        pool = hexes["terrain"] + hexes["spread"]
        pairs = [(a, b) for a, b in itertools.product(pool[:8], pool[:8]) if a != b][:24]
        pairs += [(a, b) for a, b in hexes["sides"][:4]]
        for a, b in pairs:
            case = dict(base)
            names = [i["id"] for i in needs_hex]
            if len(names) == 1:
                case[names[0]] = a
            else:
                case[names[0]] = a
                case[names[1]] = [b] if next(i for i in inputs if i["id"] == names[1])["multiple"] else b
            for i in inputs:
                if i["type"] == "int" and i["required"]:
                    case[i["id"]] = str(rng.choice([2, 3, 5, 10]))
                elif i["type"] == "bool" and rng.random() < 0.3:
                    case[i["id"]] = True
                elif i["type"] == "choice" and i["multiple"] and rng.random() < 0.4:
                    case[i["id"]] = [rng.choice(i["choices"])["value"]]
                elif i["type"] == "int" and not i["required"] and rng.random() < 0.4:
                    case[i["id"]] = str(rng.choice([1, 2, 3, 6]))
                elif i["type"] == "hex" and not i["required"] and rng.random() < 0.3:
                    near = rng.choice(pool[:8])
                    case[i["id"]] = [near] if i["multiple"] else near
            out.append(case)
        return out
    out.append(dict(base))
    # strengths: a sweep of attack against defence
    if {"attack", "defence"} <= ids:
        att = next(i for i in inputs if i["id"] == "attack")
        for a, d in itertools.product((0, 1, 2, 3, 5, 7, 9, 12, 16, 21, 30, 90), (1, 3, 4, 7)):
            case = dict(base, attack=str(a) if not att["multiple"] else f"{a}", defence=str(d))
            out.append(case)
        if att["multiple"]:
            out.append(dict(base, attack="50, 45", defence="9"))
            out.append(dict(base, attack="12, 7, 3", defence="120"))
    for i in inputs:
        iid = i["id"]
        if iid in ("attack", "defence"):
            continue
        if i["type"] == "int":
            vals = _int_values(i)
            if i["multiple"]:
                vals = vals[:6]
            for v in vals:
                out.append(dict(base, **{iid: str(v)}))
        elif i["type"] == "bool":
            out.append(dict(base, **{iid: True}))
        elif i["type"] == "choice":
            for c in i["choices"]:
                out.append(dict(base, **{iid: [c["value"]] if i["multiple"] else c["value"]}))
            if i["multiple"] and len(i["choices"]) > 1:
                out.append(dict(base, **{iid: [c["value"] for c in i["choices"]]}))
        elif i["type"] == "hex":
            pool = hexes.get("terrain", [])[:6]
            if iid == "attacker_hexes":
                continue
            for h in pool:
                out.append(dict(base, **{iid: [h] if i["multiple"] else h}))
            if iid == "hex" and "attacker_hexes" in ids:
                for a, d in hexes.get("sides", []):
                    out.append(dict(base, hex=d, attacker_hexes=[a]))
                    out.append(dict(base, hex=a, attacker_hexes=[d]))
    out += _linked(game, ids, base, hexes,
                   any(i["id"] == "attack" and i["multiple"] for i in inputs), inputs)
    # a few combinations of the optional inputs, seeded so the cases are the same every run
    rng = random.Random(sum(map(ord, calc["id"])))
    optional = [i for i in inputs if not i["required"] and i["type"] in ("bool", "int", "choice")]
    for _ in range(12 if optional else 0):
        case = dict(base)
        if {"attack", "defence"} <= ids:
            case["attack"] = str(rng.choice(STRENGTHS[1:]))
            case["defence"] = str(rng.choice((2, 3, 5, 8)))
        for i in rng.sample(optional, min(3, len(optional))):
            if i["type"] == "bool":
                case[i["id"]] = True
            elif i["type"] == "int":
                case[i["id"]] = str(rng.choice(_int_values(i)[:6]))
            else:
                picks = rng.sample(i["choices"], min(2, len(i["choices"])))
                case[i["id"]] = [c["value"] for c in picks] if i["multiple"] else picks[0]["value"]
        out.append(case)
    seen, unique = set(), []
    for c in out:
        key = repr(sorted(c.items()))
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def _linked(game, ids: set, base: dict, hexes: dict, several_attacks: bool = True,
            inputs: list[dict] = ()) -> list[dict]:
    """Inputs that only mean something together: sectors attacked from, fire first, hexsides."""
    out = []
    if {"attacker_sectors", "sector"} <= ids:
        for a, b in list(game.map.adjacent)[:5]:
            out.append(dict(base, attack="12", defence="4", sector=b, attacker_sectors=[a]))
        a, b = game.map.adjacent[0]
        out.append(dict(base, attack="30, 9", defence="6", sector=b, attacker_sectors=[a, a]))
    if {"mg", "mg_roll"} <= ids:
        for mg in ("3", "6", "9"):
            for r in (None, "2", "7", "12"):
                case = dict(base, attack="20", defence="4", mg=mg)
                if r:
                    case["mg_roll"] = r
                out.append(case)
    if {"distance", "range"} <= ids:  # a fire group, unit by unit (firepower and its kin)
        fp = next(i["id"] for i in inputs if i["type"] == "int" and i["required"])
        for fps, dist, rng in (("6,6,4", "1,5,3", "4,4,10"), ("3,4", "6,2", "4,4"),
                               ("6", "9", "4"), ("12,8", "3,2", "4,6"), ("1", "1", "4"),
                               ("6,6", "4,5", "4,4"), ("6,6", "4", "4,4")):
            out.append(dict(base, **{fp: fps, "distance": dist, "range": rng}))
        if "firer_hexes" in ids and game.is_hex:
            for a, b in hexes.get("sides", [])[:3]:
                out.append(dict(base, **{fp: "5,4", "firer_hexes": [a, b], "hex": b,
                                         "range": "4,2"}))
    if {"attacker_hexes", "hex"} <= ids and game.is_hex:
        grid = game.grid
        for a, d in hexes.get("sides", [])[:5]:
            out.append(dict(base, attack="9", defence="3", hex=d, attacker_hexes=[a]))
            other = next((grid.label(n) for n in grid.neighbours(game.hex(d)) if grid.label(n) != a), None)
            if other:
                if several_attacks:  # one value per attacker hex (ratio tables)
                    out.append(dict(base, attack="7, 5", defence="3", hex=d,
                                    attacker_hexes=[a, other]))
                out.append(dict(base, attack="11", defence="3", hex=d, attacker_hexes=[a, other]))
    return out


def _rolls(calc: dict, inputs: dict) -> list:
    dice = calc.get("dice") or ""
    if not dice:
        return [None]
    n, sides = (int(x) for x in dice.split("d"))
    totals = list(range(n, n * sides + 1))
    markers = int(inputs.get("markers") or 1)
    if markers > 1:
        return [None] + [",".join(map(str, combo)) for combo in itertools.product(totals, repeat=markers)]
    return [None] + [str(t) for t in totals] + (["3,4"] if n == 2 else [])


def cases(game, limit_per_calc: int = 600) -> list[tuple[str, dict, object]]:
    """Every calculator's cases: each set of inputs for the odds, and rolls on them (every roll
    on the first few, two chosen ones on the rest), so all inputs get their turn."""
    hexes = _hexes(game)
    out = []
    for calc in api.list_calculators(game):
        rng = random.Random(sum(map(ord, calc["id"])) + 1)
        mine = []
        for k, inputs in enumerate(_variants(game, calc, hexes)):
            rolls = _rolls(calc, inputs)
            if k >= 6 and len(rolls) > 3:
                rolls = [None] + rng.sample(rolls[1:], 2)
            mine += [(calc["id"], inputs, roll) for roll in rolls]
        out += mine[:limit_per_calc]
    return out


def python_answer(game, calc_id: str, inputs: dict, roll) -> dict:
    """The API's answer as the comparable part of its JSON, or the error."""
    try:
        d = api.calculate(game, calc_id, inputs, roll).to_dict()
    except ValueError as exc:  # CalcError, or a bad roll / hex
        return {"error": str(exc)}
    return comparable(d)


def comparable(d: dict) -> dict:
    """What both engines must agree on: results, columns, exact odds, expected values."""
    if "error" in d:
        return {"error": True}
    return {
        "result": d["result"],
        "column": d["column"],
        "roll": d["roll"],
        "numbers": d.get("numbers") or {},
        "distribution": [(x["result"], x["probability"], sorted((x.get("numbers") or {}).items()))
                         for x in d["distribution"]],
        "expected": {k: v["value"] for k, v in (d.get("expected") or {}).items()},
        "columns": [(c["column"], c["probability"]) for c in d.get("columns") or []],
        "unused": [(u["input"], repr(u["value"]), u["text"]) for u in d.get("unused") or []],
    }
