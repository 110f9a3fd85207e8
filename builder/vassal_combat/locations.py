"""Map data the module looks up: small numbers per location (and per pair of locations).

A table's facts about a place (which terrain rows apply, the terrain divisor, a sector's machine
guns ...) are packed into one int per place and stored as a global property named after the
place, e.g. 'crt@302' for hex 0302. An expression reads it with
    Integer.parseInt("0" + GetProperty("crt@" + LocationName))
VASSAL binds a location name made only of digits as an int (0302 -> 302), so the key is built
from the bound text, exactly as the expression builds it. A stored value is code + 1: a place
without a property reads 0 and gets the default code (the map's default terrain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from builder.vassal import expr as x
from builder.vassal_combat.beanshell import bind, java_text

LIMIT = 1 << 30  # a packed word stays a positive Java int


def key_text(name: str) -> str:
    """A location name as it reads inside an expression after VASSAL binds it ('0302' -> '302')."""
    return java_text(bind(name))


def location_names(game) -> list[tuple[str, object]]:
    """(VASSAL location name, the place) for every hex or sector of the main map."""
    if game.is_hex:
        return [(game.grid.label(h), h) for h in game.grid.all_hexes()]
    from builder.vassal.ids import sector_label

    return [(sector_label(game, s.id), s.id) for s in game.map.sectors]


@dataclass(frozen=True)
class Field:
    name: str
    size: int  # values 0 .. size-1


class Packer:
    """Packs named small fields into ints, and writes the expressions that read them back."""

    def __init__(self, prefix: str, fields: Sequence[Field], var: str):
        self.prefix = prefix  # e.g. 'crt@' or 'crt>'
        self.var = var  # property name prefix of the decoded words, e.g. 'CombatLoc'
        self.words: list[list[Field]] = []
        size = 1
        for f in fields:
            if f.size < 1:
                raise ValueError(f"field {f.name} has no values")
            if not self.words or size * f.size >= LIMIT:
                self.words.append([])
                size = 1
            self.words[-1].append(f)
            size *= f.size
        self.places: dict[str, tuple[int, int]] = {}  # field -> (word, multiplier)
        for w, word in enumerate(self.words):
            mult = 1
            for f in word:
                self.places[f.name] = (w, mult)
                mult *= f.size
        self.sizes = {f.name: f.size for f in fields}

    def _word_key(self, w: int) -> str:
        return self.prefix if w == 0 else f"{self.prefix[:-1]}{w + 1}{self.prefix[-1]}"

    def encode(self, values: Mapping[str, int]) -> list[int]:
        codes = [0] * len(self.words)
        for name, (w, mult) in self.places.items():
            v = int(values.get(name, 0))
            if not 0 <= v < self.sizes[name]:
                raise ValueError(f"field {name} = {v} is outside 0..{self.sizes[name] - 1}")
            codes[w] += v * mult
        return codes

    def decode(self, codes: Sequence[int]) -> dict[str, int]:
        return {n: (codes[w] // m) % self.sizes[n] for n, (w, m) in self.places.items()}

    def word_props(self, key_expr: str, default: Mapping[str, int]) -> list[tuple[str, str]]:
        """Calculated properties reading the packed words: raw lookups, then default-filled codes.

        key_expr is the expression of the place's key text after the prefix, e.g. 'LocationName'.
        """
        out = []
        codes = self.encode(default)
        for w in range(len(self.words)):
            raw = f"{self.var}Raw{w}"
            key = f"{x.lit(self._word_key(w))} + {key_expr}"
            out.append((raw, f'Integer.parseInt("0" + GetProperty({key}))'))
            out.append((f"{self.var}{w}", f"{raw} == 0 ? {codes[w]} : {raw} - 1"))
        return out

    def field(self, name: str) -> str:
        """The expression reading one field from the decoded words."""
        w, mult = self.places[name]
        word = f"{self.var}{w}"
        size = self.sizes[name]
        if mult == 1 and len(self.words[w]) == 1:
            return word
        return f"({word} / {mult}) % {size}" if mult != 1 else f"{word} % {size}"

    def data(self, key_texts: Sequence[str], values: Sequence[Mapping[str, int]],
             default: Mapping[str, int]) -> dict[str, str]:
        """Global property name -> stored value for every place whose code is not the default."""
        base = self.encode(default)
        out: dict[str, str] = {}
        for k, vals in zip(key_texts, values, strict=True):
            codes = self.encode(vals)
            for w, code in enumerate(codes):
                if code != base[w]:
                    out[self._word_key(w) + k] = str(code + 1)
        return out


def commonest(facts: Sequence[Mapping[str, int]], fallback: Mapping[str, int]) -> dict[str, int]:
    """The facts most places share (stored as the default, so only the others need a property)."""
    if not facts:
        return dict(fallback)
    counts: dict[tuple, int] = {}
    for f in facts:
        k = tuple(sorted(f.items()))
        counts[k] = counts.get(k, 0) + 1
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return dict(best)
