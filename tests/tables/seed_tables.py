"""Independent transcriptions of every table in the seed rule documents (/work/shared/seeds).

Typed by hand from the seed texts, NOT read from sources/: the tests check that what the
calculators answer equals what the rulebooks print. Blank CRT cells are None.
"""

# --- 003 Vimy Ridge: Integrated Combat Results Table (extracted cleanly) -----------------------
# Each terrain row's bands, left to right from the first result column; (lo, hi), hi None = "or more"
VIMY_ROWS = {
    "Peak": [(-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, None)],
    "Trench hexside, Woods": [(-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7), (8, 9),
                              (10, None)],
    "Town, Hill, La Folie Farm": [(-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5),
                                  (6, 7), (8, 9), (10, None)],
    "River": [(-4, -4), (-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7),
              (8, 9), (10, None)],
    "Clear": [(-5, -5), (-4, -4), (-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5),
              (6, 7), (8, 9), (10, None)],
}
_ = None
VIMY_CRT = {
    1: ["(A)", "A3", "A2", _, "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
    2: ["(A)", "(A)", "A3", "A2", _, "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
    3: ["(A)", "(A)", "(A)", "A3", "A2", _, "Ex", "Ex", "Ex", "D2", "D2", "D3"],
    4: ["(A)", "(A)", "(A)", "(A)", "A3", "A2", _, "Ex", "Ex", "Ex", "D2", "D2"],
    5: ["Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2", _, "Ex", "Ex", "Ex", "D2"],
    6: ["Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)", "A1", _, "Ex", "Ex", "Ex"],
}

# --- 003 Vimy Ridge: WWI Bombardment Results Table and its modifiers ----------------------------
VIMY_BOMBARDMENT = {1: "Hit", 2: "Hit", 3: None, 4: None, 5: None, 6: None}
VIMY_NATURAL_HIT = 1  # "Any roll of '1', regardless of modifiers, is always an automatic Hit"
# label words -> value; the first three lost their minus signs in the extraction ("- 2 = Gas")
VIMY_MODIFIERS = {"gas": -2, "aircraft": -1, "allied unit": -1, "night": +1}
VIMY_TERRAIN_MODIFIERS = {"clear": 0, "no man": +1, "town": +2, "woods": +2, "trench": +3}

# --- 000 Scheldt: Integrated CRT (terrain rows printed cleanly; results garbled) ---------------
SCHELDT_ROWS = {
    "Coastal": [(-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, None)],
    "Antwerp Docks": [(-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, None)],
    "City, Across Canal": [(-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7),
                           (8, 9), (10, None)],
    "Flooded": [(-4, -4), (-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5), (6, 7),
                (8, 9), (10, None)],
    "Clear": [(-5, -5), (-4, -4), (-3, -3), (-2, -2), (-1, -1), (0, 0), (1, 1), (2, 3), (4, 5),
              (6, 7), (8, 9), (10, None)],
}
# the non-blank result codes of each die row, in order, as the garbled fragments give them
SCHELDT_FRAGMENTS = {
    1: ["(A)", "A3", "A2", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
    2: ["(A)", "(A)", "A3", "A2", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
    3: ["(A)", "(A)", "(A)", "A3", "A2", "Ex", "Ex", "Ex", "D2", "D2", "D3"],
    4: ["(A)", "(A)", "(A)", "(A)", "A3", "A2", "Ex", "Ex", "Ex", "D2", "D2"],
    5: ["Ae", "(A)", "(A)", "(A)", "(A)", "A3", "A2", "Ex", "Ex", "Ex", "D2"],
    6: ["Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "(A)", "A1", "Ex", "Ex", "Ex"],
}

# --- 001 Eben-Emael -----------------------------------------------------------------------------
EBEN_COMBAT_COLUMNS = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
EBEN_COMBAT = {
    2: ["10/1", "9/1", "8/1", "7/1", "6/2", "5/3", "4/4", "3/5", "2/7"],
    3: ["9/-", "8/1", "7/1", "6/1", "5/1", "4/2", "4/3", "3/4", "2/6"],
    4: ["8/-", "7/-", "6/1", "5/1", "4/1", "4/1", "3/2", "2/3", "2/5"],
    5: ["7/-", "6/-", "5/1", "4/1", "4/1", "3/1", "2/1", "2/2", "2/3"],
    6: ["6/-", "5/-", "4/-", "4/1", "3/1", "2/1", "2/1", "2/1", "2/2"],
    7: ["5/-", "4/-", "4/-", "4/-", "3/1", "2/-", "2/1", "2/2", "1/3"],
    8: ["4/-", "4/-", "3/-", "3/-", "3/-", "2/1", "2/2", "1/3", "1/4"],
    9: ["4/-", "3/-", "3/-", "3/-", "2/1", "2/2", "1/3", "1/4", "1/5"],
    10: ["4/-", "3/-", "3/-", "3/1", "2/2", "2/3", "1/4", "1/5", "1/6"],
    11: ["4/-", "4/1", "3/1", "2/2", "2/3", "2/4", "1/5", "1/6", "1/7"],
    12: ["5/1", "4/1", "3/2", "2/3", "1/4", "1/5", "1/6", "1/7", "1/8"],
}
EBEN_MG_COLUMNS = [3, 6, 9]
EBEN_MG = {  # None = "-" (no loss)
    2: [6, 9, 12], 3: [5, 8, 11], 4: [4, 6, 10], 5: [3, 5, 9], 6: [2, 4, 8], 7: [1, 2, 6],
    8: [2, 3, 7], 9: [3, 4, 8], 10: [4, 6, 9], 11: [5, 7, 10], 12: [None, None, None],
}
EBEN_ARTILLERY_COLUMNS = [(1, 1), (2, 6), (7, 12), (13, 17), (18, 21), (22, 25), (26, None)]
EBEN_ARTILLERY = {
    2: [6, 9, 11, 13, 15, 17, 19], 3: [5, 8, 10, 12, 14, 16, 18], 4: [4, 6, 8, 10, 12, 14, 16],
    5: [3, 5, 7, 9, 10, 12, 14], 6: [2, 4, 5, 7, 9, 11, 13], 7: [1, 2, 4, 6, 8, 10, 12],
    8: [1, 1, 3, 5, 7, 9, 11], 9: [1, 1, 2, 4, 6, 7, 9], 10: [None, 1, 2, 3, 4, 6, 8],
    11: [None, None, 1, 2, 3, 5, 7], 12: [None] * 7,
}
# glider landing (2.1): 2, 3, 12 removed; 11 one soldier; 10-5 no effect; 4 two soldiers
EBEN_GLIDER = {2: "removed", 3: "removed", 12: "removed", 11: "1 soldier", 4: "2 soldiers",
               **{r: "no effect" for r in range(5, 11)}}
EBEN_CANAL_BUNKER = {1: "no losses", 2: "no losses", 3: "1 soldier", 4: "1 soldier",
                     5: "2 soldiers", 6: "2 soldiers"}
EBEN_VICTORY = [(17, 99, "overwhelming"), (13, 16, "major"), (9, 12, "minor"), (5, 8, "tactical"),
                (0, 4, "defeat")]
# 4.2's worked example: 29 attack, HMG [3] inflicts 2 -> 27, fortified /2 -> "14", 14:20 -> 1:2,
# roll 10 -> attacker 3, defender none
EBEN_EXAMPLE = {"attack": 29, "mg_loss": 2, "defence": 20, "divisor": 2, "roll": 10,
                "column": "1:2", "result": "3/-"}

# --- 004 Operation Veritable ---------------------------------------------------------------------
# 15.2 procedure: released if the roll is less than the turn; refused on a 6; otherwise remains


def veritable_fuhrer(roll: int, turn: int) -> str:
    if roll == 6:
        return "refused"
    if roll < turn:
        return "released"
    return "remains"


VERITABLE_VICTORY = [(-99, 1, "german"), (2, 4, "draw"), (5, 99, "allied")]
VERITABLE_AIR_SUPPORT_4 = "1 RAF"  # 5.0 example: a roll of 4 gives one RAF marker
VERITABLE_SHIFTS = {"air support": 1, "fight/move": 1, "79th": 1}

# --- 002 Europa rule 41: Table 1 Flooding Results and Modifiers ---------------------------------
EUROPA_FLOODING_CODES = {"F*": "complete failure", "F": "failure", "S": "success",
                         "S*": "great success"}
EUROPA_FLOODING_MODIFIER = 2  # "+2 Flooding attempt is made in the Netherlands"
