"""rules.md: Markdown whose headings start with the section number ('### 16.1 Title')."""

from __future__ import annotations

import re
from pathlib import Path

from builder.errors import Collector
from builder.model.scenario import Rules, Section

MAX_SECTIONS = 10_000  # a very long rulebook has a few thousand numbered cases
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SECTION_NUMBER = re.compile(r"^\d+(?:\.[0-9]+[a-z]?|\.[A-Z]{1,2}|\.[a-z])*$")
_CITED = re.compile(r"(?<![\d.])(\d+(?:\.(?:\d+|[A-Z]{1,2}|[a-z])\b)+)")
_ATTRIBUTES = re.compile(r"\s*\{([^{}]*)\}\s*$")  # '{assumed note="why"}' ending a heading
_ATTRIBUTE = re.compile(r'\s*([A-Za-z_]+)(?:\s*=\s*"([^"]*)")?\s*')
HEADING_KEYS = ("assumed", "source", "note")
_WORD_CUE = re.compile(r"\b(?:see|per|rule|rules|case|cases|under|and|or|as per|in|of)\s+$", re.IGNORECASE)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def parse_rules(text: str, path: Path, errors: Collector) -> Rules | None:
    """Split the text into sections; note a missing title and duplicate section numbers."""
    lines = text.splitlines()
    title = ""
    sections: list[dict] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        m = _HEADING.match(line)
        if not m:
            if sections:
                sections[-1]["body"].append(line)
            continue
        level, heading = len(m.group(1)), m.group(2)
        heading, marks = _heading_attributes(heading, path, number, errors)
        if level == 1:
            if title:
                errors.add(path, f"line {number}", "a second '# ' title", "use '## ' for sections")
            title = heading
            continue
        first, _, rest = heading.partition(" ")
        if SECTION_NUMBER.match(first.rstrip(".")):
            sid, name = first.rstrip("."), rest.strip()
        else:
            sid, name = slug(heading), heading
        if sid in seen:
            errors.add(path, f"line {number}", f"section {sid} is given twice (first at line {seen[sid]})",
                       "renumber or merge the two sections")
            continue
        if len(seen) >= MAX_SECTIONS:
            errors.add(path, f"line {number}", f"has more than {MAX_SECTIONS:,} sections",
                       "check the file: is every line a heading?")
            return None
        seen[sid] = number
        sections.append({"id": sid, "title": name, "level": level, "line": number, "body": [],
                         "marks": marks})
    if not title:
        errors.add(path, "line 1", "has no title line", "start the file with '# Game Title'")
        return None
    if not sections:
        errors.add(path, "", "has no sections", "add headings such as '## 1.0 Introduction'")
        return None
    ids = set(seen)
    built = []
    for s in sections:
        body = "\n".join(s["body"]).strip()
        built.append(Section(id=s["id"], title=s["title"], level=s["level"], line=s["line"],
                             text=body, refs=tuple(cited_sections(body)), **s["marks"]))
    majors = {sid.split(".")[0] for sid in ids}
    built = [b.model_copy(update={"refs": tuple(r for r in b.refs if not r.startswith("(")
                                                or r[1:].split(".")[0] in majors)})
             for b in built]
    built = [b.model_copy(update={"refs": tuple(r.lstrip("(") for r in b.refs)}) for b in built]
    return Rules(title=title, sections=tuple(built))


def _heading_attributes(heading: str, path: Path, number: int, errors: Collector) -> tuple[str, dict]:
    """The heading without its attribute block, and the provenance the block gives."""
    m = _ATTRIBUTES.search(heading)
    if not m:
        return heading, {}
    marks: dict = {}
    rest = m.group(1)
    pos = 0
    while pos < len(rest):
        a = _ATTRIBUTE.match(rest, pos)
        if not a or a.end() == pos:
            errors.add(path, f"line {number}", f"cannot read the heading attributes {{{rest}}}",
                       'write {assumed}, {source="11.2"} or {assumed note="why"}')
            return heading[: m.start()].rstrip(), {}
        pos = a.end()
        key, value = a.group(1), a.group(2)
        if key not in HEADING_KEYS:
            errors.add(path, f"line {number}", f"unknown heading attribute '{key}'",
                       f"use one of: {', '.join(HEADING_KEYS)}")
        elif key == "assumed":
            marks["assumed"] = True if value is None else tuple(v.strip() for v in value.split(";"))
        elif value is None:
            errors.add(path, f"line {number}", f"heading attribute '{key}' needs a value",
                       f'write {key}="..."')
        else:
            marks[key] = value
    return heading[: m.start()].rstrip(), marks


def cited_sections(text: str) -> list[str]:
    """Section numbers the text cites ('see 16.1', 'per 13.0'), in order, once each.

    A number only in brackets ('(9.1.2)') comes back as '(9.1.2)': the caller keeps it when the
    rules have that major section, since '(13.5)' is as likely a value as a citation.
    """
    found: list[str] = []
    for m in _CITED.finditer(text):
        before = text[max(0, m.start() - 12): m.start()]
        if _WORD_CUE.search(before):
            ref = m.group(1)
        elif before.endswith("("):
            ref = "(" + m.group(1)
        else:
            continue
        if ref not in found and ref.lstrip("(") not in found:
            found.append(ref)
    return found
