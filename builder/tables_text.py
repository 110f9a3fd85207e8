"""A table as plain text for the terminal, laid out like the printed card."""

from __future__ import annotations

from builder.model.tables import (ChartTable, DifferentialTable, FireTable, LookupTable,
                                  ModifiedRollTable, RatioTable)


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def table_text(t) -> str:
    out = [f"{t.name}  [{t.id}, {t.kind}]"]
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
        for m in t.modifiers:
            out.append(f"  {m.value:+d}  {m.label}" + (f"  (only the highest of '{m.group}')" if m.group else ""))
        for k, v in t.natural.items():
            out.append(f"  natural {k}: {v}, whatever the modifiers")
    elif isinstance(t, LookupTable):
        out += _grid([t.dice or t.key, "result"], [[e.when, e.result] for e in t.entries])
    elif isinstance(t, ChartTable):
        out += _grid(list(t.columns), [list(r) for r in t.rows])
    for code, meaning in t.legend.items():
        out.append(f"  {code}: {meaning}")
    for note in t.notes:
        out.append(f"  * {note}")
    return "\n".join(out)
