"""Paths the tests share (a plain module: several test folders have their own conftest.py)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini"
