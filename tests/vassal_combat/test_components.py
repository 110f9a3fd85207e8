"""The combat components in the module: palette, marker pieces, map data; made the same way twice."""

from __future__ import annotations

from lxml import etree

from builder.vassal.encoding import decode_sequence
from builder.vassal.piece_ids import PieceIds
from builder.vassal_combat import components_for
from tests.vassal_combat.support import calculators, game

JAVA = "VASSAL.build."


def _components(slug: str):
    from builder.vassal.geometry import BoardGeometry

    g = game(slug)
    entries: dict[str, bytes] = {}  # slot ids as the module gives them: a key each, no clash
    comps = components_for(g, BoardGeometry(g), PieceIds().slot, entries)
    return [etree.fromstring(etree.tostring(c.element())) for c in comps], entries


def test_palette_holds_a_resolution_marker_per_table_and_attack_markers():
    els, entries = _components("eben-emael")
    window = next(e for e in els if e.tag == JAVA + "module.PieceWindow")
    slots = {s.get("entryName"): s.text for s in window.iter(JAVA + "widget.PieceSlot")}
    calcs = calculators("eben-emael")
    want = {c.marker for c in calcs.values()} | {c.attacker_name for c in calcs.values()
                                                 if c.attacker_name}
    assert set(slots) == want
    for c in calcs.values():
        text = slots[c.marker]
        assert text.startswith("+/null/calcProp;")
        assert text.count("calcProp;") == len(c.props)
        assert "macro;" in text and "report;" in text and "Resolve" in text
        image = f"images/combat-{c.table_id}.png"
        assert entries[image][:8] == b"\x89PNG\r\n\x1a\n"
    gpids = [s.get("gpid") for s in window.iter(JAVA + "widget.PieceSlot")]
    assert len(set(gpids)) == len(gpids)


def test_map_data_are_global_properties_with_the_calculators_values():
    els, _ = _components("vimy-ridge")
    props = next(e for e in els if e.tag == JAVA + "module.properties.GlobalProperties")
    values = {p.get("name"): p.get("initialValue") for p in props}
    for c in calculators("vimy-ridge").values():
        for k, v in c.data.items():
            assert values[k] == v
        for g in c.published:
            assert g in values
    # a trench hexside crossed from 0101's neighbour is data the attack marker reads
    assert any(k.startswith("crt>") for k in values)


def test_resolution_marker_traits_decode_in_order():
    c = calculators("vimy-ridge")["bombardment"]
    from builder.vassal_combat.pieces import resolution_piece

    piece = resolution_piece(c, "x.png")
    fields = decode_sequence(piece.definition(), "/")
    assert fields[0] == "+" and fields[1] == "null"
    names = [t.name for t in piece.traits if type(t).__name__ == "CalculatedProperty"]
    assert names == [n for n, _ in c.props]
    kinds = [type(t).__name__ for t in piece.traits]
    assert kinds[-1] == "BasicPiece" and kinds.index("TriggerAction") > kinds.index(
        "CalculatedProperty")
    rolls = [t for t in piece.traits if type(t).__name__ == "DynamicProperty"
             and t.name.startswith("CombatDie")]
    assert [t.name for t in rolls] == ["CombatDie1", "CombatDie2"]
    assert "{Random(6)}" in rolls[0].type_text()


def test_same_sources_give_the_same_components():
    a, ea = _components("operation-veritable")
    b, eb = _components("operation-veritable")
    assert [etree.tostring(x) for x in a] == [etree.tostring(x) for x in b]
    assert ea == eb
