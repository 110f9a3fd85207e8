"""Names for the page's regions, each used once: a screen reader lists regions by name, and two
of the same name cannot be told apart."""

from __future__ import annotations


class UniqueNames:
    """unique(name) -> the name, or 'name (2)', 'name (3)'... when already given on the page
    (compared without case, as a listener hears them)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def __call__(self, name: str) -> str:
        candidate, n = name, 1
        while candidate.casefold() in self._seen:
            n += 1
            candidate = f"{name} ({n})"
        self._seen.add(candidate.casefold())
        return candidate
