"""Odds tables: attack divided by defence, rounded as the rules say, read as '3:1' or '1:2'.

The resolution follows the Eben-Emael procedure where the table asks for it: the defender's
fire first (losses off the attack), the cap per sector edge, the terrain divisor best for the
defender, the odds, column shifts, the roll, and the defender's optional retreat.
"""

from __future__ import annotations

import re
from fractions import Fraction

from builder import words
from builder.model.tables import RatioTable
from builder.tables import dice, place, rules
from builder.tables.common import (
    apply_modifiers,
    meaning,
    modifier_inputs,
    shift_inputs,
    shift_total,
    signed,
)
from builder.tables.inputs import CalcError, Choice, InputSpec
from builder.tables.result import Calculation, Outcome, Tally, tally_values
from builder.tables.rounding import MIRROR, WORDS, is_half, round_to_int, show
from builder.tables.terrain import divisor, terrain_shift


def _fire_table(game, t: RatioTable):
    if not t.fire_first:
        return None
    f = game.table_by_id.get(t.fire_first)
    if f is None or f.kind != "fire":
        raise CalcError(f"table {t.id}: fire_first '{t.fire_first}' is not a fire table of {game.slug}")
    return f


def inputs(game, t: RatioTable) -> list[InputSpec]:
    """Strengths (per sector edge when capped), fire first, terrain, shifts, modifiers, retreat."""
    if t.edge_cap:
        attack = InputSpec("attack", f"attacking strength, one value per sector edge attacked across "
                                     f"(each counts at most {t.edge_cap})", "int", required=True, min=0,
                           multiple=True)
    else:
        attack = InputSpec("attack", "attacking strength: the total, or one value per attacking hex",
                           "int", required=True, min=0, multiple=True)
    specs = [attack, InputSpec("defence", "defending strength", "int", required=True, min=1)]
    f = _fire_table(game, t)
    if f is not None:
        from builder.tables import fire

        specs.append(fire.firepower_input(f, "mg", f"{f.name}: the defender's fire strength"))
        lo, hi = dice.dice_range(f.dice)
        specs.append(InputSpec("mg_roll", f"{f.name}: roll ({f.dice})", "int", min=lo, max=hi,
                               help="leave out for the odds over every roll"))
    specs.append(InputSpec("attack_loss", "strength the attackers lost before the odds are taken "
                                          "(e.g. to defensive fire)", "int", default=0, min=0))
    specs += place.specs(game, t)
    if game.is_hex:
        specs.append(InputSpec("attacker_hexes", "the attacking units' hexes, in the order of the "
                               "attack values (for hexsides attacked across)", "hex", multiple=True))
    else:
        specs.append(InputSpec("attacker_sectors", "the sectors attacked from, one per attack value "
                               "(checks the edges; the defender's machine-gun arc)", "choice",
                               multiple=True,
                               choices=tuple(Choice(x.id, x.name) for x in game.map.sectors)))
    specs += shift_inputs(t.shifts)
    specs += modifier_inputs(t.modifiers)
    if t.retreat_reduces:
        specs.append(InputSpec("retreat", f"the defender retreats one sector to reduce its loss by "
                                          f"{t.retreat_reduces}", "bool", default=False))
    return specs + rules.inputs(game, t, specs)


def column_value(text: str) -> Fraction:
    a, b = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", text).groups()
    return Fraction(int(a), int(b))


