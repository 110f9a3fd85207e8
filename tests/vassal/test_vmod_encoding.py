"""VASSAL's SequenceEncoder rules and piece nesting, against engine-verified strings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from vmod_validator import parse_piece

from builder.vassal import traits as t
from builder.vassal.encoding import decode_sequence, encode_sequence, keystroke, nest

TAB = "\t"
# shared/vassal/README.md: prototype + 2-layer flip + marker + basic piece (VASSAL 3.7.26 took it)
README_EXAMPLE = (
    "+/null/prototype;Unit" + TAB + "emb2;;128;;Flip;128;;;128;;;;1;false;0;0;"
    "inf_full.png,inf_depleted.png;,+ (depleted);true;Step;;;false;;1;1;true;;70,130;;Step;1.0;"
    ";true"
    "\\" + TAB + "mark;Side,Strength\\\\" + TAB + "piece;;;inf_full.png;1st Infantry/" + TAB
    + "1\\" + TAB + "Allies,4\\\\" + TAB + "null;0;0;;0")


def test_readme_example_is_reproduced_exactly():
    piece = t.Piece((
        t.UsePrototype("Unit"),
        t.Layer("Step", ("inf_full.png", "inf_depleted.png"), ("", "+ (depleted)")),
        t.Marker((("Side", "Allies"), ("Strength", "4"))),
        t.BasicPiece("inf_full.png", "1st Infantry"),
    ))
    assert piece.definition() == README_EXAMPLE
    types, states = parse_piece(README_EXAMPLE)
    assert len(types) == len(states) == 4
    assert states == ["", "1", "Allies,4", "null;0;0;;0"]


def test_escaping_and_quoting():
    assert encode_sequence(["a;b", "c"], ";") == "a\\;b;c"
    assert encode_sequence(["\\x", "'q'", ""], ";") == "'\\x';''q'';"
    assert encode_sequence([True, None, 3], ",") == "true,,3"
    assert keystroke(70, 130) == "70,130"
    assert nest(["a", "b", "c"]) == "a\tb\\\tc"


@given(st.lists(st.text(alphabet="ab;,\\'/\t x", max_size=6).filter(lambda v: not v.endswith("\\")),
                min_size=1, max_size=5))
def test_encoding_round_trips(values):
    # (a value ending in a backslash is ambiguous before a delimiter in VASSAL's format too)
    for delim in (";", ",", "/"):
        assert decode_sequence(encode_sequence(values, delim), delim) == values


def test_expanded_piece_keeps_one_state_per_trait():
    proto = t.prototype_piece([t.Delete(), t.Marker((("Side", "Red"),))])
    piece = t.Piece((t.UsePrototype("Red"), t.Layer("Step", ("a.png", "b.png"), ("", "+ (x)")),
                     t.BasicPiece("a.png", "Unit")))
    flat = piece.expanded({"Red": proto}).placed("Main Map", 10, 20, "7")
    types, states = parse_piece(flat.definition("1"))
    assert [x.split(";")[0] for x in types] == ["delete", "mark", "emb2", "piece"]
    assert len(states) == 4 and states[-1] == "Main Map;10;20;7;0"
    assert flat.images() == ["a.png", "b.png"]


@given(st.lists(st.text(alphabet="ab;,\\'\t x", max_size=5), min_size=0, max_size=4),
       st.integers(0, 3000), st.integers(0, 3000))
def test_a_state_encoded_before_its_position_is_known_equals_the_whole_encoding(values, x, y):
    # savegame.encoded_texts: a unit's state is kept encoded with a mark where its BasicPiece's
    # state goes; a saved game puts the position in. Any marker values, any nesting depth.
    from builder.vassal.savegame import BASIC_STATE, Placed, encoded_texts, saved_game

    traits = [t.Marker((("K", v),)) for v in values] + [t.Delete()]
    piece = t.Piece((*traits, t.Layer("Step", ("a.png", "b.png"), ("", "+ (x)"), level=2),
                     t.BasicPiece("a.png", "Unit")))
    type_text, state = encoded_texts(piece)
    assert BASIC_STATE in state
    whole = saved_game([Placed(piece, "Map0", x, y, "12")], {})
    known = saved_game([Placed(None, "Map0", x, y, "12", (type_text, state))], {})
    assert known == whole
