"""Rules, conditions and table settings in a player's words: the one writer.

The printed cards, the phone aid (its table notes and its engine's working), the module's chat
and `builder calc`'s working all describe a rule, a condition or a table setting through these
functions, so each reads the same everywhere and no setting name, key, kind tag or raw value
reaches a player: terrain, hexsides, sides, regions, scenarios, flags and inputs are named as the
game names them.

    rule(game, t, r)        "Every attacker across a river: one column left when every
                             attacking unit attacks across a River hexside, except on frost
                             turns (7.3, 8.2)"
    condition(game, t, c)   "on turn 1 when the Allied player uses gas"
    effect(game, t, r)      "-2 to the roll", "the attack strength is halved, rounded down"
    settings(game, t)       the table's own settings ("Below the first column the attack is not
                            allowed.", "Line of sight reaches 10 hexes; 1 on a night turn.")
    lines(game, t)          everything a card prints under a table: settings, modifiers, shifts,
                            rules

`game` may be the designer's model or the player view: nothing here reads notes or provenance.
"""

from __future__ import annotations

import re

from builder.model.rolls import RollSpec
from builder.tables.rounding import WORDS as ROUNDING

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

# the role a table's conditions call the unit in the place (defender or target) and the unit
# acting (attacker or firer), by kind; a lookup has neither
_ROLE_NOUN = {"attacker": "an attacking unit", "defender": "the defender", "firer": "the firing unit",
              "target": "the target"}
_PLACE_ROLE = {"ratio": "defender", "differential": "defender", "fire": "target",
               "modified-roll": "target"}


# --- small pieces ----------------------------------------------------------------------------
def number(n: int) -> str:
    """3 -> 'three' (up to ten), 12 -> '12'."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def plural(n: int, noun: str, nouns: str = "") -> str:
    """'one column', 'two columns', '1 hex' style counts: words up to ten."""
    return f"{number(n)} {noun if n == 1 else (nouns or noun + 's')}"


def either(items, word: str = "or") -> str:
    """'a', 'a or b', 'a, b or c'."""
    items = [str(i) for i in items if str(i)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def article(text: str) -> str:
    """'an Armour unit', 'a Woods hex'."""
    return ("an " if text[:1].lower() in "aeiou" else "a ") + text


def clause(text: str) -> str:
    """A designer's question or name used inside a sentence: a leading article or determiner
    lowered ('The defender is encircled' -> 'the defender is encircled'); any other first word
    is kept, as it may be a name ('Luftwaffe markers ...')."""
    first = text.split(" ", 1)[0]
    return first.lower() + text[len(first):] if first in _DETERMINERS else text


_DETERMINERS = {"The", "A", "An", "Any", "Every", "Each", "This", "That", "These", "Those",
                "Its", "Their", "No", "One", "Two", "All", "Some"}


def signed(n: int) -> str:
    return f"{n:+d}"


def roll_spec(spec: str, names: dict[str, str] | None = None) -> str:
    """A number condition as words: '5' -> '5', '3-5' -> '3 to 5', '>=7' -> '7 or more',
    '2,3,12' -> '2, 3 or 12', '<turn' -> 'less than the current game turn'."""
    names = names or {}
    parts = []
    for p in RollSpec(spec).parts:
        if p["else"]:
            return "anything else"
        if p["one"] is not None:
            parts.append(p["one"])
        elif p["lo"] is not None:
            parts.append(f"{p['lo']} to {p['hi']}")
        else:
            ref = p["opval"]
            ref = ref if re.fullmatch(r"-?\d+", ref) else clause(names.get(ref, ref))
            parts.append({"<": f"less than {ref}", "<=": f"{ref} or less", ">": f"more than {ref}",
                          ">=": f"{ref} or more"}[p["op"]])
    return either(parts)


def distance(spec: str) -> str:
    """A firing unit's distance condition: '1' -> 'adjacent to the target', '>range' -> 'beyond
    its range', '>2*range' -> 'beyond twice its range', '5-8' -> '5 to 8 hexes from the
    target'."""
    parts = []
    for p in RollSpec(spec).parts:
        times = {None: "", "1": "", "2": "twice ", "3": "three times "}.get(
            p["times"], f"{p['times']} times ")
        if p["op"] and not re.fullmatch(r"-?\d+", p["opval"]):
            parts.append({">": "beyond", ">=": "at or beyond", "<": "within less than",
                          "<=": "within"}[p["op"]] + f" {times}its range")
        elif p["one"] == "1":
            parts.append("adjacent to the target")
        elif p["one"] is not None:
            parts.append(f"{p['one']} hexes from the target")
        elif p["lo"] is not None:
            parts.append(f"{p['lo']} to {p['hi']} hexes from the target")
        elif p["op"]:
            n = int(p["opval"]) * int(p["times"] or 1)
            parts.append({">": f"more than {n}", ">=": f"{n} or more", "<": f"less than {n}",
                          "<=": f"{n} or less"}[p["op"]] + " hexes from the target")
    return either(parts)


