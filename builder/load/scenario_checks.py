"""Scenario consistency: every unit accounted for once, set-ups inside their regions,
reinforcements entering at entry hexes. Run after the reference checks (builder.load.checks)."""

from __future__ import annotations

from collections import defaultdict

from builder.geometry.hexid import HexId, parse_hex
from builder.load.checks import UNREADABLE, Checker


def check(c: Checker, scenarios) -> None:
    """Add a problem for every unit placed nowhere, placed twice, outside its region, or
    entering where the map has no entry hex for it."""
    for scenario, (src, setup_path, named) in scenarios:
        _accounting(c, scenario, src, setup_path, named)
        _withdrawals(c, scenario, src, setup_path)
        _faces_and_codes(c, scenario, setup_path)
        if c.g.is_hex:
            _regions(c, scenario, setup_path)
            _entries(c, scenario, src)


def _accounting(c: Checker, sc, src, setup_path, named: set) -> None:
    """Each unit of counters.csv: set up, a reinforcement, or declared not in play; once per copy."""
    g = c.g
    setup: dict[str, list] = defaultdict(list)
    for p in sc.setup:
        setup[p.unit].append(p)
    arrivals: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(sc.reinforcements):
        arrivals[r.unit].append(i)
    raw = src.data.get("reinforcements")
    written = {r.get("unit") for r in raw if isinstance(r, dict)} if isinstance(raw, list) else set()
    out = set(sc.not_in_play)
    rel_setup = setup_path.name
    for i, uid in enumerate(sc.not_in_play):
        if uid not in g.unit_by_id and uid not in c.counter_ids:
            c.e.add(src.path, src.where(("not_in_play", i)), f"unknown unit '{uid}' in not_in_play",
                    "use a unit id from counters.csv")
    for u in g.units:
        placed, entering = setup.get(u.id, []), arrivals.get(u.id, [])
        if u.id in out:
            if placed or entering:
                c.e.add(src.path, src.where(("not_in_play",)),
                        f"'{u.id}' is declared not in play but is "
                        + (f"set up ({rel_setup} line {placed[0].line})" if placed
                           else f"a reinforcement (reinforcements[{entering[0]}])"),
                        "remove it from not_in_play, or remove its placement")
            continue
        if not placed and not entering:
            if u.id in named or u.id in written or UNREADABLE in named:
                continue  # its row has a problem of its own, reported already
            c.e.add(setup_path, "", f"unit '{u.id}' ({u.unit}) is placed nowhere in scenario "
                    f"'{sc.id}': not set up, not a reinforcement",
                    f"add a row to {rel_setup} (a hex, 'box:<id>' or 'turn:<n>'), a [[reinforcements]] "
                    f"entry to {src.path.name}, or add '{u.id}' to not_in_play in {src.path.name}")
        elif any(sc.reinforcements[i].returns for i in entering):
            if not placed:
                i = next(i for i in entering if sc.reinforcements[i].returns)
                c.e.add(src.path, src.where(("reinforcements", i, "returns")),
                        f"'{u.id}' returns, but it is not set up in {rel_setup}",
                        "set it up, or remove returns = true if it enters for the first time")
        elif placed and entering:
            p, i = placed[0], entering[0]
            c.e.add(src.path, src.where(("reinforcements", i, "unit")),
                    f"'{u.id}' is both set up ({rel_setup} line {p.line}, at {p.at}) and a "
                    f"reinforcement (reinforcements[{i}]): the module would place it twice",
                    "list it once: a unit waiting in a box to enter is a reinforcement with box = "
                    f"\"<id>\"; remove line {p.line} of {rel_setup} or the reinforcement")
        elif len(entering) + len(placed) > u.copies and not placed:
            c.e.add(src.path, src.where(("reinforcements", entering[u.copies], "unit")),
                    f"'{u.id}' arrives {len(entering)} times but has {u.copies} "
                    f"cop{'ies' if u.copies != 1 else 'y'}", "raise its copies or remove a reinforcement")


def _withdrawals(c: Checker, sc, src, setup_path) -> None:
    """A withdrawn unit is in play by then (set up, or arrived on an earlier turn), once."""
    setup = {p.unit for p in sc.setup}
    arrives = {}
    for r in sc.reinforcements:
        if not r.returns:
            arrives.setdefault(r.unit, r)
    seen: dict[str, int] = {}
    for i, w in enumerate(sc.withdrawals):
        if w.unit not in c.g.unit_by_id:
            continue  # reported as unknown already
        if w.unit in seen:
            c.e.add(src.path, src.where(("withdrawals", i, "unit")),
                    f"'{w.unit}' is withdrawn twice (withdrawals[{seen[w.unit]}] and [{i}])",
                    "keep one withdrawal; an earlier reason goes in its condition")
            continue
        seen[w.unit] = i
        if w.unit in sc.not_in_play:
            c.e.add(src.path, src.where(("withdrawals", i, "unit")),
                    f"'{w.unit}' is withdrawn but declared not in play", "remove one of the two")
        elif w.unit not in setup and w.unit not in arrives:
            c.e.add(src.path, src.where(("withdrawals", i, "unit")),
                    f"'{w.unit}' is withdrawn on turn {w.turn} but is neither set up in "
                    f"{setup_path.name} nor a reinforcement", "set it up, or remove the withdrawal")
        elif w.unit not in setup:
            r = arrives[w.unit]
            if r.turn is not None and r.turn > w.turn:
                c.e.add(src.path, src.where(("withdrawals", i, "turn")),
                        f"'{w.unit}' is withdrawn on turn {w.turn} but arrives on turn {r.turn}",
                        "withdraw it on or after its arrival turn")
            elif r.turn is not None and r.turn == w.turn and w.when == "start":
                c.e.add(src.path, src.where(("withdrawals", i, "when")),
                        f"'{w.unit}' arrives and is withdrawn as turn {w.turn} begins",
                        "withdraw it at the end of the turn (when = \"end\") or later")


