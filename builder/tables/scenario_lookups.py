"""Scenario lookups: the facts of a scenario players look up, as calculators made from its data.

    start   where a unit starts: its set-up place (and the choices the rules allow), or when and
            where it enters, or that the scenario leaves it out; and when it leaves
    setup   what starts in a hex, sector, box or region
    turn    what a turn brings: arrivals, withdrawals, replacements and rebuilds, track values
            (support-fire draws, bombardment allotments), deck draws, units that may enter

Each answer is a list of sentences (the working) and a short result; `builder calc`, the aid (whose
engine receives the answers, worked out here) and the module's turn chat line say the same facts.
"""

from __future__ import annotations

from fractions import Fraction

from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome

NAMES = {
    "start": "Where a unit starts",
    "setup": "What starts in a place",
    "turn": "What a turn brings",
}


def _scenarios(game) -> list:
    return [sc for sc in game.scenarios if sc.setup or sc.reinforcements]


def has(game, calc_id: str) -> bool:
    return calc_id in NAMES and calc_id not in game.table_by_id and bool(_scenarios(game))


def calculators(game) -> list[dict]:
    return [{"id": k, "name": v, "kind": "scenario", "source": "", "dice": "", "assumed": []}
            for k, v in NAMES.items() if has(game, k)]


# --- names a player reads ------------------------------------------------------------------
def piece_name(game, piece_id: str) -> str:
    """'413/104 infantry regiment (5-7-5, Allied)', or a marker's name."""
    u = game.unit_by_id.get(piece_id)
    if u is not None:
        kind = " ".join(x for x in (u.type.replace("-", " "), u.size) if x)
        side = game.sides[u.side].name if u.side in game.sides else u.side
        return f"{u.unit} {kind} ({', '.join(x for x in (u.front, side) if x)})"
    m = game.marker_by_id.get(piece_id)
    return m.name if m is not None else piece_id


def place_name(game, at: str) -> str:
    """'1534 (Petit Vimy)', 'the German Reserves box', 'Bloc 1', 'turn 3 on the turn track'."""
    at = at.strip()
    if at == "off-map":
        return "off the map"
    if at.startswith("box:"):
        box = next((b for b in game.info.boxes if b.id == at[4:]), None)
        name = box.name if box else at[4:]
        return f"the {name}" + ("" if name.lower().endswith("box") else " box")
    if at.startswith("turn:"):
        return f"turn {at[5:]} on the turn track"
    if not game.is_hex:
        s = game.sector_by_id.get(at)
        return s.name if s else at
    label = game.grid.label(game.hex(at))
    named = next((o.name for o in game.map.objectives if o.hex == label and o.name), "") or next(
        (lab.text for lab in game.map.labels if lab.hex == label), "")
    return f"{label} ({named})" if named else label


def _region_name(game, region_id: str) -> str:
    return next((r.name for r in getattr(game.map, "regions", ()) if r.id == region_id), region_id)


def turn_set(game, text: str) -> set[int]:
    """An allowance's turns as numbers: '1-10', '3', '1-5, 8', 'night', 'all'."""
    first = game.info.turns.first
    every = set(range(first, first + game.info.turns.count))
    text = text.strip().lower()
    if text == "night":
        return {d.number for d in game.info.turns.detail if d.night}
    if text in ("", "all", "every turn"):
        return every
    out: set[int] = set()
    for part in text.split(","):
        a, _, b = part.strip().partition("-")
        if a.strip().isdigit():
            out.update(range(int(a), int(b if b.strip().isdigit() else a) + 1))
    return out


def _turns(game, sc) -> tuple[int, int]:
    first = sc.turns[0] if sc.turns else game.info.turns.first
    last = sc.turns[1] if sc.turns else game.info.turns.first + game.info.turns.count - 1
    return first, last


# --- the inputs ------------------------------------------------------------------------------
def _scenario_spec(game) -> list[InputSpec]:
    scs = _scenarios(game)
    if len(scs) < 2:
        return []
    return [InputSpec("scenario", "scenario", "choice", required=True,
                      choices=tuple(Choice(sc.id, sc.name) for sc in scs))]


