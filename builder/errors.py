"""Problems found in a game's sources, reported all at once with file, place, fault and fix."""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the sources: where it is, what is wrong, how to fix it."""

    file: str
    where: str  # "line 12", "key terrain[2].hexes[0]", or "" for the whole file
    message: str
    fix: str = ""

    def __str__(self) -> str:
        place = f"{self.file}: {self.where}" if self.where else self.file
        text = f"{place}: {self.message}"
        if self.fix:
            text += f" (fix: {self.fix})"
        return text


class SourceError(Exception):
    """Raised with every problem found while loading a game (and the warnings found with them)."""

    def __init__(self, problems: list[Problem], warnings: list[Problem] = ()):
        self.problems = list(problems)
        self.warnings = list(warnings)
        super().__init__("\n".join(str(p) for p in self.problems))


MAX_PROBLEMS = 200  # more would bury the first ones; a broken file can repeat one fault 100,000 times
_QUOTED = re.compile(r"'([^'\n]{1,80})'")


def lookalike_hint(message: str) -> str:
    """Name the non-Latin characters hiding in a quoted value that mixes them with ASCII.

    'rеd' with a Cyrillic 'е' prints exactly like 'red'; without this the message is a riddle.
    """
    found: list[str] = []
    for value in _QUOTED.findall(message):
        if not any(c.isascii() and c.isalnum() for c in value):
            continue  # a wholly Greek or Japanese name is meant that way
        for c in value:
            name = unicodedata.name(c, "")
            if not c.isascii() and not name.startswith("LATIN") and c not in found:
                found.append(c)
    if not found:
        return ""
    chars = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'UNNAMED')}" for c in found[:3])
    return f" (it contains {chars}: not the plain ASCII character it looks like)"


class Collector:
    """Gathers problems for one game so the loader can report them together."""

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []  # legal but likely wrong: listed after the problems
        self.dropped = 0

    @property
    def full(self) -> bool:
        """True once MAX_PROBLEMS are held: callers may skip working out more messages."""
        return len(self.problems) >= MAX_PROBLEMS

    def rel(self, path: Path | str) -> str:
        """The file name as the user knows it: relative to the working folder when possible."""
        p = Path(path)
        try:  # abspath, not resolve: a link is named as the user wrote it, not as its target
            return str(Path(os.path.abspath(p)).relative_to(Path.cwd()))
        except ValueError:
            return str(p)

    def add(self, file: Path | str, where: str, message: str, fix: str = "") -> None:
        if self.full:
            self.dropped += 1
            return
        self.problems.append(Problem(self.rel(file), where, message + lookalike_hint(message), fix))

    def warn(self, file: Path | str, where: str, message: str, fix: str = "") -> None:
        """Note something legal but likely wrong; it never fails a build (unless --strict)."""
        if len(self.warnings) < MAX_PROBLEMS:
            self.warnings.append(Problem(self.rel(file), where, message + lookalike_hint(message), fix))

    def raise_if_any(self) -> None:
        if self.problems:
            problems = list(self.problems)
            if self.dropped:
                problems.append(Problem(self.rel(self.root), "", f"{self.dropped:,} more problems "
                                        "not listed", "fix the ones above first"))
            raise SourceError(problems, self.warnings)
