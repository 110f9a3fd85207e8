"""What a calculation returns: the working, the result, the odds of every outcome, the notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


def fraction_text(p: Fraction) -> str:
    """'5/36'; '1' and '0' for certainties."""
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


@dataclass
class Outcome:
    """One way a resolution can end: the table's result and what it means."""

    result: str
    meaning: str = ""
    numbers: dict[str, int] = field(default_factory=dict)  # e.g. attacker losses: 3

    def key(self) -> tuple:
        return (self.result, tuple(sorted(self.numbers.items())))


@dataclass
class Calculation:
    """A calculator's answer. Nothing is printed here; `to_dict()` gives plain JSON data."""

    game: str
    table: str
    name: str
    kind: str
    inputs: dict = field(default_factory=dict)
    given: list[str] = field(default_factory=list)  # the inputs the player named
    steps: list[str] = field(default_factory=list)
    column: str | None = None
    roll: list[int] | None = None
    outcome: Outcome | None = None
    distribution: list[tuple[Outcome, Fraction]] = field(default_factory=list)
    columns: list[tuple[str, Fraction]] = field(default_factory=list)  # when the column varies
    expected: dict[str, Fraction] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    echoes: set[int] = field(default_factory=set)  # steps that only say what an input holds
    unused: list[dict] = field(default_factory=list)  # inputs given that changed nothing, and why

    @property
    def result(self) -> str | None:
        return self.outcome.result if self.outcome else None

    def step(self, text: str) -> None:
        self.steps.append(text)

    def echo(self, text: str) -> None:
        """A step that says what an input holds (a hex's terrain), not what it changed."""
        self.echoes.add(len(self.steps))
        self.steps.append(text)

    def answer(self) -> tuple:
        """What the calculation concluded: its working (echoes apart), result and odds."""
        return (tuple(s for i, s in enumerate(self.steps) if i not in self.echoes),
                self.column, self.outcome.key() if self.outcome else None,
                tuple((o.key(), p) for o, p in self.distribution), tuple(self.columns),
                tuple(sorted(self.expected.items())))

    def note(self, text: str) -> None:
        if text and text not in self.notes:
            self.notes.append(text)

    def to_dict(self) -> dict:
        """Plain data: fractions as 'a/b' strings with a float beside them."""
        d = {
            "game": self.game, "table": self.table, "name": self.name, "kind": self.kind,
            "inputs": {k: v for k, v in self.inputs.items() if v is not None},
            "steps": list(self.steps), "column": self.column, "roll": self.roll,
            "result": self.result,
            "meaning": self.outcome.meaning if self.outcome else None,
            "numbers": dict(self.outcome.numbers) if self.outcome else {},
            "distribution": [
                {"result": o.result, "meaning": o.meaning, "numbers": dict(o.numbers),
                 "probability": fraction_text(p), "p": float(p)}
                for o, p in self.distribution
            ],
            "expected": {k: {"value": fraction_text(v), "float": round(float(v), 6)}
                         for k, v in self.expected.items()},
            "notes": list(self.notes),
            "unused": [dict(u) for u in self.unused],
        }
        if self.columns:
            d["columns"] = [{"column": c, "probability": fraction_text(p), "p": float(p)}
                            for c, p in self.columns]
        return d


class Tally:
    """Collects outcomes with their exact probabilities, in the order first seen."""

    def __init__(self) -> None:
        self._items: dict[tuple, list] = {}

    def add(self, outcome: Outcome, p: Fraction) -> None:
        slot = self._items.setdefault(outcome.key(), [outcome, Fraction(0)])
        slot[1] += p

    def items(self) -> list[tuple[Outcome, Fraction]]:
        return [(o, p) for o, p in self._items.values()]

    def expected(self) -> dict[str, Fraction]:
        """Mean of every number the outcomes carry (losses), when every outcome carries it."""
        names: list[str] = []
        for o, _ in self._items.values():
            names += [n for n in o.numbers if n not in names]
        out = {}
        for n in names:
            if all(n in o.numbers for o, _ in self._items.values()):
                out[n] = sum((p * o.numbers[n] for o, p in self._items.values()), Fraction(0))
        return out


def tally_values(pairs) -> list[tuple[str, Fraction]]:
    """Sum probabilities of equal labels, in the order first seen."""
    out: dict[str, Fraction] = {}
    for label, p in pairs:
        out[label] = out.get(label, Fraction(0)) + p
    return list(out.items())