def entry(t, spec: str) -> str:
    """A lookup entry's condition as its table prints it: '5', '1-2' and '2,3,12' as written,
    '>=17' as '17 or more', '<turn' as 'less than the current game turn', 'else' as
    'otherwise'."""
    if RollSpec(spec).is_else:
        return "otherwise"
    if not any(p["op"] for p in RollSpec(spec).parts):
        return spec
    names = {i.id: re.sub(r"\s*\([^)]*\)", "", i.name) for i in getattr(t, "inputs", ())}
    return roll_spec(spec, names)


def turns(spec: str) -> str:
    """A turn condition as a phrase: 'on turn 1', 'on turns 3 to 5', 'from turn 7 on',
    'up to turn 3', 'before turn 3', 'after turn 7', 'on turns 2, 4 or 6'."""
    parts = RollSpec(spec).parts
    if len(parts) == 1 and parts[0]["op"]:
        p = parts[0]
        return {"<": f"before turn {p['opval']}", "<=": f"up to turn {p['opval']}",
                ">": f"after turn {p['opval']}", ">=": f"from turn {p['opval']} on"}[p["op"]]
    many = len(parts) > 1 or parts[0]["lo"] is not None
    return f"on turn{'s' if many else ''} {roll_spec(spec)}"


def rounding(how: str) -> str:
    """'half-down' -> 'rounded to the nearest whole number, an exact half down'."""
    return f"rounded {ROUNDING[how]}"


def _defence(game) -> str:
    """'defense' or 'defence', as the game spells its counters' factor."""
    names = getattr(getattr(game, "info", None), "factor_names", ()) or ()
    return "defense" if any(str(n).lower().startswith("defense") for n in names) else "defence"


# --- names as the game writes them ----------------------------------------------------------
def _named(items, ids) -> list[str]:
    by_id = {x.id: x.name for x in items}
    return [by_id.get(i, i.replace("-", " ")) for i in ids]


def terrain_names(game, ids) -> list[str]:
    """Terrain type ids as the map names them."""
    return _named(game.map.terrain_types, ids)


def hexside_names(game, ids) -> list[str]:
    """Hexside type ids as the map names them."""
    return _named(getattr(game.map, "hexside_types", ()), ids)


def side_names(game, ids) -> list[str]:
    """Side ids as the game names them ('german' -> 'German')."""
    return _named(game.info.sides, ids)


def region_names(game, ids) -> list[str]:
    return _named(getattr(game.map, "regions", ()), ids)


def scenario_names(game, ids) -> list[str]:
    return _named(game.scenarios, ids)


def formation_names(game, ids) -> list[str]:
    forms = [f for s in game.info.sides for f in s.formations] + list(
        getattr(game.info, "formations", ()))
    return _named(forms, ids)


def attribute_value(game, attr: str, value: str) -> str:
    """A unit attribute's value as a player reads it: a side or formation by its name, a type
    or size in words ('armoured-infantry' -> 'armoured infantry')."""
    if attr == "side":
        return side_names(game, [value])[0]
    if attr == "formation":
        return formation_names(game, [value])[0]
    return value.replace("-", " ")


def location(game, at: str) -> str:
    """Where a piece sets up or enters, as the game names it: a hex as printed, a sector or box
    by its name ('Reserves box'), 'Turn track, turn 3', 'beside the map'."""
    if at.startswith("box:"):
        box = next((b for b in game.info.boxes if b.id == at[4:]), None)
        if box is None:
            return at[4:].replace("-", " ")
        return box.name if "box" in box.name.lower() else f"{box.name} box"
    if at.startswith("turn:"):
        return f"Turn track, turn {at[5:]}"
    if at == "off-map":
        return "beside the map"
    sector = getattr(game, "sector_by_id", {}).get(at)
    return sector.name if sector is not None else at


def allowance(game, a) -> str:
    """Replacements or rebuilds as a sentence: 'Allied: 2 rebuilds a turn on turns 1 to 10',
    'German: 2 replacements a turn on night turns'."""
    try:
        when = turns(a.turns)
    except ValueError:  # a period named in the turn record ('night')
        when = f"on {a.turns} turns"
    return f"{side_name(game, a.side)}: {a.count} {a.kind}{'s' if a.count != 1 else ''} a turn {when}"


