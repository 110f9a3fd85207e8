"""Rules lookup: by section number, a contents list, and word search with snippets."""

from __future__ import annotations

import re

from builder.model.scenario import Rules, Section


def find_section(rules: Rules, number: str) -> Section | None:
    """The section numbered as asked ('16.1', '[15.3.1]', '16' finds 16.0)."""
    wanted = number.strip().strip("[]").rstrip(".")
    by_id = {s.id: s for s in rules.sections}
    return by_id.get(wanted) or by_id.get(f"{wanted}.0") or by_id.get(wanted.lower())


def contents(rules: Rules) -> str:
    lines = [rules.title]
    for s in rules.sections:
        lines.append(f"{'  ' * (s.level - 2)}{s.id} {s.title}" if s.id[0].isdigit() else
                     f"{'  ' * (s.level - 2)}{s.title}")
    return "\n".join(lines)


def _plain(text: str) -> str:
    return re.sub(r"[*_`>#|]+", "", text)


def search(rules: Rules, query: str, limit: int = 20) -> list[tuple[Section, str]]:
    """Sections containing every word of the query, best first, each with a snippet."""
    words = [w.lower() for w in re.findall(r"\w+", query)]
    if not words:
        return []
    scored = []
    for s in rules.sections:
        body = _plain(s.text)
        hay = f"{s.title} {body}".lower()
        if all(w in hay for w in words):
            score = sum(hay.count(w) for w in words) + 5 * sum(w in s.title.lower() for w in words)
            pos = hay.find(words[0]) - len(s.title) - 1
            start = max(0, pos - 60)
            snippet = " ".join(body[start: start + 160].split())
            scored.append((-score, s.line, s, snippet))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [(s, snip) for _, _, s, snip in scored[:limit]]
