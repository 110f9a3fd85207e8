"""Hill 112, worked by hand from its rules (tests/fixtures/hill-112/rules.md): the cases the CLI,
the aid and the module must all answer the same way (tests/tables/test_hill_112.py,
tests/aid/test_hill_112.py, tests/vassal_combat/test_hill_112.py).

Each firing unit is (its hex, its printed firepower or gun, its printed range); the working of
each case is written beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from tests.tables.games import FIXTURES

FOLDER = FIXTURES / "hill-112"


@dataclass(frozen=True)
class Fire:
    """A fire on the Infantry Fire Table or the Anti-Tank Fire Table."""

    name: str
    table: str
    target: str
    firers: tuple[tuple[str, int, int], ...]  # (hex, firepower or gun, range)
    options: dict = field(default_factory=dict)  # calc inputs besides firepower, hexes, range
    module: dict = field(default_factory=dict)  # the same options as the module's marker takes
    roll: str | None = None
    result: str = ""
    column: str = ""
    working: tuple[str, ...] = ()
    odds: dict = field(default_factory=dict)  # result -> probability, when there is no roll

    def inputs(self) -> dict:
        """The inputs `builder calc` takes."""
        strength = "firepower" if self.table == "fire" else "gun"
        return {strength: ",".join(str(f) for _, f, _ in self.firers),
                "firer_hexes": [h for h, _, _ in self.firers],
                "range": ",".join(str(r) for _, _, r in self.firers),
                "hex": self.target, **self.options}


FIRES = [
    # F1 (6.2-6.5): squads 6-4 adjacent (0408: 6 x 2 = 12) and 5 hexes away (0205: beyond
    # range 4, 6 / 2 = 3), the .30 cal 4-10 three hexes away (4): 19, column 14-19. The target
    # is in a stone building (0409: +2), Sgt Kowalski directs (-1): +1. Roll 6 + 1 = 7: PTC.
    Fire("F1", "fire", "0409", (("0408", 6, 4), ("0205", 6, 4), ("0307", 4, 10)),
         {"leader": "-1"}, {"CombatMod_leader": "-1"}, "6", "PTC", "14-19",
         ("Point blank: 6 x 2 = 12", "Long range: 6 / 2 = 3", "total firepower: 12 + 3 + 4 = 19",
          "Target in a stone building +2", "roll 6 +1 = 7")),
    # F6 (the odds of F1): rows 3 (K) to 13 on column 14-19: a roll of 2 K, 3 2MC, 4 1MC, 5 MC,
    # 6 and 7 PTC, 8 or more no effect.
    Fire("F6", "fire", "0409", (("0408", 6, 4), ("0205", 6, 4), ("0307", 4, 10)),
         {"leader": "-1"}, {"CombatMod_leader": "-1"}, None, "", "14-19",
         odds={"K": Fraction(1, 36), "2MC": Fraction(2, 36), "1MC": Fraction(3, 36),
               "MC": Fraction(4, 36), "PTC": Fraction(11, 36), "-": Fraction(15, 36)}),
    # F2 (6.2, 6.3): the half-squad 3-4 six hexes away (3 / 2 = 1.5) and the .30 cal two away
    # (4): 5.5, rounded down: 5, column 5-6. Target in woods (0205): +1. Roll 1,1 = 2 + 1 = 3: MC.
    Fire("F2", "fire", "0205", (("0510", 3, 4), ("0203", 4, 10)), {}, {}, "1,1", "MC", "5-6",
         ("3 / 2 = 1.5", "total firepower: 1.5 + 4 = 5.5", "5.5 rounded down: firepower 5",
          "roll 2 +1 = 3")),
    # F3 (6.3): a squad 9 hexes away with range 4 is beyond twice its range: no fire.
    Fire("F3", "fire", "0409", (("0102", 6, 4),), {}, {}, "7", "not allowed"),
    # F4 (6.3, 6.5, 6.6, 9.1): squads adjacent (6 x 2 = 12) and two away (6), the half-squad
    # three away (3): 21, column 20+. Turn 5 is a night turn +1, moving target -1, Lt Price
    # directs (-2): -2. Roll 2 - 2 = 0: the row below the dice's range, K.
    Fire("F4", "fire", "0607", (("0507", 6, 4), ("0406", 6, 4), ("0306", 3, 4)),
         {"turn": 5, "moving": True, "leader": "-2"},
         {"CombatTurn": 5, "CombatFlag_moving": 1, "CombatMod_leader": "-2"}, "2", "K", "20+",
         ("total firepower: 12 + 6 + 3 = 21", "Night: +1 to the roll", "roll 2 -2 = 0")),
    # F5 (6.2, 6.3): the half-squad five hexes away: 3 / 2 = 1.5, rounded down 1, column 1-2.
    # Leader -2, moving target -1: roll 2 - 3 = -1, below the first row: read as 0, 1MC.
    Fire("F5", "fire", "0810", (("0308", 3, 4),), {"leader": "-2", "moving": True},
         {"CombatMod_leader": "-2", "CombatFlag_moving": 1}, "2", "1MC", "1-2",
         ("1.5 rounded down: firepower 1", "roll 2 -3 = -1, beyond the table: read as 0")),
    # A1 (8.2): the PaK 40 (gun 9, range 8) ten hexes from a moving Sherman (armour 5): column
    # 8-10, +5 armour +1 moving +2 beyond range = +8. Roll 7 + 8 = 15: no effect.
    Fire("A1", "anti-tank", "0109", (("0903", 9, 8),), {"armour": "5", "moving": True},
         {"CombatMod_armour": "+5", "CombatFlag_moving": 1}, "7", "-", "8-10",
         ("Beyond the gun's range: +2 to the roll", "roll 7 +8 = 15")),
    # A2 (8.3): twelve hexes away (beyond range, not beyond twice it), armour 6: a natural 2
    # knocks the tank out whatever the modifiers.
    Fire("A2", "anti-tank", "0109", (("1303", 9, 8),), {"armour": "6"}, {"CombatMod_armour": "+6"},
         "1,1", "KO", "8-10", ("natural 2",)),
    # A3 (8.2): a Sherman (gun 7, range 12) four hexes from a tank of armour 1 in woods (1208):
    # column 5-7, +1 armour +1 woods = +2. Roll 3 + 2 = 5: immobilised.
    Fire("A3", "anti-tank", "1208", (("0906", 7, 12),), {"armour": "1"}, {"CombatMod_armour": "+1"},
         "3", "Imm", "5-7", ("Target tank in woods +1", "roll 3 +2 = 5")),
]


@dataclass(frozen=True)
class Check:
    """A morale check (7.2)."""

    name: str
    inputs: dict
    module: dict
    roll: str | None
    result: str
    odds: dict = field(default_factory=dict)


CHECKS = [
    # M1: morale 7, a 2MC: roll 5 + 2 = 7, at most 7: passes.
    Check("M1", {"morale": 7, "fire-result": "2"}, {"CombatIn_morale": 7,
                                                    "CombatMod_fire_result": "+2"}, "5", "Passes"),
    # M2: morale 7, a 2MC, a leader -1 in the hex: roll 7 + 2 - 1 = 8, more than 7: breaks.
    Check("M2", {"morale": 7, "fire-result": "2", "leader": "-1"},
          {"CombatIn_morale": 7, "CombatMod_fire_result": "+2", "CombatMod_leader": "-1"}, "7",
          "Breaks"),
    # M3: morale 8, a 1MC: passes on 2 to 7 (21 of 36 rolls).
    Check("M3", {"morale": 8, "fire-result": "1"}, {"CombatIn_morale": 8,
                                                    "CombatMod_fire_result": "+1"}, None, "",
          {"Passes": Fraction(21, 36), "Breaks": Fraction(15, 36)}),
]


@dataclass(frozen=True)
class Sight:
    """A line of sight (5.0-5.3, 9.1), asked both ways."""

    name: str
    a: str
    b: str
    night: bool
    seen: bool
    why: str


SIGHTS = [
    # S1 (5.2): both ends on the level-1 plateau; 0806 between them is plateau too (level 1,
    # not above the lower end): seen.
    Sight("S1", "0706", "1006", False, True, "a clear line"),
    # S2 (5.2): from the plateau's inside (0905) to the open ground below its crest (1205): the
    # plateau hex 1005 between stands at the higher end's level: dead ground.
    Sight("S2", "0905", "1205", False, False, "1005 (Hill, level 1), as high as the higher end"),
    # S2b (5.2): from the crest hex itself (1005) the same ground is seen.
    Sight("S2b", "1005", "1205", False, True, "a clear line"),
    # S3 (5.3): from the summit (0804, level 2) over the woods of 0303 (top level 1): 0202 lies
    # one hex behind them, in the blind hex.
    Sight("S3", "0804", "0202", False, False, "blind hexes"),
    # S4 (5.2): the stone wall between 0609/0709 stands a level above the open ground: blocked.
    Sight("S4", "0509", "0909", False, False, "stone wall"),
    # S5 (9.1): a night turn: two hexes is seen, three is not.
    Sight("S5", "0207", "0407", True, True, "a clear line"),
    Sight("S5b", "0207", "0507", True, False, "night turn"),
]


# V1, V2 (10.0, 10.1): the summit held; two squads and a half-squad lost are 2.5 squad
# equivalents, fewer than three: American victory. A second team lost makes three: German.
VICTORY = [
    ({"summit": 2, "american-losses-squad": 2, "american-losses-team": 1}, "American victory"),
    ({"summit": 2, "american-losses-squad": 2, "american-losses-team": 2}, "German victory"),
    ({"summit": 1}, "German victory"),
]