def _pieces(game) -> list[str]:
    """Every unit and marker a scenario places or brings on, in counters.csv order."""
    named = {p.unit for sc in _scenarios(game) for p in sc.setup}
    named |= {r.unit for sc in _scenarios(game) for r in sc.reinforcements}
    ids = [u.id for u in game.units] + [m.id for m in game.markers]
    return [i for i in ids if i in named]


def inputs(game, calc_id: str) -> list[InputSpec]:
    """The inputs of one scenario lookup."""
    specs = _scenario_spec(game)
    if calc_id == "start":
        return specs + [InputSpec("unit", "the unit (or marker)", "choice", required=True,
                                  choices=tuple(Choice(i, piece_name(game, i))
                                                for i in _pieces(game)))]
    if calc_id == "turn":
        first = game.info.turns.first
        return specs + [InputSpec("turn", "game turn", "int", required=True, min=first,
                                  max=first + game.info.turns.count - 1)]
    out = list(specs)
    if game.is_hex:
        out.append(InputSpec("hex", "a hex", "hex"))
    else:
        out.append(InputSpec("sector", "a sector", "choice",
                             choices=tuple(Choice(s.id, s.name) for s in game.map.sectors)))
    boxes = [b for b in game.info.boxes]
    if boxes:
        out.append(InputSpec("box", "a box", "choice",
                             choices=tuple(Choice(b.id, b.name) for b in boxes)))
    regions = list(getattr(game.map, "regions", ()))
    if regions:
        out.append(InputSpec("region", "a region of the map", "choice",
                             choices=tuple(Choice(r.id, r.name) for r in regions)))
    return out


# --- the answers -----------------------------------------------------------------------------
def calculate(game, calc_id: str, values: dict, roll) -> Calculation:
    """Answer a scenario lookup."""
    if roll is not None:
        raise CalcError(f"{calc_id} has no roll: leave out --roll")
    scs = _scenarios(game)
    sc = next(s for s in scs if s.id == values.get("scenario")) if len(scs) > 1 else scs[0]
    calc = Calculation(game=game.slug, table=calc_id, name=NAMES[calc_id], kind="scenario",
                       inputs={k: (game.grid.label(v) if hasattr(v, "col") else v)
                               for k, v in values.items()},
                       given=[k for k, v in values.items() if v not in (None, False, [])])
    if len(scs) > 1:
        calc.step(f"scenario: {sc.name}")
    if calc_id == "start":
        _start(game, sc, values["unit"], calc)
    elif calc_id == "turn":
        _turn(game, sc, values["turn"], calc)
    else:
        _setup(game, sc, values, calc)
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc


def _placement_text(game, p) -> str:
    where = place_name(game, p.at)
    if p.also:
        where += " or " + " or ".join(place_name(game, a) for a in p.also)
    if p.within:
        where += f", or within {p.within} hex{'es' if p.within > 1 else ''} of "
        where += "them" if p.also else "it"
    if p.region:
        where += f"; anywhere in {_region_name(game, p.region)}"
    if p.face == "back":
        where += ", on its back (reduced)"
    if p.instruction:
        where += f" ({p.instruction})"
    return where


