"""Packaging beyond pyproject.toml: templates/ (the aid's templates and scripts, the files
`builder new` writes) stays at the top of the repository and is copied into the package as
builder/templates, where builder.resources reads it through importlib.resources."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithTemplates(build_py):
    """build_py, then templates/ copied into the built package (not for an editable install,
    which reads the checkout's templates/ in place)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        dest = Path(self.build_lib) / "builder" / "templates"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(Path(__file__).parent / "templates", dest,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*~", ".*"))


setup(cmdclass={"build_py": BuildPyWithTemplates})