def side_name(game, side_id: str) -> str:
    """One side as the game names it."""
    return side_names(game, [side_id])[0]


# --- conditions ------------------------------------------------------------------------------
def _attributes(game, attr: str, want) -> str:
    """The predicate of a unit condition: 'is German or Soviet', 'is an armour unit'."""
    if attr == "side":
        return "is " + either(side_names(game, want))
    if attr == "formation":
        return "belongs to " + either(formation_names(game, want))
    words = [w.replace("-", " ") for w in want]
    if attr == "size":
        return "is " + article(either(words))
    return "is " + article(either(words) + " unit")


def _hexside(name: str) -> str:
    return name if "hexside" in name.lower() else name + " hexside"


def _in_terrain(game, ids) -> str:
    """'in a Woods hex', 'in a Forest or Town sector', 'in a Trench hex' (a name that already
    says hex is not said twice)."""
    unit = "hex" if getattr(game, "is_hex", True) else "sector"
    names = either(terrain_names(game, ids))
    return "in " + article(names if names.lower().endswith(f" {unit}") else f"{names} {unit}")


def _statements(game, t, c) -> list[tuple[str, str]]:
    """(subject, predicate) pairs of one condition's own keys (no nesting, no time)."""
    out: list[tuple[str, str]] = []
    for role in ("attacker", "defender", "firer", "target"):
        for attr, want in getattr(c, role).items():
            out.append((_ROLE_NOUN[role], _attributes(game, attr, want)))
    subject = _ROLE_NOUN[_PLACE_ROLE.get(t.kind, "defender")]
    if c.terrain:
        out.append((subject, "is " + _in_terrain(game, c.terrain)))
    if c.region:
        out.append((subject, "is in " + either(region_names(game, c.region))))
    if c.place:
        out.append((subject, f"is within {plural(c.within, 'hex', 'hexes')} of {c.place}"
                    if c.within else f"is at {c.place}"))
    if c.distance:
        out.append(("the firing unit", "is " + distance(c.distance)))
    if c.across:
        who = {"any": "an attacking unit", "all": "every attacking unit",
               "per-unit": "an attacking unit"}[c.attackers]
        out.append((who, "attacks across " + article(_hexside(either(hexside_names(game, c.across))))))
    if c.flag:
        out.append(("", clause(t.flags.get(c.flag, c.flag.replace("-", " ")))))
    names = {i.id: i.name for i in getattr(t, "inputs", ())}
    for k, spec in c.input.items():
        out.append(("", f"{clause(names.get(k, k))} is {roll_spec(spec, names)}"))
    return out


def _joined(statements: list[tuple[str, str]]) -> str:
    """'the defender is Soviet and is within one hex of Kalinin': one subject said once."""
    by: dict[str, list[str]] = {}
    for subject, predicate in statements:
        by.setdefault(subject, []).append(predicate)
    parts = []
    for subject, preds in by.items():
        if subject and len(preds) > 1 and all(p.startswith("is ") for p in preds):
            preds = [preds[0]] + [p[3:] for p in preds[1:]]
        parts.append((subject + " " if subject else "") + " and ".join(preds))
    return " and ".join(parts)


def _gather(game, t, c, time: list, said: list, other: list, unless: list) -> None:
    """A condition's parts, with those of its 'all' (which are simply more of the same)."""
    if c.turn:
        time.append(turns(c.turn))
    if c.period:
        time.append("on " + either(c.period) + " turns")
    if c.scenario:
        time.append("in the " + either(scenario_names(game, c.scenario)) + " scenario")
    said += _statements(game, t, c)
    for x in c.all:
        _gather(game, t, x, time, said, other, unless)
    if c.any:
        other.append(either([condition(game, t, x) for x in c.any]))
    if c.not_ is not None:
        unless.append(condition(game, t, c.not_))


def condition(game, t, c) -> str:
    """When a rule applies, as a phrase that follows its effect: 'on turn 1', 'on mud turns',
    'when the defender is Soviet and in a Fortification hex', 'except on frost turns',
    'unless the target is observed'."""
    time: list[str] = []
    said: list[tuple[str, str]] = []
    other: list[str] = []
    unless: list[str] = []
    _gather(game, t, c, time, said, other, unless)
    bits = [" ".join(time)] if time else []
    if said:
        bits.append("when " + _joined(said))
    text = " ".join(bits)
    if other:
        text = (text + " and " if text else "") + " and ".join(other)
    for u in unless:
        if text:
            text += ", except " + u
        else:
            text = "unless " + u[5:] if u.startswith("when ") else "except " + u
    return text


# --- effects ---------------------------------------------------------------------------------
_TIMES = {2: ("halved", "doubled"), 3: ("divided by 3", "tripled")}


