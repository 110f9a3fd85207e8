"""Rules lookup: a section by number with its cross-references, a contents list, ranked search."""

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


def children(rules: Rules, section: Section) -> list[Section]:
    """The sections directly under this one (17.1, 17.2 ... under 17.0)."""
    out = []
    found = False
    for s in rules.sections:
        if s is section:
            found = True
            continue
        if found:
            if s.level <= section.level:
                break
            out.append(s)
    return out


def references(rules: Rules, section: Section) -> list[tuple[str, Section | None]]:
    """Each section this one cites, with its target (None when the rules text has no such section)."""
    return [(ref, find_section(rules, ref)) for ref in section.refs
            if find_section(rules, ref) is not section]


def cited_by(rules: Rules, section: Section) -> list[Section]:
    """Sections whose text cites this one."""
    out = []
    for s in rules.sections:
        if s is not section and any(find_section(rules, r) is section for r in s.refs):
            out.append(s)
    return out


def dangling(rules: Rules) -> list[tuple[Section, str]]:
    """(citing section, cited number) for every citation that points nowhere in this text."""
    return [(s, r) for s in rules.sections for r in s.refs if find_section(rules, r) is None]


def section_text(rules: Rules, section: Section) -> str:
    """A section as the terminal shows it: heading, text, sub-sections, references and targets."""
    out = [f"{section.id} {section.title}" if section.id[:1].isdigit() else section.title, ""]
    if section.text:
        out.append(section.text)
    subs = children(rules, section)
    if subs:
        out.append("")
        out.append("Sections under it:")
        out += [f"  {s.id} {s.title}" for s in subs]
    refs = references(rules, section)
    if refs:
        out.append("")
        out.append("Cross-references:")
        for ref, target in refs:
            if target is None:
                out.append(f"  {ref}: not in this rulebook (the reference points nowhere)")
            else:
                first = _first_sentence(target.text)
                out.append(f"  {ref} -> {target.id} {target.title}" + (f": {first}" if first else ""))
    back = cited_by(rules, section)
    if back:
        out.append("")
        out.append("Cited by: " + ", ".join(f"{s.id} {s.title}" for s in back))
    return "\n".join(out)


def _first_sentence(text: str, limit: int = 110) -> str:
    plain = " ".join(_plain(text).split())
    m = re.match(r"(.+?[.!?])(\s|$)", plain)
    first = m.group(1) if m else plain
    return first if len(first) <= limit else first[: limit - 3].rstrip() + "..."


def _plain(text: str) -> str:
    return re.sub(r"[*_`>#|]+", "", text)


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_STOP = {"a", "an", "the", "of", "to", "in", "on", "and", "or", "is", "it", "by", "for", "at", "be"}


def _stem(word: str) -> str:
    """A crude stem so 'sights' finds 'sight' and 'observing' finds 'observation'."""
    for end in ("ations", "ation", "ings", "ing", "ies", "es", "ed", "s"):
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


def search(rules: Rules, query: str, limit: int = 20) -> list[tuple[Section, str]]:
    """Sections matching the query, best first, each with a snippet.

    Sections with every word rank first; then those with most of them. A section scores for
    the whole phrase, for words in its title, and for how often the words occur.
    """
    words = [w for w in _WORD.findall(query.lower()) if w not in _STOP] or _WORD.findall(query.lower())
    if not words:
        return []
    stems = [_stem(w) for w in words]
    phrase = " ".join(_WORD.findall(query.lower()))
    scored = []
    for s in rules.sections:
        body = " ".join(_plain(s.text).split())
        title = s.title.lower()
        tokens = _WORD.findall(body.lower())
        title_tokens = _WORD.findall(title)
        hits = [sum(1 for t in tokens if t.startswith(st)) for st in stems]
        in_title = [any(t.startswith(st) for t in title_tokens) for st in stems]
        present = sum(1 for h, ti in zip(hits, in_title) if h or ti)
        if not present:
            continue
        flat = " ".join(tokens)
        score = (100 * present + 30 * (phrase in flat or phrase in title) + 10 * sum(in_title)
                 + sum(min(h, 10) for h in hits))
        scored.append((-score, s.line, s, _snippet(body, phrase, stems)))
    if any(-sc >= 100 * len(stems) for sc, *_ in scored):
        scored = [x for x in scored if -x[0] >= 100 * len(stems)]  # all the words, when any has them
    scored.sort(key=lambda t: (t[0], t[1]))
    return [(s, snip) for _, _, s, snip in scored[:limit]]


def _snippet(body: str, phrase: str, stems: list[str], width: int = 160) -> str:
    low = body.lower()
    pos = low.find(phrase)
    if pos < 0:
        found = [m.start() for st in stems for m in [re.search(r"\b" + re.escape(st), low)] if m]
        pos = min(found) if found else 0
    start = max(0, pos - 60)
    text = body[start: start + width]
    return ("..." if start else "") + text + ("..." if start + width < len(body) else "")
