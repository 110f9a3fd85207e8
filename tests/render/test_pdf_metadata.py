"""The PDFs' document information: who made the game, each person named once."""

from __future__ import annotations

import shutil

import pikepdf

from builder.load import load_game
from builder.outputs.print import build_pdf

from .conftest import FIXTURES


def test_a_person_with_two_roles_is_one_author(tmp_path):
    game_dir = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", game_dir)
    toml = game_dir / "game.toml"
    toml.write_text(toml.read_text().replace(
        '[[credits]]\nrole = "Design"\nnames = ["Test Designer"]\n',
        '[[credits]]\nrole = "Design"\nnames = ["Test Designer"]\n\n'
        '[[credits]]\nrole = "Development"\nnames = ["A. Developer", "Test Designer"]\n', 1))
    paths = build_pdf(load_game(game_dir), tmp_path / "out")
    for path in paths:
        with pikepdf.open(path) as pdf:
            assert str(pdf.docinfo["/Author"]) == "Test Designer, A. Developer", path.name
