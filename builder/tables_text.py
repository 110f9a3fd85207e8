"""A table as plain text for the terminal, laid out like the printed card."""

from __future__ import annotations

from builder.model.tables import (
    ChartTable,
    DifferentialTable,
    FireTable,
    LookupTable,
    ModifiedRollTable,
    RatioTable,
)


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    return [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def table_text(game, t) -> str:
    """A table as the terminal shows it: its grid, then what the card says under it in
    sentences (builder.words), its key and its notes."""
    from builder import words

    out = [f"{t.name}  [{t.id}]"]
    if isinstance(t, DifferentialTable):
        for row in t.terrain_rows:
            out.append(f"  {row.name:28} " + " ".join(f"{b:>7}" for b in row.differentials))
        out.append(f"  {t.dice}:")
        for roll, cells in t.results.items():
            out.append(f"  {roll:28} " + " ".join(f"{c:>7}" for c in cells))
    elif isinstance(t, (RatioTable, FireTable)):
        cols = list(t.columns if isinstance(t, RatioTable) else t.bands)
        out += _grid([t.dice] + cols, [[roll] + list(cells) for roll, cells in t.results.items()])
    elif isinstance(t, ModifiedRollTable):
        out += _grid(["roll", "result"], [[k, v] for k, v in t.results.items()])
    elif isinstance(t, LookupTable):
        out += _grid([t.dice or t.key, "result"],
                     [[words.entry(t, e.when), e.result] for e in t.entries])
    elif isinstance(t, ChartTable):
        out += _grid(list(t.columns), [list(r) for r in t.rows])
    out += [f"  {line}" for line in words.lines(game, t)]
    for code, meaning in t.legend.items():
        out.append(f"  {code}: {meaning}")
    for note in t.notes:
        out.append(f"  * {note}")
    return "\n".join(out)


# --- calculations and calculator listings (the `calc` and `tables` commands) ----------------
BAR = 30


def calculation_text(calc) -> str:
    """A calculation as the terminal shows it: working, result, odds as bars, expectations, notes."""
    from builder.tables.result import fraction_text

    out = [f"{calc.name}  [{calc.game} {calc.table}]"]
    given = {k: calc.inputs[k] for k in calc.given if k in calc.inputs}
    if given:
        out.append("  " + "  ".join(f"{k}={_value(v)}" for k, v in given.items()))
    out.append("")
    for i, s in enumerate(calc.steps, 1):
        out.append(f"  {i:>2}. {s}")
    for u in calc.unused:
        out.append(f"   -  {u['text']}")
    if calc.outcome is not None and calc.roll is not None:
        out.append("")
        out.append(f"  RESULT: {calc.outcome.result}"
                   + (f"  ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
    elif calc.outcome is not None and len(calc.distribution) <= 1:
        out.append("")
        out.append(f"  ANSWER: {calc.outcome.result}"
                   + (f"  ({calc.outcome.meaning})" if calc.outcome.meaning else ""))
    if calc.distribution and calc.roll is None and len(calc.distribution) > 1:
        out.append("")
        out.append("  odds of each result" + (f" on {calc.column}" if calc.column else "") + ":")
        width = max(len(o.result) for o, _ in calc.distribution)
        for o, p in calc.distribution:
            bar = "#" * round(float(p) * BAR)
            out.append(f"    {o.result:<{width}}  {float(p) * 100:5.1f}%  {fraction_text(p):>7}  "
                       f"{bar:<{BAR}}  {o.meaning}".rstrip())
    if calc.expected:
        out.append("")
        out.append("  expected: " + ", ".join(f"{k} {float(v):.3f} ({fraction_text(v)})"
                                             for k, v in calc.expected.items()))
    if calc.notes:
        out.append("")
        out.append("  notes:")
        for n in calc.notes:
            out.append(f"  * {n}")
    return "\n".join(out)


def _value(v) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def calculators_text(entries: list[dict]) -> str:
    """Every calculator with its inputs, types and allowed values."""
    out = []
    for e in entries:
        head = f"{e['id']}  [{e['kind']}{', ' + e['dice'] if e.get('dice') else ''}]  {e['name']}"
        if e.get("source"):
            head += f"  ({e['source']})"
        if e.get("assumed") == ["*"]:
            head += "  (reconstructed: not in the rule documents)"
        elif e.get("assumed"):
            head += f"  (reconstructed: {', '.join(e['assumed'])})"
        out.append(head)
        for i in e["inputs"]:
            need = "required" if i["required"] else (f"default {_value(i['default'])}"
                                                     if i["default"] not in (None, []) else "optional")
            out.append(f"    {i['id']}=  ({i['type']}, {need})  {i['label']}")
            out.append(f"        allowed: {i['allowed']}")
        if e.get("dice"):
            out.append(f"    --roll  ({e['dice']}, optional)  without it, the odds of every result")
        out.append("")
    return "\n".join(out).rstrip()