def _region_hexes(c: Checker) -> dict[str, set[HexId]]:
    g = c.g
    return {r.id: set(g.hexes(r.hexes)) for r in g.map.regions}


def _hex(c: Checker, text: str) -> HexId | None:
    """The hex a location names, or None for a box, a turn, 'off-map' or a bad number."""
    m = c.g.map
    if text == "off-map" or text.startswith(("box:", "turn:")):
        return None
    try:
        h = parse_hex(text, m.column_digits, m.row_digits)
    except ValueError:
        return None
    return h if c.g.grid.contains(h) else None


def _regions(c: Checker, sc, setup_path) -> None:
    """A placement with a region starts inside it (at and every alternative)."""
    regions = None
    for p in sc.setup:
        if not p.region:
            continue
        regions = regions if regions is not None else _region_hexes(c)
        inside = regions.get(p.region)
        if inside is None:
            continue  # an unknown region, reported by the reference checks
        for col, text in [("at", p.at)] + [("also", a) for a in p.also]:
            h = _hex(c, text)
            if h is not None and h not in inside:
                c.e.add(setup_path, f"line {p.line}, column '{col}'",
                        f"'{p.unit}' sets up at {text}, outside its region '{p.region}'",
                        f"choose a hex inside '{p.region}' (map.toml [[regions]]), or correct the region")


def entry_hexes(game, side: str) -> set[HexId] | None:
    """The hexes a side's reinforcements may enter at (map.toml [[edges]] kind = 'entry'); a
    whole edge counts the hexes along it. None when the map gives the side no entry edge."""
    from builder.render.map_frame import GEO, orientation

    found: set[HexId] | None = None
    grid = game.grid
    centres: dict = {}  # every hex's centre, measured once (a campaign map has 34,000)
    for e in game.map.edges:
        if e.kind != "entry" or (e.side and side and e.side != side):
            continue
        found = found or set()
        if e.hexes:
            found.update(game.hexes(e.hexes))
            continue
        printed = (GEO.index(e.edge) + orientation(game)) % 4  # top, right, bottom, left
        centres = centres or {h: grid.center_mm(h) for h in grid.all_hexes()}
        axis = 1 if printed in (0, 2) else 0
        values = [xy[axis] for xy in centres.values()]
        extreme = min(values) if printed in (0, 3) else max(values)
        near = grid.hex_mm * (0.6 if axis == 1 else 0.5)
        found.update(h for h, xy in centres.items() if abs(xy[axis] - extreme) <= near)
    return found


def _entries(c: Checker, sc, src) -> None:
    """Every hex a reinforcement enters at is an entry hex of its side, unless it says why not."""
    g = c.g
    cache: dict[str, set | None] = {}
    for i, r in enumerate(sc.reinforcements):
        if r.entry_exception:
            continue
        unit = g.unit_by_id.get(r.unit)
        side = unit.side if unit else ""
        if side not in cache:
            cache[side] = entry_hexes(g, side)
        allowed = cache[side]
        for j, text in enumerate(r.at):
            h = _hex(c, text)
            if h is None or (allowed is not None and h in allowed):
                continue
            if allowed is None:
                msg = f"'{r.unit}' enters at {text}, but map.toml gives side '{side}' no entry edge"
                fix = (f"add [[edges]] with kind = \"entry\" and side = \"{side}\" to map.toml, or say "
                       "why it enters there with entry_exception = \"...\"")
            else:
                shown = ", ".join(sorted(g.grid.label(x) for x in allowed)[:8])
                msg = (f"'{r.unit}' enters at {text}, which is not an entry hex of side '{side}' "
                       f"(entry hexes: {shown}{' ...' if len(allowed) > 8 else ''})")
                fix = ("use an entry hex, add the hex to the side's [[edges]] kind = \"entry\" in "
                       "map.toml, or say why it enters there with entry_exception = \"...\"")
            c.e.add(src.path, src.where(("reinforcements", i, "at", j)), msg, fix)


def _faces_and_codes(c: Checker, sc, setup_path) -> None:
    """A counter set up on its back has one; a map code stands in a hex."""
    g = c.g
    for p in sc.setup:
        item = g.unit_by_id.get(p.unit) or g.marker_by_id.get(p.unit)
        if p.face == "back" and item is not None and not item.back:
            c.e.add(setup_path, f"line {p.line}, column 'face'", f"'{p.unit}' has no back to set up on",
                    "leave face empty (front), or give the counter a back in its CSV file")
        if p.code and (not g.is_hex or _hex(c, p.at) is None):
            c.e.add(setup_path, f"line {p.line}, column 'code'", f"a map code needs a hex, but '{p.unit}' "
                    f"sets up at '{p.at}'", "leave code empty, or set it up in a hex")