def _factor(value: float, divide: bool) -> str:
    if value == int(value) and int(value) in _TIMES:
        return _TIMES[int(value)][0 if divide else 1]
    return f"{'divided' if divide else 'multiplied'} by {value:g}"


def default_rounding(t) -> str:
    """How a table rounds a strength a rule divides or multiplies, when the rule does not say."""
    if t.kind == "ratio":
        return t.divisor_rounding or t.rounding
    if t.kind == "fire":
        return t.firepower_rounding
    return "down"


def column_name(t, column: str) -> str:
    """'the 3:1 column' (odds) or 'column 4' (a differential table's column number)."""
    return f"column {column}" if t.kind == "differential" else f"the {column} column"


def _result(text: str) -> str:
    if text.strip() in ("", "-", "—", "–"):
        return "no effect"
    return f"“{text}”" if " " in text.strip() else text


def _every_result(t) -> set[str]:
    if t.kind == "lookup":
        return {e.result for e in t.entries}
    results = getattr(t, "results", {})
    return {c for v in results.values() for c in ((v,) if isinstance(v, str) else v)}


def effect(game, t, r) -> str:
    """What a rule does, as the part of its sentence after the label: 'one column left',
    '+1 to the roll', 'the attack strength is halved, rounded down', 'not allowed'."""
    e, v = r.effect, r.value
    if e == "prohibited":
        return "not allowed"
    if e == "cancels":
        target = next((x for x in t.rules if x.id == v), None)
        return f"cancels one “{target.label if target else v}”"
    if e == "shift":
        return plural(abs(v), "column") + (" right" if v > 0 else " left")
    if e == "drm":
        return f"{signed(v)} to the roll"
    if e == "row":
        return f"read on the {v} row"
    if e == "column":
        return f"read on {column_name(t, v)}"
    if e == "cap":
        return f"no better than {column_name(t, v)}"
    if e == "replace":
        pairs = list(v.items())
        targets = {b for _, b in pairs}
        if len(targets) == 1 and len(pairs) > 1 and set(v) >= _every_result(t) - targets:
            return f"the result is {_result(pairs[0][1])}, whatever is read"
        if len(pairs) > 1 and len(targets) == 1:
            return f"{either([_result(a) for a, _ in pairs])} become{'' if len(pairs) > 1 else 's'} " \
                   f"{_result(pairs[0][1])}"
        return either([f"{_result(a)} becomes {_result(b)}" for a, b in pairs], "and")
    whose = "attack" if e.startswith("attack") else _defence(game)
    per_unit = r.when is not None and any(c.attackers == "per-unit" or c.distance
                                          for c in r.when.walk())
    owner = "that unit's" if per_unit else "the"
    if t.kind == "fire":
        if per_unit:
            return (f"that unit's {t.strength} is {_factor(v, e.endswith('divisor'))}"
                    + (f", {rounding(r.rounding)}" if r.rounding else
                       f", before the fire group's {t.strength} is added up"))
        return (f"the {t.strength} is {_factor(v, e.endswith('divisor'))}, "
                f"{rounding(r.rounding or default_rounding(t))}")
    return (f"{owner} {whose} strength is {_factor(v, e.endswith('divisor'))}, "
            f"{rounding(r.rounding or default_rounding(t))}")


def replacement(r, read: str, given: str) -> str:
    """A result a rule replaced, as a chat line says it: 'Soviet guns firing: Suppressed
    becomes no effect (11.2)'."""
    return _cites(labelled(r.label, f"{_result(read)} becomes {_result(given)}"), r.source)


def unused(shown: str, why: str) -> str:
    """An input the player gave that changed nothing, and why, as calc, the aid and the module's
    chat say it: 'Engineers attack with demolition charges: not applied, only when the defender
    is in a Stone building hex (3.8)', 'hex 0703 (Clear): changed nothing, ...'."""
    if why.startswith(("not applied, ", "not decided ")):
        return f"{shown}: {why}"
    return f"{shown}: changed nothing" + (f", {why}" if why else "")


def unused_reasons(reasons: list[str]) -> str:
    """Several rules' reasons an input changed nothing, one sentence: the same reason once, and
    'not applied' said once, at the first."""
    out: list[str] = []
    for r in reasons:
        if r not in out:
            out.append(r)
    if len(out) > 1 and any(r.startswith("not applied, ") for r in out):
        out = [out[0]] + [r.removeprefix("not applied, ") for r in out[1:]]
    return "; ".join(out)


def not_applied(said: str, source: str) -> str:
    """Why an input a rule asks about changed nothing: the rest of the rule's condition does not
    hold ('not applied, only on turn 1 (17.6)')."""
    only = said if said.startswith(("except ", "unless ")) else "only " + said
    return f"not applied, {only}" + (f" ({source})" if source else "")