def _start(game, sc, unit: str, calc: Calculation) -> None:
    name = piece_name(game, unit)
    if isinstance(sc, _Indexed):
        places, arrivals = sc.of("setup", unit), sc.of("reinforcements", unit)
        leaving = sc.of("withdrawals", unit)
    else:
        places = [p for p in sc.setup if p.unit == unit]
        arrivals = [r for r in sc.reinforcements if r.unit == unit]
        leaving = [w for w in sc.withdrawals if w.unit == unit]
    short = ""
    said: list[str] = []
    for p in places:
        said.append(f"{name} sets up in {_placement_text(game, p)}"
                    + (f" ({p.source})" if p.source else ""))
        calc.step(said[-1])
        short = short or place_name(game, p.at)
    for r in arrivals:
        where = " or ".join(place_name(game, a) for a in r.at)
        verb = "comes back" if r.returns else "enters"
        text = (f"{name} {verb} on turn {r.turn}" if r.turn is not None
                else f"{name} may {'come back' if r.returns else 'enter'}")
        text += (f" at {where}" if where else "") + (
            f", waiting in {place_name(game, 'box:' + r.box)}" if r.box else "")
        if r.condition:
            text += f": {r.condition}" if r.turn is None else f" ({r.condition})"
        said.append(text + (f" ({r.source})" if r.source else ""))
        calc.step(said[-1])
        short = short or (f"turn {r.turn}" if r.turn is not None else "reinforcement")
    for w in leaving:
        if w.unit == unit:
            box = next((b.name for b in game.info.boxes if b.id == w.box), "Withdrawn")
            calc.step(f"{name} leaves at the {w.timing()}, to the {box}"
                      + ("" if box.lower().endswith("box") else " box")
                      + (f"; or earlier: {w.condition}" if w.condition else "")
                      + (f" ({w.source})" if w.source else ""))
    if not places and not arrivals:
        said = (f"{name} is not used in {sc.name}" if unit in sc.not_in_play
                else f"{name} is neither set up nor brought on in {sc.name}")
        calc.step(said)
        calc.outcome = Outcome("not in play", said)
        return
    calc.outcome = Outcome(short, said[0])


def _setup(game, sc, values: dict, calc: Calculation) -> None:
    given = [k for k in ("hex", "sector", "box", "region") if values.get(k) is not None]
    if len(given) > 1:
        raise CalcError("give one place: " + ", ".join(
            k for k in ("hex", "sector", "box", "region") if k in values) + " (one of them)")
    if not given:  # no place named: the whole set-up, place by place
        for p in sc.setup:
            calc.step(f"{piece_name(game, p.unit)}: {_placement_text(game, p)}")
        n = len(sc.setup)
        calc.outcome = Outcome(f"{n} piece{'s' if n != 1 else ''}", f"the set-up of {sc.name}")
        return
    key = given[0]
    v = values[key]
    if key == "region":
        region = next(r for r in game.map.regions if r.id == v)
        inside = set(game.hexes(region.hexes))
        found = [p for p in sc.setup if p.region == v or (
            game.is_hex and _is_hex(game, p.at) and game.hex(p.at) in inside)]
        where = region.name
    else:
        at = {"hex": lambda: game.grid.label(v), "sector": lambda: v,
              "box": lambda: f"box:{v}"}[key]()
        same = (lambda x: _is_hex(game, x) and game.grid.label(game.hex(x)) == at) \
            if key == "hex" else (lambda x: x == at)
        found = [p for p in sc.setup if same(p.at)]
        also = [p for p in sc.setup if p not in found and any(same(a) for a in p.also)]
        where = place_name(game, at)
        for p in also:
            calc.step(f"{piece_name(game, p.unit)} may set up here: {_placement_text(game, p)}")
        enter = [r for r in sc.reinforcements if any(same(a) for a in r.at)
                 or (key == "box" and r.box == v)]
        for r in enter:
            verb = "waits here to enter" if key == "box" and r.box == v else "enters here"
            calc.step(f"{piece_name(game, r.unit)} {verb}"
                      + (f" on turn {r.turn}" if r.turn is not None else f": {r.condition}"))
    for p in found:
        calc.step(f"{piece_name(game, p.unit)}: {_placement_text(game, p)}")
    if not calc.steps or all(s.startswith("scenario: ") for s in calc.steps):
        calc.step(f"nothing is set up in {where} in {sc.name}")
    n = len(found)
    calc.outcome = Outcome(f"{n} piece{'s' if n != 1 else ''}" if n else "nothing",
                           f"set up in {where}")


