"""Problems found in a game's sources, reported all at once with file, place, fault and fix."""

from __future__ import annotations

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
    """Raised with every problem found while loading a game."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Collector:
    """Gathers problems for one game so the loader can report them together."""

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []

    def rel(self, path: Path | str) -> str:
        """The file name as the user knows it: relative to the working folder when possible."""
        p = Path(path)
        try:
            return str(p.resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(p)

    def add(self, file: Path | str, where: str, message: str, fix: str = "") -> None:
        self.problems.append(Problem(self.rel(file), where, message, fix))

    def raise_if_any(self) -> None:
        if self.problems:
            raise SourceError(self.problems)
