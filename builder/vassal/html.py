"""Charts and rules as HTML for VASSAL's chart window (Swing renders HTML 3.2: plain tags only).

Tables are drawn from their data (the same definitions the print cards and calculators use);
the rules keep their numbering, each section an anchor and each cited section number a link.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it import MarkdownIt

from builder.model.game_model import Game
from builder.model.tables import (
    ChartTable,
    DifferentialTable,
    FireTable,
    LookupTable,
    ModifiedRollTable,
    RatioTable,
)
from builder.tables_text import table_text

_CITED = re.compile(r"(?<![\d.\w])(\d+(?:\.(?:\d+|[A-Z]{1,2}|[a-z])\b)+)")
_STYLE = ("body { font-family: sans-serif; font-size: 11pt; margin: 8px; } "
          "th { background-color: #e4ddc8; } td, th { padding: 2px 6px; } "
          "h1 { font-size: 16pt; } h2 { font-size: 14pt; } h3 { font-size: 12pt; } "
          "h4 { font-size: 11pt; }")


def page(title: str, body: str) -> str:
    """A whole HTML page as the chart window shows it."""
    return (f"<html><head><title>{escape(title)}</title><style type=\"text/css\">{_STYLE}</style>"
            f"</head><body>\n{body}\n</body></html>\n")


def anchor(section_id: str) -> str:
    """The anchor name of a rules section ('16.1' -> 's16-1')."""
    return "s" + re.sub(r"[^A-Za-z0-9]+", "-", section_id)


def _grid(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td align=\"center\">{escape(str(c))}</td>" for c in r)
                   + "</tr>\n" for r in rows)
    return f"<table border=\"1\" cellspacing=\"0\">\n<tr>{head}</tr>\n{body}</table>\n"


def table_html(t) -> str:
    """One table as HTML: its grid by kind, then modifiers, legend and notes."""
    out = [f"<h2>{escape(t.name)}</h2>"]
    if isinstance(t, DifferentialTable):
        width = t.columns
        rows = [[r.name] + list(r.differentials) + [""] * (width - len(r.differentials))
                for r in t.terrain_rows]
        out.append(_grid(["Terrain"] + [f"col {i + 1}" for i in range(width)], rows))
        out.append(_grid([t.dice] + [f"col {i + 1}" for i in range(width)],
                         [[k] + list(v) for k, v in t.results.items()]))
    elif isinstance(t, (RatioTable, FireTable)):
        cols = list(t.columns if isinstance(t, RatioTable) else t.bands)
        out.append(_grid([t.dice] + cols, [[k] + list(v) for k, v in t.results.items()]))
    elif isinstance(t, ModifiedRollTable):
        out.append(_grid([f"{t.dice} + modifiers", "Result"], [[k, v] for k, v in t.results.items()]))
        if t.natural:
            out.append(_grid(["Natural roll", "Result"], [[k, v] for k, v in t.natural.items()]))
    elif isinstance(t, LookupTable):
        out.append(_grid([t.dice or t.key, "Result"],
                         [[e.when, e.result + (f" ({e.detail})" if e.detail else "")]
                          for e in t.entries]))
    elif isinstance(t, ChartTable):
        out.append(_grid(list(t.columns), [list(r) for r in t.rows]))
    else:
        lines = table_text(t).splitlines()[1:]
        out.append("<pre>" + escape("\n".join(lines)) + "</pre>")
    mods = list(getattr(t, "modifiers", ())) + list(getattr(t, "shifts", ()))
    if mods:
        items = []
        for m in mods:
            amount = f"{m.value:+d}" if hasattr(m, "value") else f"{m.columns:+d} column(s)"
            items.append(f"<li>{escape(amount)}: {escape(m.label)}</li>")
        out.append("<p><b>Modifiers and shifts</b></p><ul>" + "".join(items) + "</ul>")
    if t.legend:
        out.append("<p><b>Key</b></p><ul>" + "".join(
            f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in t.legend.items()) + "</ul>")
    for n in t.notes:
        out.append(f"<p>* {escape(n)}</p>")
    return "\n".join(out)


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _link_sections(html: str, known: set[str]) -> str:
    """Turn cited section numbers in text (not inside tags or links) into links."""
    parts = re.split(r"(<[^>]+>)", html)
    out = []
    in_link = False
    for part in parts:
        if part.startswith("<"):
            if part.startswith("<a "):
                in_link = True
            elif part == "</a>":
                in_link = False
            out.append(part)
            continue
        if in_link:
            out.append(part)
            continue
        out.append(_CITED.sub(
            lambda m: f"<a href=\"#{anchor(m.group(1))}\">{m.group(1)}</a>"
            if m.group(1) in known else m.group(1), part))
    return "".join(out)


def rules_html(game: Game) -> str:
    """The rules: contents with links, then every section under its anchor."""
    rules = game.rules
    md = _markdown()
    known = {s.id for s in rules.sections}
    toc = ["<h1>" + escape(rules.title) + "</h1>", "<p><b>Contents</b></p>", "<ul>"]
    for s in rules.sections:
        indent = "&nbsp;" * 4 * max(0, s.level - 2)
        toc.append(f"<li>{indent}<a href=\"#{anchor(s.id)}\">{escape(s.id)} {escape(s.title)}</a></li>")
    toc.append("</ul>")
    body = []
    for s in rules.sections:
        level = min(max(s.level, 2), 4)
        body.append(f"<a name=\"{anchor(s.id)}\"></a><h{level}>{escape(s.id)} {escape(s.title)}"
                    f"</h{level}>")
        body.append(_link_sections(md.render(s.text), known))
    return page(rules.title, "\n".join(toc + body))


def sequence_html(game: Game) -> str:
    """The sequence of play and the turn record."""
    out = ["<h2>Sequence of play</h2>", "<ol>"]
    for p in game.info.sequence:
        side = game.sides[p.side].name if p.side in game.sides else ""
        steps = "".join(f"<li>{escape(s)}</li>" for s in p.steps)
        skip = (f" (not on turn {', '.join(map(str, p.skip_on_turns))})" if p.skip_on_turns else "")
        out.append(f"<li><b>{escape(p.name)}</b>{' (' + escape(side) + ')' if side else ''}"
                   f"{escape(skip)}" + (f"<ul>{steps}</ul>" if steps else "") + "</li>")
    out.append("</ol>")
    details = {d.number: d for d in game.info.turns.detail}
    first = game.info.turns.first
    rows = []
    for n in range(first, first + game.info.turns.count):
        d = details.get(n)
        rows.append([str(n), d.name if d else "", "night" if d and d.night else "", d.note if d else ""])
    out.append("<h2>Turn record</h2>")
    out.append(_grid(["Turn", "Name", "", "Note"], rows))
    return page("Sequence of play", "\n".join(out))
