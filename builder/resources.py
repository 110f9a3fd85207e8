"""The files the package reads at run time besides its code: the aid's templates and scripts and
the new game's files (templates/), and the JSON Schemas (schema/).

They are read through importlib.resources, from inside the installed package. templates/ stays
at the top of the repository, where designers and the aid's scripts are edited, and the wheel
and sdist copy it into the package as builder/templates (setup.py); a source checkout run in
place (PYTHONPATH, or an editable install) reads the top-level folder itself.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _folder(traversable) -> Path:
    """A Traversable of an installed package as a Path (pip installs packages unpacked)."""
    return Path(str(traversable))


@cache
def templates() -> Path:
    """The templates folder: builder/templates when installed, else the checkout's templates/."""
    packaged = resources.files("builder") / "templates"
    if packaged.is_dir():
        return _folder(packaged)
    return _CHECKOUT / "templates"


def aid_templates() -> Path:
    """The aid page's jinja2 templates, styles and scripts."""
    return templates() / "aid"


def new_game_template() -> Path:
    """The files `builder new` writes, every key commented."""
    return templates() / "new-game"


def schema_dir() -> Path:
    """The JSON Schemas of the source files (package data: builder/schema)."""
    return _folder(resources.files("builder") / "schema")


def checkout() -> Path | None:
    """The source checkout the package runs from, or None for an installed package (a checkout
    has pyproject.toml beside the package: `builder schema` writes docs/ there)."""
    return _CHECKOUT if (_CHECKOUT / "pyproject.toml").is_file() and (
        _CHECKOUT / "templates").is_dir() else None