def _is_hex(game, at: str) -> bool:
    if not game.is_hex or at.startswith(("box:", "turn:")) or at == "off-map":
        return False
    try:
        return game.grid.contains(game.hex(at))
    except ValueError:
        return False


def _turn(game, sc, n: int, calc: Calculation) -> None:
    first, last = _turns(game, sc)
    detail = next((d for d in game.info.turns.detail if d.number == n), None)
    title = f"turn {n}" + (f" ({detail.name})" if detail is not None and detail.name
                           and detail.name != str(n) else "")
    if detail is not None and detail.night:
        title += ", a night turn"
    if detail is not None and detail.period and detail.period.lower() not in title.lower():
        title += f", {detail.period}"
    calc.step(title)
    if not first <= n <= last:
        calc.step(f"{sc.name} is played on turns {first} to {last}: turn {n} is not played")
        calc.outcome = Outcome("not played", f"{sc.name}: turns {first} to {last}")
        return
    counts = {"arrive": 0, "leave": 0}
    for r in sc.reinforcements:
        if r.turn == n:
            where = " or ".join(place_name(game, a) for a in r.at)
            calc.step(f"{piece_name(game, r.unit)} {'comes back' if r.returns else 'enters'}"
                      + (f" at {where}" if where else "")
                      + (f" ({r.condition})" if r.condition else "")
                      + (f" ({r.source})" if r.source else ""))
            counts["arrive"] += 1
    for w in sc.withdrawals:
        if w.turn == n:
            box = next((b.name for b in game.info.boxes if b.id == w.box), "Withdrawn")
            calc.step(f"{piece_name(game, w.unit)} leaves at the {w.when} of the turn, to the "
                      + box + ("" if box.lower().endswith("box") else " box")
                      + (f" ({w.source})" if w.source else ""))
            counts["leave"] += 1
    sides = {s.id: s.name for s in game.info.sides}
    decks = {d.id: d.name for d in game.info.decks}
    for a in sc.allowances:
        if n in turn_set(game, a.turns):
            calc.step(f"{sides.get(a.side, a.side)} {a.kind}s: {a.count}"
                      + (f" ({a.source})" if a.source else ""))
    drawn = {d.count.split()[-1]: d for d in sc.draws if d.count.startswith("per track ")}
    for tr in sc.tracks:
        i = n - first
        if 0 <= i < len(tr.per_turn) and tr.per_turn[i] is not None:
            d = drawn.get(tr.id)
            calc.step((f"{decks.get(d.deck, d.deck)}: draw {tr.per_turn[i]} ({d.when})" if d
                       else f"{tr.name}: {tr.per_turn[i]}") + (f" ({tr.source})" if tr.source else ""))
    for d in sc.draws:
        if d.count.startswith("per track ") and d.count.split()[-1] in {t.id for t in sc.tracks}:
            continue
        calc.step(f"{decks.get(d.deck, d.deck)}: draw {d.count} ({d.when})")
    # a conditional arrival is listed from its first possible turn (16.1: turn 12 or later)
    waiting = [r for r in sc.reinforcements
               if r.turn is None and (r.earliest is None or n >= r.earliest)]
    if waiting:
        groups: dict[str, list[str]] = {}
        for r in waiting:
            groups.setdefault(r.condition, []).append(piece_name(game, r.unit))
        for condition, names in groups.items():
            calc.step(f"{', '.join(names)} may enter" + (f": {condition}" if condition else ""))
    parts = []
    if counts["arrive"]:
        parts.append(f"{counts['arrive']} arrive{'s' if counts['arrive'] == 1 else ''}")
    if counts["leave"]:
        parts.append(f"{counts['leave']} leave{'s' if counts['leave'] == 1 else ''}")
    calc.outcome = Outcome(", ".join(parts) or "no arrivals", title)