def _col_label(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _virtual(t: RatioTable, want: Fraction) -> int:
    """Where odds past an end of the table lie, counting a column for each whole step beyond it
    (8:1 is two past a last 6:1 column, 1:6 two before a first 1:4): for ends = 'after-shifts'."""
    values = [column_value(c) for c in t.columns]
    last = len(values) - 1
    if want > values[-1]:
        top = values[-1]
        return last + (int(want - top) if top.denominator == want.denominator == 1 else 1)
    if want == 0:
        return -10**6
    bottom = values[0]
    return -((want.denominator - bottom.denominator) if bottom.numerator == want.numerator == 1
             else 1)


def column_label(t: RatioTable, k: int) -> str:
    """A column's label, or the odds a virtual column past an end stands for."""
    if 0 <= k < len(t.columns):
        return _col_label(t.columns[k])
    values = [column_value(c) for c in t.columns]
    if k >= len(t.columns):
        return f"{int(values[-1]) + k - len(t.columns) + 1}:1"
    return f"1:{values[0].denominator - k}" if k > -10**5 else "0:1"


def odds_column(t: RatioTable, attack: int, defence: int, calc: Calculation | None,
                say: bool = True, virtual: bool = False) -> int | None:
    """Index of the column these strengths are read on (None: the attack is not allowed);
    virtual: odds past an end keep their place beyond it (the ends apply after the shifts)."""
    values = [column_value(c) for c in t.columns]
    step = calc.step if (calc is not None and say) else (lambda _s: None)
    if attack >= defence:
        q = Fraction(attack, defence)
        n = round_to_int(q, t.rounding)
        step(f"odds {attack}:{defence} = {show(q)} to 1, rounded {WORDS[t.rounding]} = {n}:1")
        want = Fraction(n)
        if calc is not None and say and is_half(q):
            calc.note(f"{show(q)} is an exact half: rounded {WORDS[t.rounding]} it is {n}:1; the "
                      f"other way it would be {round_to_int(q, MIRROR[t.rounding])}:1.")
    elif attack == 0:
        step(f"odds 0:{defence}: no attack strength")
        want = Fraction(0)
    else:
        rule = t.rounding_below or MIRROR[t.rounding]
        q = Fraction(defence, attack)
        m = round_to_int(q, rule)
        step(f"odds {attack}:{defence}: the attack is weaker, so 1 to {defence}/{attack} = {show(q)}, "
             f"rounded {WORDS[rule]} = 1:{m}")
        if calc is not None and say:
            calc.note("Below 1:1 the defence is divided by the attack and rounded "
                      + (f"{WORDS[rule]}." if t.rounding_below else
                         f"{WORDS[rule]}: the mirror of the rule above 1:1, so the rounding favours "
                         "the same side (no rule says how odds below 1:1 round)."))
        want = Fraction(1, m) if m else Fraction(10**9)
    if virtual and not values[0] <= want <= values[-1]:
        k = _virtual(t, want)
        end = t.columns[0] if k < 0 else t.columns[-1]
        step(f"past the table's end ({end}): shifts count from {column_label(t, k)}, and the "
             "table's end applies after them")
        return k
    if want < values[0]:
        if t.beyond_low == "not-allowed":
            step(f"below the lowest column {t.columns[0]}: the attack is not allowed")
            return None
        i = 0 if t.beyond_low == "first-column" else len(values) - 1
        step(f"below the lowest column {t.columns[0]}: read on {t.columns[i]}")
        return i
    if want > values[-1]:
        if t.beyond_high == "not-allowed":
            step(f"above the highest column {t.columns[-1]}: the attack is not allowed")
            return None
        i = len(values) - 1 if t.beyond_high == "last-column" else 0
        step(f"above the highest column {t.columns[-1]}: read on {t.columns[i]}")
        return i
    i = max(k for k, v in enumerate(values) if v <= want)
    if values[i] != want:
        step(f"no {show(want)} column: the next column down, {t.columns[i]}, is used")
    return i


def _column_index(t: RatioTable, text: str) -> int:
    return [_col_label(c) for c in t.columns].index(_col_label(text))


def _losses(cell: str) -> tuple[int, int]:
    a, d = cell.split("/")
    return (0 if a.strip("-—") == "" else int(a)), (0 if d.strip("-—") == "" else int(d))


def _outcome(t: RatioTable, cell: str, retreat: bool) -> Outcome:
    if t.result_format != "attacker/defender":
        return Outcome(cell, meaning(t, cell))
    a, d = _losses(cell)
    cut = min(d, t.retreat_reduces) if retreat else 0
    words = f"attacker loses {a}, defender loses {d - cut}"
    if cut:
        words += f" (retreats one sector: {d} - {cut})"
    return Outcome(cell, meaning(t, cell) or words,
                   {"attacker losses": a, "defender losses": d - cut})


def calculate(game, t: RatioTable, values: dict, roll, calc: Calculation) -> Calculation:
    """Resolve one attack, or the odds of every result (over the fire roll too) without rolls."""
    edges = values["attack"] if isinstance(values["attack"], list) else [values["attack"]]
    where = place.read(game, values, calc)
    terrain_ids = list(where.terrain) if where.terrain is not None else None
    facts = rules.facts(game, t, values, where)
    applied = rules.evaluate(game, t, values, facts, calc)
    if rules.refuse(applied, calc):
        return calc
    attack, side_shifts, counted = _attack_total(game, t, values, edges, applied, calc)
    defence = values["defence"]
    if t.edge_cap and t.edge_cap_defence and defence > t.edge_cap:
        calc.step(f"defence {defence}: at most {t.edge_cap} count across a sector edge: {t.edge_cap}")
        defence = t.edge_cap
    else:
        calc.step(f"defence: {defence}")
    dfac, drule = rules.defence_factor(applied)
    defence = max(rules.scale(defence, dfac, drule or t.divisor_rounding or t.rounding, calc,
                              "defence"), 1 if defence else 0)
    div = divisor(game, t.terrain_effect, terrain_ids, t.terrain_choice, calc,
                  "defender's terrain") if t.terrain_effect else Fraction(1)
    afac, arule = rules.attack_factor(applied)
    base_shift = terrain_shift(game, t.shift_effect, terrain_ids, calc, t.terrain_choice,
                               side_shifts)
    fire_losses = _fire_losses(game, t, values, calc)
    drm = apply_modifiers(calc, t.modifiers, values, where) + applied.drm
    if applied.drm:
        calc.step(f"rules: {signed(applied.drm)} to the roll")
    lo, hi = dice.dice_range(t.dice)
    retreat = bool(values.get("retreat"))
    player_shift = shift_total(calc, t.shifts, values)

    per_unit = t.divide == "per-unit" and len(counted) > 1 and (div != 1 or afac != 1)
    if per_unit and (fire_losses != [(0, Fraction(1))]):
        raise CalcError("this table divides each attacking unit's strength (divide = per-unit): "
                        "give each unit's strength after its losses, without attack_loss or the "
                        "fire first")

    def column_for(loss: int, say: bool) -> int | None:
        out = calc if say else _Quiet()
        a = max(attack - loss, 0)
        if loss and say:
            calc.step(f"attack after losses: {attack} - {loss} = {a}")
        if per_unit:
            a = _divided_per_unit(t, counted, div, afac, arule, calc if say else None)
        elif div != 1 or afac != 1:
            raw = Fraction(a) / div * afac
            rule = arule or t.divisor_rounding or t.rounding
            a = round_to_int(raw, rule)
            if say:
                by = (f" / {show(div)}" if div != 1 else "") + (
                    f" x {show(afac)}" if afac != 1 else "")
                calc.step(f"attack divided by the terrain{' and the rules' if afac != 1 else ''}: "
                          f"{max(attack - loss, 0)}{by} = {show(raw)}"
                          + (f", rounded {WORDS[rule]} = {a}" if raw.denominator != 1 else ""))
                if is_half(raw):
                    other = round_to_int(raw, MIRROR[rule])
                    alt = odds_column(t, other, defence, None, say=False)
                    alt_text = (f" and the odds {other}:{defence} would be read on "
                                f"{_col_label(t.columns[alt])}" if alt is not None else "")
                    calc.note(f"{show(raw)} is an exact half: rounded {WORDS[rule]} it is {a}; "
                              f"rounded the other way it would be {other}{alt_text}.")
        i = odds_column(t, a, defence, calc, say, virtual=t.ends == "after-shifts")
        if i is None:
            return None
        return rules.move_column(t, out, i, applied, base_shift + player_shift,
                                 len(t.columns) - 1, lambda k: column_label(t, k),
                                 lambda text: _column_index(t, text),
                                 lambda text: _column_index(t, text))

    def cell(col: int, total: int) -> Outcome:
        mod = min(max(total + drm, lo), hi)
        return _outcome(t, rules.replaced(applied, t.results[str(mod)][col]), retreat)

    if len(fire_losses) == 1:
        (loss, _), = fire_losses
        col = column_for(loss, True)
        if col is None:
            calc.outcome = Outcome("not allowed", words.cannot(t, "these odds"))
            calc.distribution = [(calc.outcome, Fraction(1))]
            return calc
        calc.column = _col_label(t.columns[col])
        calc.step(f"column: {calc.column}")
        if roll is not None:
            (total,) = dice.parse_roll(roll, t.dice)
            calc.roll = [total]
            mod = min(max(total + drm, lo), hi)
            calc.step(f"roll {total}" + (f" {signed(drm)} = {total + drm}" if drm else ""))
            if mod != total + drm:
                calc.step(f"modified roll {total + drm} is off the table: read as {mod}")
                calc.note("A modified roll beyond the table reads the nearest end row.")
            calc.outcome = cell(col, total)
            calc.step(f"result: {calc.outcome.result}: {calc.outcome.meaning}")
            if retreat and t.retreat_reduces:
                calc.note(f"The defender may retreat one sector to reduce its loss by "
                          f"{t.retreat_reduces}.")
        tally = Tally()
        for total, p in dice.totals(t.dice).items():
            tally.add(cell(col, total), p)
        calc.distribution = _ordered(t, tally.items())
        calc.expected = tally.expected()
        return calc
    # the fire roll is not given: every fire result, then every combat roll
    if roll is not None:
        raise CalcError("give mg_roll (or attack_loss) too: with the fire roll unknown the column is "
                        "unknown, so a combat roll alone cannot be read")
    tally = Tally()
    cols = []
    for loss, p_loss in fire_losses:
        col = column_for(loss, False)
        if col is None:
            tally.add(Outcome("not allowed", words.cannot(t, "these odds")), p_loss)
            cols.append(("not allowed", p_loss))
            continue
        cols.append((_col_label(t.columns[col]), p_loss))
        for total, p in dice.totals(t.dice).items():
            tally.add(cell(col, total), p_loss * p)
    calc.columns = tally_values(cols)
    calc.step("column by fire result: " + ", ".join(f"{c} {show_p(p)}" for c, p in calc.columns))
    calc.distribution = _ordered(t, tally.items())
    calc.expected = tally.expected()
    lost = sum((loss * p for loss, p in fire_losses), Fraction(0))
    if lost:
        calc.expected = {"attacker losses to the fire first": lost, **calc.expected}
    return calc


def _ordered(t: RatioTable, items: list) -> list:
    """Attacker/defender results from the attacker's worst to best; others in roll order."""
    if t.result_format != "attacker/defender":
        return items
    return sorted(items, key=lambda op: (op[0].numbers["defender losses"],
                                         -op[0].numbers["attacker losses"]))


def show_p(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


class _Quiet:
    """A stand-in that drops steps and notes (for the columns of rolls not shown)."""

    def step(self, _text):
        pass

    def note(self, _text):
        pass


def _fire_losses(game, t: RatioTable, values: dict, calc: Calculation) -> list[tuple[int, Fraction]]:
    """The attackers' losses before the odds: given, rolled on the fire table, or every roll."""
    given = values.get("attack_loss") or 0
    f = _fire_table(game, t)
    mg = values.get("mg") if f is not None else None
    sector = game.sector_by_id.get(values.get("sector") or "")
    if f is not None and not mg and not given and sector is not None and sector.mg:
        froms = values.get("attacker_sectors") or []
        if froms and sector.fire_arc and not set(froms) & set(sector.fire_arc):
            calc.step(f"{sector.name}'s heavy machine guns [{sector.mg}] cannot fire on "
                      + ", ".join(game.sector_by_id[x].name for x in froms) + " (fire arc, map)")
        else:
            mg = str(sector.mg)
            calc.step(f"{sector.name} holds heavy machine guns [{sector.mg}] (map)")
    if given and mg:
        raise CalcError("give attack_loss or the fire (mg, mg_roll), not both")
    if f is not None and not mg and not given and values.get("sector") is None:
        calc.note(f"The defender's {f.name} fires first when its strength (mg) or the defender's "
                  "sector is given: no fire first here.")
    if f is None or not mg:
        if values.get("mg_roll") is not None:
            raise CalcError("mg_roll needs mg (the fire strength)")
        if given:
            calc.step(f"losses before the combat: {given}")
        return [(given, Fraction(1))]
    from builder.tables import fire

    col = fire.band_index(f, int(mg))
    band = f"[{f.bands[col]}]" if f.exact_bands else f.bands[col]
    calc.step(f"{f.name} first: strength {mg}, column {band}" + (f" ({f.source})" if f.source else ""))
    if values.get("mg_roll") is not None:
        r = values["mg_roll"]
        loss = fire.cell_loss(f.results[str(r)][col])
        calc.step(f"{f.name} roll {r}: attackers lose {loss}")
        return [(loss, Fraction(1))]
    dist = tally_values((fire.cell_loss(f.results[str(r)][col]), p) for r, p in dice.totals(f.dice).items())
    calc.step(f"{f.name} roll not given: losses " + ", ".join(f"{loss} ({show_p(p)})" for loss, p in dist))
    calc.note(f"The {f.name} losses come off the attack before the odds; they are not divided by "
              "the attackers' terrain here.")
    return dist


def _attack_total(game, t: RatioTable, values: dict, edges: list[int], applied,
                  calc: Calculation) -> tuple[int, list]:
    """The attack counted (capped per sector edge, halved per unit across a dividing hexside,
    per-unit rules), and the shifting hexsides attacked across."""
    attackers = values.get("attacker_hexes") or []
    if t.edge_cap:
        counted = []
        for i, a in enumerate(edges, 1):
            c = min(a, t.edge_cap)
            counted.append(c)
            if c != a:
                calc.step(f"edge {i}: {a} attacking, at most {t.edge_cap} count across one sector "
                          f"edge: {c}")
        edges = counted
    side_shifts: list = []
    if attackers:
        edges = _across_hexsides(game, t, values, edges, attackers, calc, side_shifts)
        edges = rules.per_unit(applied, edges, len(attackers), t.divisor_rounding or t.rounding, calc)
    if values.get("attacker_sectors"):
        _check_sectors(game, values, edges, calc)
    attack = sum(edges)
    calc.step(f"attack: {' + '.join(map(str, edges))} = {attack}" if len(edges) > 1
              else f"attack: {attack}")
    return attack, side_shifts, edges


def _divided_per_unit(t: RatioTable, counted: list[int], div: Fraction, afac: Fraction,
                      arule: str | None, calc: Calculation | None) -> int:
    """Each attack value divided by the terrain (and multiplied by the rules), rounded, then
    added (divide = per-unit)."""
    rule = arule or t.divisor_rounding or t.rounding
    parts = []
    for v in counted:
        raw = Fraction(v) / div * afac
        parts.append((v, raw, round_to_int(raw, rule)))
    total = sum(n for _, _, n in parts)
    if calc is not None:
        by = (f" / {show(div)}" if div != 1 else "") + (f" x {show(afac)}" if afac != 1 else "")
        calc.step("each unit divided" + (" by the terrain" if div != 1 else "") + ", rounded "
                  + WORDS[rule] + ": " + ", ".join(
                      f"{v}{by} = {show(raw)}" + (f" -> {n}" if raw.denominator != 1 else "")
                      for v, raw, n in parts) + f"; together {total}")
    return total


def _across_hexsides(game, t: RatioTable, values: dict, edges: list[int], attackers: list,
                     calc: Calculation, side_shifts: list) -> list[int]:
    """Each attacker's strength divided by the hexside it attacks across (a minor river halves);
    the hexside types with a column shift that any attacker crosses go to side_shifts."""
    from builder import mapinfo

    d = values.get("hex")
    if d is None:
        raise CalcError("attacker_hexes needs hex (the defender's hex) to know the hexsides crossed")
    if len(edges) not in (1, len(attackers)):
        raise CalcError(f"attack has {len(edges)} values for {len(attackers)} attacker_hexes: give "
                        "the total or one value per hex, in the same order")
    per_hex = len(edges) == len(attackers)
    out = []
    divs = []
    for k, a in enumerate(attackers):
        if not game.grid.adjacent(a, d):
            raise CalcError(f"attacker_hexes: {game.grid.label(a)} is not adjacent to the defender's hex "
                            f"{game.grid.label(d)}")
        best = Fraction(1)
        names = []
        for s in mapinfo.hexside_types(game, a, d):
            ht = next(x for x in game.map.hexside_types if x.id == s)
            names.append(ht.name)
            v = ht.effects.get(t.terrain_effect) if t.terrain_effect else None
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                best = max(best, Fraction(str(v)))
            sh = ht.effects.get(t.shift_effect) if t.shift_effect else None
            if isinstance(sh, int) and not isinstance(sh, bool) and ht not in [x for x, _ in side_shifts]:
                side_shifts.append((ht, sh))
        divs.append(best)
        side = ", ".join(names) if names else "a plain hexside"
        if per_hex:
            if best != 1:
                rule = t.divisor_rounding or t.rounding
                raw = Fraction(edges[k]) / best
                n = round_to_int(raw, rule)
                calc.step(f"from {game.grid.label(a)} across {side}: {edges[k]} / {show(best)} = "
                          f"{show(raw)}" + (f", rounded {WORDS[rule]} = {n}" if raw.denominator != 1 else ""))
                out.append(n)
            else:
                calc.step(f"from {game.grid.label(a)} across {side}: {edges[k]}")
                out.append(edges[k])
        else:
            calc.step(f"attacker in {game.grid.label(a)} attacks across {side}")
    if per_hex:
        return out
    if len(set(divs)) == 1 and divs[0] != 1:
        rule = t.divisor_rounding or t.rounding
        raw = Fraction(edges[0]) / divs[0]
        n = round_to_int(raw, rule)
        calc.step(f"every attacker crosses it: {edges[0]} / {show(divs[0])} = {show(raw)}"
                  + (f", rounded {WORDS[rule]} = {n}" if raw.denominator != 1 else ""))
        return [n]
    if any(x != 1 for x in divs):
        calc.note("Only some attackers cross a dividing hexside: give the attack as one value per "
                  "attacker hex (same order) to divide just theirs.")
    return edges


def _check_sectors(game, values: dict, edges: list[int], calc: Calculation) -> None:
    """Attacking sectors must touch the defender's sector, one attack value per sector edge."""
    froms = values["attacker_sectors"]
    target = values.get("sector")
    if target is None:
        raise CalcError("attacker_sectors needs sector (the defender's sector)")
    if len(froms) != len(edges):
        raise CalcError(f"attack has {len(edges)} values for {len(froms)} attacker_sectors: give one "
                        "value per sector attacked from, in the same order")
    pairs = {frozenset(p) for p in game.map.adjacent}
    water = {frozenset(p) for p in game.map.water_edges}
    names = game.sector_by_id
    for x in froms:
        if frozenset((x, target)) not in pairs:
            touching = sorted(a for p in pairs if target in p for a in p if a != target)
            raise CalcError(f"attacker_sectors: {names[x].name} does not share an edge with "
                            f"{names[target].name} (its neighbours: {', '.join(touching)})")
        if frozenset((x, target)) in water:
            calc.note(f"{names[x].name} and {names[target].name} are across water: movement is not "
                      "allowed (3.7); whether an attack is, the rules do not say.")
    calc.step("attacking across the edges from " + ", ".join(names[x].name for x in froms))
