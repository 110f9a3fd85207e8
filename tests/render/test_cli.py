"""`builder build --formats svg,pdf,png` end to end, with the paper and map-sheet options."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from click.testing import CliRunner

from builder.cli import main

MINI = str(Path(__file__).resolve().parents[1] / "fixtures" / "mini")


def test_build_writes_every_print_file(tmp_path):
    res = CliRunner().invoke(
        main, ["build", MINI, "--formats", "svg,pdf,png", "--out", str(tmp_path), "--no-cache"]
    )
    assert res.exit_code == 0, res.output
    folder = tmp_path / "mini" / "print"
    names = {p.name for p in folder.iterdir()}
    for need in (
        "mini-map.pdf",
        "mini-counters.pdf",
        "mini-aids.pdf",
        "mini-map.svg",
        "mini-map.png",
        "mini-counters-1-front.svg",
        "mini-counters-1-back.png",
        "mini-aids-1.svg",
        "mini-calibration-front.svg",
    ):
        assert need in names, need
    assert (folder / "mini-map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_paper_and_map_sheet_options(tmp_path):
    res = CliRunner().invoke(
        main,
        [
            "build",
            MINI,
            "--formats",
            "pdf",
            "--out",
            str(tmp_path),
            "--no-cache",
            "--paper",
            "a4",
            "--map-sheet",
            "a3",
        ],
    )
    assert res.exit_code == 0, res.output
    folder = tmp_path / "mini" / "print"
    with pdfplumber.open(folder / "mini-counters.pdf") as pdf:
        assert round(float(pdf.pages[0].width) * 25.4 / 72) == 210
    with pdfplumber.open(folder / "mini-map.pdf") as pdf:
        assert round(float(pdf.pages[0].height) * 25.4 / 72) == 420


def test_bad_option_is_a_usage_error(tmp_path):
    res = CliRunner().invoke(main, ["build", MINI, "--formats", "pdf", "--paper", "legal"])
    assert res.exit_code == 2
    assert "legal" in res.output


def test_map_too_large_for_the_chosen_sheet_is_refused(tmp_path):
    """Issue 15: the sizes and the smallest sheet that fits, and nothing written."""
    from repo_paths import ROOT

    res = CliRunner().invoke(main, ["build", str(ROOT / "sources" / "scheldt"), "--formats", "pdf",
                                    "--out", str(tmp_path), "--map-sheet", "11x17"])
    assert res.exit_code == 2
    assert ("error: scheldt: the map is 405 x 650 mm (with its key and tracks), larger than the "
            "printable 259 x 397 mm of the 11x17 in sheet (either way round): use --map-sheet 22x34 "
            "(22x34 in, the smallest that fits), or leave out --map-sheet to tile it over the paper"
            ) in res.stderr
    assert not (tmp_path / "scheldt").exists()


def test_game_and_all_together_is_refused(tmp_path):
    res = CliRunner().invoke(main, ["build", str(MINI), "--all", "--out", str(tmp_path)])
    assert res.exit_code == 2
    assert "give GAME names or --all, not both" in res.output
    assert not any(tmp_path.iterdir())