def input_shown(label: str, value=None) -> str:
    """An input as the player gave it, in the table's words for it: a yes/no input by its label
    ('The defender is encircled (out of supply, 9.2)'), a value after its label otherwise."""
    if value is None or isinstance(value, bool):
        return label
    if isinstance(value, list):
        value = ", ".join(map(str, value))
    return f"{label} {value}"


def _uses(n: int | None) -> str:
    """' each time, at most three times' for a rule a player applies several times."""
    if n == 1:
        return ""
    return " each time" + (f", at most {number(n)} times" if n else "")


def _cites(text: str, source: str) -> str:
    """text with ' (source)' after it, unless it already cites that rule number."""
    if not source or source in text:
        return text
    return f"{text} ({source})"


def labelled(label: str, what: str) -> str:
    """'Label: what', or 'Label — what' when the label already has a colon in it."""
    return label + (" — " if ":" in label else ": ") + what


def rule(game, t, r) -> str:
    """One rule as the sentence every output prints: '{label}: {effect} {when} ({rule number})'."""
    what = effect(game, t, r)
    if r.when is None:
        what += _uses(r.max_uses)
    if r.effect == "cancels":
        what += ", down to none"
    cite = r.source or (r.prohibited if r.effect == "prohibited" else "")
    if r.effect == "prohibited" and r.prohibited != cite:
        what = _cites(what, r.prohibited)
    if r.when is not None:
        when = condition(game, t, r.when)
        what += (", " if ", " in what else " ") + when
    if r.group:
        what += f"; not cumulative with other {r.group.replace('-', ' ')} rules: only the " \
                "strongest counts"
    return _cites(labelled(r.label, what), cite)


def rules(game, t) -> list[str]:
    """Every rule of a table, one sentence each, and how several combine when that is not
    simply 'all of them'."""
    out = [rule(game, t, r) for r in t.rules]
    if len(t.rules) > 1 and t.rules_combine == "best-for-defender":
        out.append("When several of these rules change the same thing, only the one best for the "
                   "defender counts.")
    elif len(t.rules) > 1 and t.rules_combine == "first":
        out.append("When several of these rules change the same thing, only the first listed "
                   "counts.")
    return out


# --- a table's own modifiers and shifts (not rules) ------------------------------------------
def modifier(game, t, m) -> str:
    """A listed roll modifier: 'Woods terrain in hex: +2 to the roll, by itself when the target
    is in a Woods hex; only the highest terrain modifier counts (17.5)'."""
    if m.values:
        return _cites(labelled(m.label, either([signed(v) for v in m.values])
                               + " to the roll, as it applies"), m.source)
    text = f"{signed(m.value)} to the roll"
    if m.max_uses and m.max_uses > 1:
        text += _uses(m.max_uses)
    where = []
    role = _ROLE_NOUN[_PLACE_ROLE.get(t.kind, "defender")]
    if m.terrain:
        where.append(_in_terrain(game, m.terrain))
    if m.regions:
        where.append("in " + either(region_names(game, m.regions)))
    if where:
        text += f" when {role} is " + " or ".join(where)
    if m.group:
        text += f"; only the highest {m.group.replace('-', ' ')} modifier counts"
    return _cites(labelled(m.label, text), m.source)


def shift(game, t, s) -> str:
    """A listed column shift a player applies: 'Air support: one column right each time, at
    most two times (15.1)'."""
    text = f"{plural(abs(s.columns), 'column')} {'right' if s.columns > 0 else 'left'}" \
        + _uses(s.max_uses)
    return _cites(labelled(s.label, text), s.source)


# --- the working: how rules combine, and what is not decided --------------------------------
def times(n: int) -> str:
    """What follows a rule's sentence when a player applies it n times (' — 2 times')."""
    return f" — {n} times" if n > 1 else ""


def not_decided(sentence: str, needs: list[str]) -> str:
    """A rule the inputs do not decide: 'Not applied without the turn: {sentence}'."""
    return f"Not applied without {either(needs, 'and')}: {sentence}"


def strongest_of(group: str, labels: list[str], best: str) -> str:
    """Several rules of one group apply: only the strongest counts."""
    return (f"Not cumulative ({group.replace('-', ' ')}): {either(labels, 'and')}; only the "
            f"strongest counts: {best}")


# what each stage of a calculation changes (builder.tables.effects.STAGES), for the working
STAGE_WORDS = {"attack": "the attack strength", "defence": "the defence strength",
               "column": "the column read", "shift": "the column", "cap": "the best column",
               "roll": "the roll", "cancel": "another rule"}


