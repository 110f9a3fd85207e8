"""Pieces every table kind shares: modifier and shift inputs, table notes, result meanings."""

from __future__ import annotations

import re

from builder.tables.inputs import Choice, InputSpec
from builder.tables.result import Calculation

NO_EFFECT = {"", "-", "—", "–", "no effect", "none"}


def slug(text: str) -> str:
    """'Trench hexside, Woods' -> 'trench-hexside-woods'."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "x"


def signed(n: int) -> str:
    return f"{n:+d}"


def row_span(results: dict) -> tuple[int, int]:
    """The first and last printed row of a table read by a modified roll."""
    keys = [int(k) for k in results]
    return min(keys), max(keys)


def modified_row(results: dict, natural: int, drm: int) -> tuple[str, str]:
    """The row a modified roll reads, an end row when it falls beyond the table, and the
    working: '4 +2 = 6', '5 +3 = 8, beyond the table: read as 7'."""
    lo, hi = row_span(results)
    mod = natural + drm
    row = min(max(mod, lo), hi)
    how = f"{natural}" + (f" {signed(drm)} = {mod}" if drm else "")
    if row != mod:
        how += f", beyond the table: read as {row}"
    return str(row), how


def table_notes(calc: Calculation, table) -> None:
    """The table's own readings and footnotes, which every calculation on it shows."""
    if table.note:
        calc.note(table.note)
    rn = getattr(table, "rounding_note", "")
    if rn:
        calc.note(rn)
    fields = table.assumed_fields()
    if fields == ("*",):
        calc.note("This table is reconstructed: the rule documents do not give it"
                  + (f" ({table.source})" if table.source else "") + ".")
    elif fields:
        calc.note(f"Reconstructed (not in the rule documents): {', '.join(fields)}.")
    for n in table.notes:
        calc.note(n)


def meaning(table, result: str) -> str:
    """What a result code means, from the legend: 'De' -> 'defender eliminated'; '3/1' -> words."""
    if result in table.legend:
        return table.legend[result]
    if result.strip() in NO_EFFECT:
        return table.legend.get("—", table.legend.get("-", "no effect"))
    return ""


def item_note(calc: Calculation, item, what: str) -> None:
    """A used row, modifier or shift's own note (its reading), labelled."""
    note = getattr(item, "note", "")
    if note:
        calc.note(f"{what}: {note}")
    if getattr(item, "assumed_fields", lambda: ())():
        calc.note(f"{what} is reconstructed (not in the rule documents).")


# --- column shifts ---------------------------------------------------------------------------
def shift_inputs(shifts) -> list[InputSpec]:
    specs = []
    for s in shifts:
        direction = "attacker's" if s.columns > 0 else "defender's"
        label = f"{s.label} ({abs(s.columns)} column{'s' if abs(s.columns) != 1 else ''} in the " \
                f"{direction} favour)"
        if s.max_uses == 1:
            specs.append(InputSpec(s.id, label, "bool", default=False, source=s.source))
        else:
            specs.append(InputSpec(s.id, label + " - how many", "int", default=0, min=0,
                                   max=s.max_uses, source=s.source))
    return specs


def shift_total(calc: Calculation, shifts, values: dict) -> int:
    """The columns every shift asked for adds up to, each in the working."""
    total = 0
    for s in shifts:
        n = values.get(s.id)
        n = int(n) if n else 0
        if n:
            total += s.columns * n
            calc.step(f"shift: {s.label}" + (f" x{n}" if n > 1 else "") +
                      f" = {signed(s.columns * n)} column{'s' if abs(s.columns * n) != 1 else ''}"
                      + (f" ({s.source})" if s.source else ""))
            item_note(calc, s, s.label)
    return total


# --- roll modifiers --------------------------------------------------------------------------
def place_bound(m) -> bool:
    """A modifier for terrain or a region applies from the place, never from an input of its own."""
    return bool(m.terrain or m.regions)


