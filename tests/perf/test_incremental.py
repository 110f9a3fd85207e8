"""`builder build` skips a format whose sources, code and outputs are unchanged."""

from __future__ import annotations

import json

from builder import incremental


def _lines(result, word):
    lines = result.output.splitlines()
    return [line.split(" ", 1)[1] for line in lines if line.startswith(word + " ")]


def test_unchanged_rebuild_is_skipped_and_an_edit_is_not(mini, tmp_path, run_cli):
    out = tmp_path / "out"
    first = run_cli("build", mini, "--formats", "json", "--out", out)
    assert first.exit_code == 0, first.output
    written = _lines(first, "wrote")
    assert written and (out / ".cache").is_dir()

    again = run_cli("build", mini, "--formats", "json", "--out", out)
    assert _lines(again, "unchanged") == written and not _lines(again, "wrote")

    csv = mini / "counters.csv"
    csv.write_text(csv.read_text().replace("6-3-8,3-1-8", "7-3-8,3-1-8"))
    edited = run_cli("build", mini, "--formats", "json", "--out", out)
    assert _lines(edited, "wrote") == written
    data = json.loads((out / "mini" / "mini.json").read_text())
    assert [u["front"] for u in data["units"] if u["id"] == "b-2"] == ["7-3-8"]


def test_a_file_made_again_with_the_same_bytes_is_kept_as_it_was(mini, tmp_path, run_cli):
    # a source file changed but not the model: both formats are made again, with the bytes
    # already there, so both files are kept (the module's time too) and said "unchanged"
    out = tmp_path / "out"
    run_cli("build", mini, "--formats", "json,vmod", "--out", out)
    module = out / "mini" / "mini.vmod"
    stamp = module.stat().st_mtime_ns
    csv = mini / "counters.csv"
    csv.write_text(csv.read_text() + "\n")  # a blank line: another file, the same model
    result = run_cli("build", mini, "--formats", "json,vmod", "--out", out)
    assert result.exit_code == 0, result.output
    assert set(_lines(result, "unchanged")) == {str(module), str(out / "mini" / "mini.json")}
    assert not _lines(result, "wrote")
    assert module.stat().st_mtime_ns == stamp


def test_a_touched_or_missing_output_is_rebuilt(mini, tmp_path, run_cli):
    out = tmp_path / "out"
    run_cli("build", mini, "--formats", "json", "--out", out)
    target = out / "mini" / "mini.json"
    target.write_text("edited by hand\n")
    assert _lines(run_cli("build", mini, "--formats", "json", "--out", out), "wrote")
    assert target.read_text().startswith("{")
    target.unlink()
    assert _lines(run_cli("build", mini, "--formats", "json", "--out", out), "wrote")


def test_no_cache_always_builds(mini, tmp_path, run_cli):
    out = tmp_path / "out"
    for _ in range(2):
        result = run_cli("build", mini, "--formats", "json", "--out", out, "--no-cache")
        assert _lines(result, "wrote") and not (out / ".cache").exists()


def test_broken_sources_are_never_skipped(mini, tmp_path, run_cli):
    out = tmp_path / "out"
    run_cli("build", mini, "--formats", "json", "--out", out)
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('first_player = "blue"', 'first_player = "green"'))
    result = run_cli("build", mini, "--formats", "json", "--out", out)
    assert result.exit_code == 2 and "green" in result.output


def test_sources_digest_sees_every_file_but_hidden_ones(mini):
    before = incremental.sources_digest(mini)
    (mini / ".notes.swp").write_text("editor droppings")
    (mini / "rules.md~").write_text("backup")
    assert incremental.sources_digest(mini) == before
    (mini / "scenarios" / "basic.toml").write_text(
        (mini / "scenarios" / "basic.toml").read_text() + "\n")
    assert incremental.sources_digest(mini) != before