def combined(mode: str, stage: str, label: str) -> str:
    """Several rules change one thing and the table takes only one of them."""
    what = STAGE_WORDS.get(stage, "the same thing")
    if mode == "first":
        return f"Only the first rule listed that changes {what} counts: {label}"
    return f"Only the rule best for the defender that changes {what} counts: {label}"


def beyond(t, end: str, how: str = "") -> str:
    """What happens past an end of the table ('low' or 'high'): odds or a differential off the
    table, or a shift past its first or last column, as one sentence (how: the table's
    beyond_low / beyond_high, unless given)."""
    how = how or getattr(t, f"beyond_{end}", "")
    low = end == "low"
    if t.kind == "ratio":
        off = f"Odds {'below' if low else 'above'} {t.columns[0 if low else -1]}"
    elif t.kind == "fire":
        off = f"A {t.strength} {'below' if low else 'above'} the {'first' if low else 'last'} column"
    else:
        off = f"A differential {'below' if low else 'above'} a row's {'first' if low else 'last'} band"
    where = f"{off}, or shifted past the {'first' if low else 'last'} column"
    if how == "not-allowed":
        return _cites(f"{where}: the attack is not allowed", t.source) + "."
    return f"{where}: the {'first' if how == 'first-column' else 'last'} column is read."


def cannot(t, at: str) -> str:
    """Why an attack is refused at these odds or this differential, with the rule number."""
    return _cites(f"the attack cannot be made at {at}", t.source)


# --- table settings --------------------------------------------------------------------------
def _beyond(t, what: str) -> list[str]:
    return [beyond(t, end) for end in ("low", "high")
            if getattr(t, f"beyond_{end}", "") in ("first-column", "last-column", "not-allowed")]


def _unit(game) -> str:
    return "hex" if getattr(game, "is_hex", True) else "sector"


def _effect_values(game, effect_key: str, hexsides: bool = False,
                   divisor: bool = False) -> str:
    """'Forest 2, Town 2 and City 3 (4.2)': each terrain (and hexside) type that has this effect,
    with its value, and the rules that say so ('' when none has it)."""
    kinds = list(game.map.terrain_types) + (list(getattr(game.map, "hexside_types", ()))
                                            if hexsides else [])
    out, sources = [], []
    for k in kinds:
        v = k.effects.get(effect_key)
        if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) or (divisor and v == 1):
            continue
        shown = f"{v:g}" if isinstance(v, float) else (signed(v) if effect_key == "shift" else str(v))
        out.append(f"{k.name} {shown}")
        if k.source and k.source not in sources:
            sources.append(k.source)
    return _cites(either(out, "and"), ", ".join(sources)) if out else ""


def settings(game, t) -> list[str]:
    """A table's own settings as sentences, by kind (no field names, no raw values)."""
    kind = t.kind
    out: list[str] = []
    defence = _defence(game)
    if kind == "differential":
        out.append(f"Differential: attack strength minus {defence} strength. Read the row of the "
                   "defender's terrain (the one best for the defender when several apply); with "
                   f"no terrain row, the {t.default_row} row.")
        if any(row.hexsides for row in t.terrain_rows):
            who = "every attacking unit attacks" if t.hexside_applies == "all" else \
                "any attacking unit attacks"
            out.append(f"A hexside row applies when {who} across that hexside.")
        if t.defence_effect:
            vals = _effect_values(game, t.defence_effect, divisor=True)
            if vals:
                out.append(f"Terrain divides the {defence} strength, fractions rounded down: "
                           + vals + ".")
        out += _beyond(t, "attack")
    elif kind == "ratio":
        out.append(f"Odds: attack strength to {defence} strength, {rounding(t.rounding)}.")
        if t.rounding_note:
            out.append(t.rounding_note)
        if t.rounding_below:
            out.append(f"Below 1:1 the odds are {rounding(t.rounding_below)}.")
        if t.result_format == "attacker/defender":
            out.append("Each result reads attacker losses / defender losses.")
        if t.terrain_effect:
            vals = _effect_values(game, t.terrain_effect, divisor=True)
            how = "only the one best for the defender counts" if \
                t.terrain_choice == "best-for-defender" else "they all count"
            if vals:
                out.append("Terrain divides the attack strength: " + vals
                           + f"; with several in the {_unit(game)}, {how}"
                           + (f"; strengths {rounding(t.divisor_rounding)}"
                              if t.divisor_rounding else "") + ".")
        shifts = _effect_values(game, t.shift_effect, hexsides=True)
        if shifts:
            out.append("Terrain and hexsides shift the column (+ right, − left): " + shifts + ".")
        if t.edge_cap:
            out.append(f"At most {t.edge_cap} strength points count across one sector edge, "
                       + ("attacking or defending." if t.edge_cap_defence else "attacking."))
        if t.fire_first:
            fire = next((x.name for x in game.tables if x.id == t.fire_first), t.fire_first)
            out.append(f"The defender first fires on the attackers ({fire}); those losses come off "
                       "the attack.")
        if t.retreat_reduces:
            out.append(f"The defender may retreat one sector to reduce its loss by "
                       f"{t.retreat_reduces}.")
        out += _beyond(t, "attack")
    elif kind == "fire":
        out += _fire(t)
        if t.terrain_effect:
            vals = _effect_values(game, t.terrain_effect, divisor=True)
            if vals:
                out.append("The target's terrain divides the loss, " + rounding(t.rounding) + ": "
                           + vals + ".")
    elif kind == "modified-roll":
        out.append(f"Roll {t.dice} and add the modifiers: below the first row read the first, "
                   "above the last read the last.")
        for k, v in t.natural.items():
            out.append(f"A natural {k}: {v}, whatever the modifiers.")
        if t.attempts > 1:
            out.append(f"Up to {number(t.attempts)} rolls against one target; it suffers the first "
                       "effect rolled only.")
    elif kind == "lookup":  # the key is the table's first heading; other inputs and their range
        for i in t.inputs:
            if i.id != t.key:
                out.append(f"{i.name}: {i.min} to {i.max}.")
    elif kind == "line-of-sight":
        out += sight(game, t)
    elif kind == "range":
        out.append(f"The {t.target} must be at most {plural(t.max, 'hex', 'hexes')} from the "
                   f"{t.origin}.")
    elif kind == "limit":
        out.append(limit(t) + ".")
    return out


