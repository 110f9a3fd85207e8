"""The rules as HTML for VASSAL's chart window (Swing renders HTML 3.2: plain tags only).

The rules keep their numbering: each section an anchor, each cited section number a link.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it import MarkdownIt

from builder.model.game_model import Game

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


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    # VASSAL's viewer would fetch a remote image or open a link: keep only in-page anchors
    md.validateLink = lambda url: url.startswith("#")
    return md


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
        link = f"<a href=\"#{anchor(s.id)}\">{escape(s.id)} {escape(s.title)}</a>"
        toc.append(f"<li>{indent}{link}</li>")
    toc.append("</ul>")
    body = []
    for s in rules.sections:
        level = min(max(s.level, 2), 4)
        body.append(f"<a name=\"{anchor(s.id)}\"></a><h{level}>{escape(s.id)} {escape(s.title)}"
                    f"</h{level}>")
        body.append(_link_sections(md.render(s.text), known))
    return page(rules.title, "\n".join(toc + body))
