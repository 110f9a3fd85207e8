"""Paths the tests share (a plain module: several test folders have their own conftest.py)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini"


def engine_choice():
    """scripts/vassal/engine.py as a module: which VASSAL engine the engine tests run."""
    import importlib.util
    import sys

    name = "builder_vassal_engine_choice"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "vassal" / "engine.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
