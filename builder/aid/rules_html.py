"""The rules text as HTML: Markdown rendered with raw HTML off, cross-references made links.

Markdown comes from the sources, so raw HTML in it is shown as text, never passed through.
A cited section number ('see 17.3') becomes a link to that section's anchor; one that points
nowhere is marked so the reader sees it has no target.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from builder.aid.rules_tables import accessible_tables
from builder.model.scenario import Rules, Section


def anchor(section_id: str) -> str:
    """The HTML id of a section ('17.3' -> 'r-17.3')."""
    return "r-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", section_id)


@dataclass(frozen=True)
class RenderedSection:
    id: str
    anchor: str
    title: str
    level: int
    html: str
    refs: tuple[str, ...]  # cited sections that exist
    missing: tuple[str, ...]  # cited sections that point nowhere
    text: str  # plain words, for search


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    # links written in the sources could point off the page: keep only in-page anchors
    md.validateLink = lambda url: url.startswith("#")
    return md


def _ref_pattern(ids: list[str]) -> re.Pattern | None:
    if not ids:
        return None
    alts = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])({alts})(?![\w]|\.\w)")


def _link_refs(tokens: list[Token], pattern: re.Pattern, known: set[str]) -> None:
    """Split text tokens so each cited number is a link (or a marked dead reference)."""
    for tok in tokens:
        if tok.type != "inline" or not tok.children:
            continue
        out: list[Token] = []
        depth = 0  # inside an existing link: leave the text alone
        for child in tok.children:
            if child.type == "link_open":
                depth += 1
            elif child.type == "link_close":
                depth -= 1
            if child.type != "text" or depth or not pattern.search(child.content):
                out.append(child)
                continue
            pos = 0
            for m in pattern.finditer(child.content):
                if m.start() > pos:
                    out.append(_text(child.content[pos:m.start()]))
                ref = m.group(1)
                if ref in known:
                    open_ = Token("link_open", "a", 1)
                    open_.attrs = {"href": "#" + anchor(ref), "class": "xref"}
                    out += [open_, _text(ref), Token("link_close", "a", -1)]
                else:
                    open_ = Token("span_open", "span", 1)
                    open_.attrs = {"class": "xref-missing",
                                   "title": f"{ref} is not in these rules"}
                    out += [open_, _text(ref), Token("span_close", "span", -1)]
                pos = m.end()
            if pos < len(child.content):
                out.append(_text(child.content[pos:]))
        tok.children = out


def _text(content: str) -> Token:
    t = Token("text", "", 0)
    t.content = content
    return t


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*_`>#|]+", " ", text).split())


def render_rules(rules: Rules, unique=lambda name: name) -> list[RenderedSection]:
    """Every section as safe HTML with cross-reference links; unique(name) names each table's
    scrolling region once on the page."""
    md = _markdown()
    known = {s.id for s in rules.sections}
    out = []
    for s in rules.sections:
        refs = tuple(r for r in s.refs if r in known)
        missing = tuple(r for r in s.refs if r not in known)
        tokens = md.parse(s.text)
        pattern = _ref_pattern(list(s.refs))
        if pattern:
            _link_refs(tokens, pattern, known)
        label = section_label(s)
        tokens = accessible_tables(tokens, lambda n, caption, label=label: unique(
            f"{label}: {caption}" if caption else f"{label}, table {n}"))
        html = md.renderer.render(tokens, md.options, {})
        out.append(RenderedSection(s.id, anchor(s.id), s.title, s.level, html, refs, missing,
                                   _plain(f"{s.id} {s.title} {s.text}")))
    return out


def section_label(s: Section | RenderedSection) -> str:
    """'17.3 Observation', or the title alone for an unnumbered section."""
    return f"{s.id} {s.title}" if s.id[:1].isdigit() else s.title