def start_lines(game) -> dict[str, list[str]]:
    """Where each unit starts in each scenario that uses it, as the module's chat says it: its
    set-up or arrival, and its withdrawal ('The Landing: ...' when there are several). One pass
    over each scenario, so a campaign's thousands of units cost no more than their rows."""
    out: dict[str, list[str]] = {}
    scs = _scenarios(game)
    for sc in scs:
        named = {p.unit for p in sc.setup} | {r.unit for r in sc.reinforcements}
        view = _Indexed(sc)
        for unit in sorted(named):
            calc = Calculation(game=game.slug, table="start", name=NAMES["start"],
                               kind="scenario")
            _start(game, view, unit, calc)
            text = "; ".join(calc.steps)
            out.setdefault(unit, []).append(f"{sc.name}: {text}" if len(scs) > 1 else text)
    return out


class _Indexed:
    """A scenario whose set-up, arrivals and withdrawals are looked up by unit (the lists a
    lookup of one unit scans, grouped once for many)."""

    def __init__(self, sc):
        self.name, self.not_in_play = sc.name, sc.not_in_play
        self._by = {}
        for key, items in (("setup", sc.setup), ("reinforcements", sc.reinforcements),
                           ("withdrawals", sc.withdrawals)):
            group: dict[str, list] = {}
            for x in items:
                group.setdefault(x.unit, []).append(x)
            self._by[key] = group
        self.unit = None

    def of(self, key: str, unit: str) -> list:
        return self._by[key].get(unit, [])


# --- the aid's engine: every answer worked out here --------------------------------------------
def engine_data(game) -> dict:
    """Each lookup's answers by input, for the aid's engine: {calc: {key: answer}} where key is
    'scenario|value' ('' for the scenario when there is one)."""
    from builder import mapinfo
    from builder.tables.inputs import resolve

    out: dict[str, dict] = {"scenarios": {sc.id: sc.name for sc in _scenarios(game)}}
    scs = _scenarios(game)
    keys = [sc.id for sc in scs] if len(scs) > 1 else [""]
    for calc_id in NAMES:
        if not has(game, calc_id):
            continue
        answers: dict[str, dict] = {}
        specs = {s.id: s for s in inputs(game, calc_id)}
        for sk in keys:
            base = {"scenario": sk} if sk else {}
            if calc_id == "setup":  # no place named: the whole set-up
                c = calculate(game, calc_id, resolve(list(specs.values()), base), None)
                answers[f"{sk}|"] = {"steps": c.steps, "result": c.outcome.result,
                                     "meaning": c.outcome.meaning}
            for name, value in _answerable(game, calc_id, specs, sk):
                values = resolve(list(specs.values()), {**base, name: value},
                                 lambda text: mapinfo.parse_hex(game, text))
                c = calculate(game, calc_id, values, None)
                answers[f"{sk}|{name}={value}"] = {
                    "steps": c.steps, "result": c.outcome.result, "meaning": c.outcome.meaning}
        out[calc_id] = answers
    return out


def _answerable(game, calc_id: str, specs: dict, scenario: str) -> list[tuple[str, str]]:
    """The input values whose answers the aid holds (a hex not listed: nothing set up there)."""
    if calc_id == "start":
        return [("unit", c.value) for c in specs["unit"].choices]
    if calc_id == "turn":
        return [("turn", str(n)) for n in range(specs["turn"].min, specs["turn"].max + 1)]
    out = []
    for key in ("sector", "box", "region"):
        if key in specs:
            out += [(key, c.value) for c in specs[key].choices]
    if "hex" in specs:
        scs = _scenarios(game)
        sc = next(s for s in scs if s.id == scenario) if scenario else scs[0]
        hexes = {game.grid.label(game.hex(a)) for p in sc.setup for a in (p.at, *p.also)
                 if _is_hex(game, a)}
        hexes |= {game.grid.label(game.hex(a)) for r in sc.reinforcements for a in r.at
                  if _is_hex(game, a)}
        # a named hex is said with its name: held too, so the page need not name places
        hexes |= {o.hex for o in game.map.objectives if o.name} | {lab.hex for lab in game.map.labels}
        out += [("hex", h) for h in sorted(hexes)]
    return out