def modifier_inputs(mods) -> list[InputSpec]:
    """One multi-choice input per 'only the highest applies' group, a yes/no (or count) for the
    rest; modifiers for terrain or regions are read from the place (builder.tables.place)."""
    specs: list[InputSpec] = []
    groups: dict[str, list] = {}
    for m in mods:
        if m.group and not place_bound(m):
            groups.setdefault(m.group, []).append(m)
    seen = set()
    for m in mods:
        if place_bound(m):
            continue
        if m.group:
            if m.group in seen:
                continue
            seen.add(m.group)
            members = groups[m.group]
            specs.append(InputSpec(
                slug(m.group), f"{m.group} (not cumulative: only the highest applies)", "choice",
                choices=tuple(Choice(x.id, f"{x.label} ({signed(x.value)})") for x in members),
                multiple=True, help="name every one present; the highest modifier is used",
                source=members[0].source))
        elif m.values:
            specs.append(InputSpec(m.id, m.label, "choice", choices=tuple(
                Choice(str(v), signed(v)) for v in m.values), source=m.source,
                help="leave out when it does not apply"))
        elif m.max_uses in (None, 1):
            specs.append(InputSpec(m.id, f"{m.label} ({signed(m.value)})", "bool", default=False,
                                   source=m.source))
        else:
            specs.append(InputSpec(m.id, f"{m.label} ({signed(m.value)} each) - how many", "int",
                                   default=0, min=0, max=m.max_uses, source=m.source))
    return specs


def _from_place(m, place) -> bool | None:
    """Whether a place-bound modifier applies there (None: the place does not say)."""
    if place is None:
        return None
    parts = []
    if m.terrain:
        parts.append(None if place.terrain is None else bool(set(m.terrain) & set(place.terrain)))
    if m.regions:
        parts.append(None if place.regions is None else bool(set(m.regions) & set(place.regions)))
    if any(p is True for p in parts):
        return True
    return None if any(p is None for p in parts) else False


def _why_place(m, place) -> str:
    """' (woods in 0303)' or ' (0203 is in west-bank)': why a place-bound modifier applies."""
    said = place.names  # ids as the map names them
    terrain = sorted(set(m.terrain) & set(place.terrain or ()))
    if terrain:
        return (f" ({', '.join(said.get(x, x) for x in terrain)}"
                f"{' in ' + place.where if place.where else ''})")
    regions = sorted(set(m.regions) & set(place.regions or ()))
    return f" ({place.where or 'the hex'} is in {', '.join(said.get(x, x) for x in regions)})"


def apply_modifiers(calc: Calculation, mods, values: dict, place=None) -> int:
    """The net modifier from the inputs and the place, each in the working."""
    total = 0
    where = f" in {place.where}" if place is not None and place.where else ""
    unknown = [m for m in mods if place_bound(m) and _from_place(m, place) is None]
    if unknown:
        calc.note("Modifiers for the place (" + ", ".join(
            f"{m.label} {signed(m.value)}" for m in unknown) + ") apply only when the "
            + ("hex is given." if place is not None and place.terrain is not None
               else "terrain or the place is given."))
    groups: dict[str, list] = {}
    for m in mods:
        if m.group:
            groups.setdefault(m.group, []).append(m)
    for group, members in groups.items():
        chosen_ids = values.get(slug(group)) or []
        chosen = [m for m in members if (not place_bound(m) and m.id in chosen_ids)
                  or (place_bound(m) and _from_place(m, place))]
        if not chosen:
            continue
        best = max(chosen, key=lambda m: m.value)
        total += best.value
        src = where if any(place_bound(m) for m in chosen) else ""
        if len(chosen) > 1:
            calc.step(f"{group}{src}: " + ", ".join(f"{m.label} {signed(m.value)}" for m in chosen)
                      + f": not cumulative, only the highest applies: {signed(best.value)}"
                      + (f" ({best.source})" if best.source else ""))
        else:
            calc.step(f"{group}{src}: {best.label} {signed(best.value)}"
                      + (f" ({best.source})" if best.source else ""))
        item_note(calc, best, best.label)
    for m in mods:
        if m.group:
            continue
        if m.values:
            v = values.get(m.id)
            if v not in (None, ""):
                total += int(v)
                calc.step(f"modifier: {m.label} {signed(int(v))}"
                          + (f" ({m.source})" if m.source else ""))
                item_note(calc, m, m.label)
            continue
        if place_bound(m):
            n = 1 if _from_place(m, place) else 0
        else:
            v = values.get(m.id)
            n = int(v) if v else 0
        if n:
            total += m.value * n
            calc.step(f"modifier: {m.label}" + (f" x{n}" if n > 1 else "") + f" {signed(m.value * n)}"
                      + (_why_place(m, place) if place_bound(m) else "")
                      + (f" ({m.source})" if m.source else ""))
            item_note(calc, m, m.label)
    return total