def _fire(t) -> list[str]:
    """A fire table's own settings: columns, rows, the fire group, natural rolls, markers."""
    out = []
    modified = bool(t.modifiers or any(r.effect == "drm" for r in t.rules))
    numbers = all(re.fullmatch(r"\d+|-|—", c) for row in t.results.values() for c in row)
    what = t.strength
    if t.fire_group:
        out.append(f"Columns: the fire group's total {what}. Each firing unit's {what} is "
                   "changed first by what applies to that unit alone, then the units are added "
                   f"up; a fraction is {rounding(t.firepower_rounding)}.")
    elif t.bands:
        out.append(f"Read the column of the firing unit's {what}"
                   + (" (exact values only)" if t.exact_bands else "") + ".")
    if modified:
        out.append(f"Roll {t.dice} and add the modifiers: read the row of the modified roll; "
                   "below the first row read the first, above the last read the last.")
    if numbers:
        out.append("The number read is the target's loss.")
    for k, v in t.natural.items():
        out.append(f"A natural {k}: {v}, whatever the modifiers.")
    if t.attempts > 1:
        out.append(f"Up to {number(t.attempts)} rolls against one target; it suffers the first "
                   "effect rolled only.")
    return out


def limit(t) -> str:
    """A limit table's rule: 'At most 80 strength points in one sector'."""
    what = "strength points" if t.counts == "strength" else "units"
    return f"At most {t.most} {what if t.most != 1 else what[:-1]} in one {t.place}"


def sight(game, t) -> list[str]:
    """A line-of-sight table's settings as sentences."""
    out = [f"A line of sight reaches {plural(t.max_range, 'hex', 'hexes')}"
           + (f"; on a night turn, {plural(t.night_range, 'hex', 'hexes')}"
              if t.night_range is not None else "") + "."]
    if t.adjacent_always:
        out.append("An adjacent hex is always seen.")
    out.append("Lines run from any corner of the observer's hex to any corner of the target's."
               if t.corner_to_corner else "Lines run from the centre of one hex to the centre of "
               "the other.")
    clear = terrain_names(game, t.clear_terrain)
    default = terrain_names(game, [game.map.default_terrain])[0] if getattr(
        game.map, "default_terrain", "") else ""
    never = [x for x in [default] + clear if x]
    if never:
        out.append(f"{either(never, 'and')} never block{'s' if len(never) == 1 else ''} a line of "
                   "sight.")
    out += _levels(game, t)
    if t.spotter:
        spotter = article(t.spotter)
        out.append(f"{spotter[:1].upper() + spotter[1:]} observes its own hex and the adjacent ones, "
                   "whatever the terrain.")
    return out


