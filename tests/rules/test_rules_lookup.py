"""`builder rules`: sections with their cross-references, ranked search, dangling references."""

from __future__ import annotations

from pathlib import Path

from builder.load import load_game
from builder.rules_lookup import cited_by, dangling, find_section, references, search, section_text

HEX = Path(__file__).resolve().parents[1] / "fixtures" / "tables-hex"


def _rules():
    return load_game(HEX).rules


def test_section_shows_its_cross_references_and_their_targets():
    rules = _rules()
    s = find_section(rules, "14.1")
    assert [(r, t.id if t else None) for r, t in references(rules, s)] == [("14.2", "14.2")]
    text = section_text(rules, s)
    assert "14.2 -> 14.2 Trench Lines: Attacks across a trench use the trench row." in text
    assert [x.id for x in cited_by(rules, find_section(rules, "14.2"))] == ["14.1"]


def test_reference_to_nowhere_is_reported():
    rules = _rules()
    s = find_section(rules, "17.3")
    text = section_text(rules, s)
    assert "22.0: not in this rulebook" in text
    assert "17.3 -> 17.3" not in text  # a section citing itself is not a cross-reference
    assert [(x.id, r) for x, r in dangling(rules)] == [("17.3", "22.0")]


def test_section_lists_the_sections_under_it():
    rules = _rules()
    text = section_text(rules, find_section(rules, "14"))
    assert "14.1 No Man's Land" in text and "14.2 Trench Lines" in text


def test_search_ranks_phrase_and_title_first():
    rules = _rules()
    hits = search(rules, "line of sight")
    assert hits and hits[0][0].id == "17.3"
    hits = search(rules, "trench")
    assert [s.id for s, _ in hits][:2] == ["14.2", "14.1"]  # the title match first
    assert search(rules, "zeppelin") == []


def test_cli_rules_section_search_and_errors(run_cli):
    r = run_cli("rules", HEX, "17.3")
    assert r.exit_code == 0 and "Cross-references:" in r.output
    r = run_cli("rules", HEX, "--search", "No Man's Land")
    assert r.exit_code == 0 and r.output.lstrip().startswith("1. 14.1")
    r = run_cli("rules", HEX, "14.9")
    assert r.exit_code == 2 and "14.1, 14.2" in r.stderr


def test_vimy_observation_cross_references(run_cli):
    import pytest

    if not (Path("sources/vimy-ridge/rules.md")).is_file():
        pytest.skip("sources/vimy-ridge not written yet")
    r = run_cli("rules", "vimy-ridge", "17.2")
    assert "17.3 -> 17.3 Observation" in r.output
    assert "22.0: not in this rulebook" in r.output
    r = run_cli("rules", "vimy-ridge", "--search", "line of sight")
    assert "17.3" in r.output.splitlines()[0]
