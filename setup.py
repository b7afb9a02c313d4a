"""The wheel carries the project's top-level `images/` folder (every image it builds) as
`tdd_sandbox/images/definitions/`, so `pip install tdd-sandbox && tdd-sandbox images build`
works outside a clone. Everything else is declared in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

IMAGES = Path(__file__).resolve().parent / "images"


class BuildWithImages(build_py):
    """build_py, then the image definitions copied in beside the package's code."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the checkout's images/
            target = Path(self.build_lib) / "tdd_sandbox" / "images" / "definitions"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(IMAGES, target)


setup(cmdclass={"build_py": BuildWithImages})