def _levels(game, t) -> list[str]:
    """The map's levels, obstacle heights, crests and walls, and blind hexes, as sentences."""
    terrain = list(game.map.terrain_types)
    clear = {getattr(game.map, "default_terrain", ""), *t.clear_terrain}
    raised = [f"{x.name} {x.level}" for x in terrain if x.level]
    tall = [f"{x.name} {x.height if x.height is not None else 1}" for x in terrain
            if x.id not in clear and (x.height is None or x.height)]
    out = []
    if raised or getattr(game, "hex_levels", None):
        out.append("Ground levels: " + (either(raised, "and") if raised else "as the map shows")
                   + "; any other ground is level 0" + (" unless the map marks its level"
                                                       if getattr(game, "hex_levels", None)
                                                       else "") + ".")
    if tall:
        out.append("Obstacles stand so many levels above their ground: " + either(tall, "and")
                   + ".")
    sides = [x for x in getattr(game.map, "hexside_types", ()) if x.sight]
    for x in sides:
        extra = x.height if x.height is not None else (1 if x.sight == "wall" else 0)
        out.append(f"{x.name}: " + ("the edge of higher ground, as high as the higher hex"
                                    if x.sight == "crest" else "an obstacle on the higher hex")
                   + (f", plus {plural(extra, 'level')}" if extra else "") + ".")
    out.append("Terrain between the two hexes blocks when it stands higher than the lower one and "
               "at least as high as the higher one; the two hexes' own terrain and sides never "
               "block, and sight is the same both ways.")
    if t.blind_hexes:
        out.append(f"Seen from higher ground, the {plural(t.blind_hexes, 'hex', 'hexes')} "
                   "directly behind lower terrain that still stands above the lower hex are "
                   "hidden.")
    return out


def lines(game, t) -> list[str]:
    """What a card (or the aid's table notes) prints under a table, in reading order: its
    settings, listed shifts and modifiers, and rules."""
    out = settings(game, t)
    out += [shift(game, t, s) for s in getattr(t, "shifts", ())]
    out += [modifier(game, t, m) for m in getattr(t, "modifiers", ())]
    out += rules(game, t)
    return out


# --- terrain effects -------------------------------------------------------------------------
def effect_heading(game, key: str) -> str:
    """The heading a terrain effects chart prints over an effect: what a table does with it
    ('Attack divided by', 'Column shift'), else the designer's key in words ('Movement')."""
    from builder.views import key_label

    said = []
    for t in game.tables:
        uses = {"ratio": ((t.kind == "ratio" and t.terrain_effect == key, "attack divided by"),
                          (t.kind == "ratio" and t.shift_effect == key, "column shift")),
                "differential": ((getattr(t, "defence_effect", "") == key,
                                  f"{_defence(game)} divided by"),),
                "fire": ((getattr(t, "terrain_effect", "") == key, "loss divided by"),)}
        for used, what in uses.get(t.kind, ()):
            if used and what not in said:
                said.append(what)
    if not said:
        return key_label(key)
    if len(said) > 1 and all(w.endswith(" divided by") for w in said):
        said = [either([w[: -len(" divided by")] for w in said], "and") + " divided by"]
    text = either(said, "and")
    return text[:1].upper() + text[1:]


def table_effect(game, t, key: str, value) -> str:
    """What one table does with a terrain's effect value, for a choice or a note: 'attack divided
    by 2', 'one column left', 'defense divided by 2', 'loss divided by 3'."""
    if t.kind == "ratio" and key == t.shift_effect and isinstance(value, int):
        return plural(abs(value), "column") + (" right" if value > 0 else " left")
    what = {"ratio": "attack", "differential": _defence(game), "fire": "loss"}.get(t.kind, "")
    if what and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{what} divided by {effect_value(value)}"
    from builder.views import key_label

    return f"{key_label(key).lower()} {effect_value(value)}"


def effect_parts(game, key: str, value) -> tuple[str, str]:
    """One terrain effect as a player reads it, heading and value: ('Defense divided by', '2'),
    ('Prohibited', '') rather than 'Prohibited: yes', ('No trench benefit', '') rather than
    'Trench benefit: none', ('Movement', 'no effect') rather than 'Movement: 0'."""
    heading = effect_heading(game, key)
    if value is True or (isinstance(value, str) and value.strip().lower() == "yes"):
        return heading, ""
    if isinstance(value, str) and value.strip().lower() == "none":
        return f"No {heading[:1].lower()}{heading[1:]}", ""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
        return heading, "no effect"
    return heading, effect_value(value)


def effect_line(game, key: str, value) -> str:
    """One terrain effect as a chart line says it: 'Defense divided by: 2', 'Prohibited'."""
    heading, said = effect_parts(game, key, value)
    return f"{heading}: {said}" if said else heading


def effect_value(value) -> str:
    """A terrain effect's value as printed: 'yes', 'no', '2', '-1', '1/2 MP'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
