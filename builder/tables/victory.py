"""Victory as data: the calculator each scenario's victory conditions make.

A scenario states its victory once (scenarios/<id>.toml): what is counted (places held, units in
a box or region, weighed or summed, numbers only the players can count), the victory points each
scores (halves allowed), results a count decides by itself (instant and automatic wins, with
provisos) and the levels the total is read on (victory_table) or the standing otherwise
(victory_default). `builder calc GAME victory` and the aid's victory calculator take the counts
as inputs and work the standing out; the module's Victory button (builder.vassal.victory) counts
the same definitions on the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome
from builder.tables.rounding import WORDS, round_to_int, show

CALC_ID = "victory"
NAME = "Victory"


@dataclass(frozen=True)
class PlaceVP:
    """A place a count holds: its id (hex as printed or sector id), name and victory points."""

    id: str
    name: str
    vp: Fraction


def frac(value) -> Fraction:
    """A vp or weight as an exact fraction (0.5 -> 1/2)."""
    return Fraction(str(value))


def points(value: Fraction) -> str:
    """'+2 VP', '-0.5 VP', '0 VP'."""
    return ("+" if value > 0 else "") + show(value) + " VP"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "x"


def scenarios(game) -> list:
    """The scenarios that state a victory the calculator can work out."""
    return [sc for sc in game.scenarios
            if sc.victory_counts or sc.victory_table or sc.victory_default]


def has(game, calc_id: str) -> bool:
    return calc_id == CALC_ID and calc_id not in game.table_by_id and bool(scenarios(game))


def calculators(game) -> list[dict]:
    if not has(game, CALC_ID):
        return []
    sources = sorted({part.strip() for sc in scenarios(game) for v in sc.victory_counts
                      for part in v.source.split(",") if part.strip()})
    return [{"id": CALC_ID, "name": NAME, "kind": "victory", "source": ", ".join(sources),
             "dice": "", "assumed": []}]


def places(game, v) -> list[PlaceVP]:
    """The places a 'held' count names, each with the vp it scores (the count's vp, else the
    map's: an objective's or a sector's)."""
    out = []
    for p in v.held:
        if game.is_hex:
            label = game.grid.label(game.hex(p))
            obj = next((o for o in game.map.objectives if o.hex == label and o.vp), None)
            named = next((o.name for o in game.map.objectives if o.hex == label), "") or next(
                (lab.text for lab in game.map.labels if lab.hex == label), "")
            vp = frac(v.vp) if v.vp else (frac(obj.vp) if obj else Fraction(0))
            out.append(PlaceVP(label, f"{named} ({label})" if named else label, vp))
        else:
            s = game.sector_by_id[p]
            out.append(PlaceVP(p, s.name, frac(v.vp) if v.vp else frac(s.vp)))
    return out


def starting_in(game, sc, box: str) -> list[str]:
    """Units that start the scenario in a box: set up there, or waiting there to enter."""
    ids = [p.unit for p in sc.setup if p.at == f"box:{box}"]
    ids += [r.unit for r in sc.reinforcements if r.box == box and r.unit not in ids]
    return ids


def weight_inputs(v) -> list[tuple[str, str, Fraction]]:
    """(input id, attribute value, weight) for a weighed count, heaviest first."""
    items = sorted(v.weights.items(), key=lambda kv: (-frac(kv[1]), kv[0]))
    return [(f"{v.id}-{slug(value)}", value, frac(w)) for value, w in items if frac(w)]


def count_inputs(game, sc, v) -> list[InputSpec]:
    """The inputs one count asks for."""
    src = v.source
    if v.held:
        pl = places(game, v)
        if len(pl) == 1:
            return [InputSpec(v.id, f"{v.name}: {pl[0].name} held", "bool", default=False,
                              source=src)]
        if v.all or not any(p.vp for p in pl):  # only how many counts
            return [InputSpec(v.id, f"{v.name}: how many of the {len(pl)} are held", "int",
                              min=0, max=len(pl), source=src)]
        return [InputSpec(v.id, f"{v.name}: the places held", "choice", multiple=True,
                          choices=tuple(Choice(p.id, f"{p.name}, {points(p.vp)}") for p in pl),
                          source=src)]
    if v.weigh_by:
        return [InputSpec(iid, f"{v.name}: {value} units (each counts {show(w)})", "int", min=0,
                          source=src) for iid, value, w in weight_inputs(v)]
    if v.per:
        label = f"{v.name}: the most units of one {v.per}"
    elif v.factor:
        label = f"{v.name}: their total {v.factor}"
    else:
        label = f"{v.name}: how many"
    top = len(starting_in(game, sc, v.pieces_in[4:])) if v.left else None
    return [InputSpec(v.id, label, "int", min=0, max=top, source=src)]


def inputs(game, calc_id: str = CALC_ID) -> list[InputSpec]:
    """The scenario (when several state a victory), each count, each question."""
    scs = scenarios(game)
    specs: list[InputSpec] = []
    if len(scs) > 1:
        specs.append(InputSpec("scenario", "scenario", "choice", required=True,
                               choices=tuple(Choice(sc.id, sc.name) for sc in scs)))
    seen: set[str] = set()
    for sc in scs:
        for v in sc.victory_counts:
            for s in count_inputs(game, sc, v):
                if s.id not in seen:
                    seen.add(s.id)
                    specs.append(s)
        for q, text in sc.victory_questions.items():
            if q not in seen:
                seen.add(q)
                specs.append(InputSpec(q, text, "bool", default=False))
    return specs


# --- working it out ---------------------------------------------------------------------------
def amount(game, sc, v, values: dict) -> tuple[Fraction | None, str]:
    """What a count stands at, from the inputs (None: not given), and the places or units named."""
    if v.held:
        pl = places(game, v)
        got = values.get(v.id)
        if got is None:
            return None, ""
        if isinstance(got, bool):
            return Fraction(int(got)), (pl[0].name if got else "")
        if isinstance(got, list):
            held = [p for p in pl if p.id in got]
            return Fraction(len(held)), ", ".join(f"{p.name} {points(p.vp)}" for p in held)
        return Fraction(got), ""
    if v.weigh_by:
        parts, total, known = [], Fraction(0), False
        for iid, value, w in weight_inputs(v):
            n = values.get(iid)
            if n is None:
                continue
            known = True
            total += n * w
            parts.append(f"{n} x {show(w)} ({value})")
        return (total if known else None), " + ".join(parts)
    got = values.get(v.id)
    return (None if got is None else Fraction(got)), ""


def scored(game, v, n: Fraction, values: dict, got) -> Fraction:
    """The vp a count scores at n."""
    if v.threshold is not None:
        return frac(v.vp) if n >= frac(v.threshold) else Fraction(0)
    if v.held:
        pl = places(game, v)
        if v.all:
            return frac(v.vp) if n == len(pl) else Fraction(0)
        if isinstance(got, list):
            return sum((p.vp for p in pl if p.id in got), Fraction(0))
        return n * pl[0].vp
    return n * frac(v.vp)


def decides(v, n: Fraction) -> bool:
    return ((v.at_least is None or n >= frac(v.at_least))
            and (v.at_most is None or n <= frac(v.at_most))
            and (v.at_least is not None or v.at_most is not None))


def _limit(v_or_p) -> str:
    parts = []
    if v_or_p.at_least is not None:
        parts.append(f"at least {show(frac(v_or_p.at_least))}")
    if v_or_p.at_most is not None:
        parts.append(f"at most {show(frac(v_or_p.at_most))}")
    return " and ".join(parts)


def calculate(game, calc_id: str, values: dict, roll) -> Calculation:
    """The standing the counts give: a result a count decides, else the level of the points."""
    if roll is not None:
        raise CalcError("victory has no roll: leave out --roll")
    scs = scenarios(game)
    sc = next(s for s in scs if s.id == values.get("scenario")) if len(scs) > 1 else scs[0]
    calc = Calculation(game=game.slug, table=CALC_ID, name=NAME, kind="victory",
                       inputs={k: (v if not hasattr(v, "col") else game.grid.label(v))
                               for k, v in values.items()},
                       given=[k for k, v in values.items() if v not in (None, False, [])])
    if len(scs) > 1:
        calc.step(f"scenario: {sc.name}")
    by_id = {v.id: v for v in sc.victory_counts}
    stands: dict[str, Fraction | None] = {}
    total = Fraction(0)
    scoring = False
    for v in sc.victory_counts:
        n, named = amount(game, sc, v, values)
        stands[v.id] = n
        if n is None:
            if v.vp or v.result or (v.held and any(p.vp for p in places(game, v))):
                calc.note(f"{v.name}: not given, so counted as none"
                          + (f"; it decides the game ({v.result}) when it is {_limit(v)}"
                             if v.result else "") + ".")
            continue
        got = values.get(v.id)
        vp = scored(game, v, n, values, got)
        has_vp = bool(v.vp) or (bool(v.held) and any(p.vp for p in places(game, v)))
        if has_vp:
            scoring = True
        asked = ""
        if v.only_if and has_vp and not values.get(v.only_if):
            asked = f": scores only when {_clause(sc.victory_questions[v.only_if])}"
            vp = Fraction(0)
        line = f"{v.name}: {show(n)}" + (f" ({named})" if named else "")
        if v.threshold is not None:
            line += f", {points(frac(v.vp))} at {show(frac(v.threshold))} or more"
        elif v.all:
            line += f" of {len(v.held)}, {points(frac(v.vp))} only when every one is held"
        if has_vp:
            line += asked + f" = {points(vp)}"
        if v.result:
            line += f" ({v.result} when it is {_limit(v)})"
        calc.step(line + (f" ({v.source})" if v.source else ""))
        total += vp
    if scoring:
        calc.step(f"total: {points(total)}")
    decided = None
    for v in sc.victory_counts:
        n = stands.get(v.id)
        if not v.result or n is None or not decides(v, n):
            continue
        unmet = []
        for p in v.provided:
            m = stands.get(p.count)
            if m is None or not decides(p, m):
                unmet.append((by_id[p.count], p, m))
        if unmet:
            for other, p, m in unmet:
                calc.step(f"{v.result}: only when {other.name} is {_limit(p)}"
                          + (f" (it is {show(m)})" if m is not None else " (not given)"))
            continue
        calc.step(f"{v.name} {show(n)}, {_limit(v)}: {v.result}"
                  + (f" ({v.source})" if v.source else ""))
        if decided is None:
            decided = (v, n)
        else:
            calc.note(f"{v.result} too; the first listed stands ({decided[0].result}).")
    if decided is not None:
        v, n = decided
        calc.outcome = Outcome(v.result, f"{v.name}: {show(n)}")
    else:
        calc.outcome = _level(game, sc, total, calc) if sc.victory_table else Outcome(
            sc.victory_default or "no result", f"{points(total)}" if scoring else "")
        if not sc.victory_table:
            calc.step(f"no count decides the game: {calc.outcome.result}")
    for text in sc.victory_by_hand:
        calc.note(f"Not counted here, add by hand: {text}.")
    calc.distribution = [(calc.outcome, Fraction(1))]
    return calc


def _clause(text: str) -> str:
    from builder import words

    return words.clause(text)


def _level(game, sc, total: Fraction, calc: Calculation) -> Outcome:
    """The level a total reads on the scenario's victory table (rounded as the table says)."""
    from builder.tables.lookup import entry_for

    t = game.table_by_id[sc.victory_table]
    value = total
    if total.denominator != 1 and t.rounding:
        value = Fraction(round_to_int(total, t.rounding))
        calc.step(f"{show(total)} VP rounded {WORDS[t.rounding]}: {show(value)}")
    e = entry_for(t, value, {})
    if e is None:
        calc.step(f"{t.name}: no level for {show(value)} VP")
        return Outcome("no level", f"{show(value)} VP")
    calc.step(f"{t.name}: {show(value)} VP -> {e.result}" + (f" ({t.source})" if t.source else ""))
    return Outcome(e.result, points(total) + (f": {e.detail}" if e.detail else ""))


# --- the aid's engine ------------------------------------------------------------------------
def _ftext(value) -> str | None:
    return None if value is None else str(frac(value))


def engine_data(game) -> dict:
    """The victory definitions as plain data for the aid's engine (templates/aid/engine.js), with
    the places, their points and the sentences' fixed parts worked out here."""
    out = []
    for sc in scenarios(game):
        counts = []
        for v in sc.victory_counts:
            specs = count_inputs(game, sc, v)
            pl = places(game, v) if v.held else []
            counts.append({
                "id": v.id, "name": v.name, "source": v.source, "held": bool(v.held),
                "input": specs[0].type if v.held else "int",
                "places": [[p.id, p.name, str(p.vp)] for p in pl],
                "weights": [[iid, value, str(w)] for iid, value, w in weight_inputs(v)]
                if v.weigh_by else [],
                "vp": str(frac(v.vp)), "all": v.all, "threshold": _ftext(v.threshold),
                "only_if": v.only_if, "at_least": _ftext(v.at_least),
                "at_most": _ftext(v.at_most), "result": v.result,
                "provided": [{"count": p.count, "at_least": _ftext(p.at_least),
                              "at_most": _ftext(p.at_most)} for p in v.provided],
                "has_vp": bool(v.vp) or any(p.vp for p in pl),
            })
        t = game.table_by_id.get(sc.victory_table)
        out.append({"id": sc.id, "name": sc.name, "counts": counts,
                    "table": sc.victory_table, "rounding": getattr(t, "rounding", None) or "",
                    "default": sc.victory_default, "by_hand": list(sc.victory_by_hand),
                    "questions": {q: _clause(text) for q, text in sc.victory_questions.items()}})
    return {"scenarios": out}
