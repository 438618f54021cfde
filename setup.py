"""Packaging beyond pyproject.toml: the top-level content/ folder ships as package data.

The bundled maps, units and scenarios stay where the project keeps them (content/) and install
as the package `game._content`, so an installed game finds them through the package
(game.content.loader.bundled_content_dir). Every package under game/ is found as it is added.
"""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
CONTENT = HERE / "content"
content_packages = ["game._content"] + [
    "game._content." + ".".join(folder.relative_to(CONTENT).parts)
    for folder in sorted(CONTENT.rglob("*")) if folder.is_dir()
]

setup(
    packages=find_packages(include=["game", "game.*"]) + content_packages,
    package_dir={"game._content": "content"},
    package_data={"game.ui": ["*.tcss"],
                  **{name: ["*.yaml", "*.tmj", "*.tmx", "*.tsj", "*.png"]
                     for name in content_packages}},
)
