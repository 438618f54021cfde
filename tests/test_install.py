"""The game runs whole from a built wheel: bundled content found through the package, saves in
the user's data folder, never in the installed package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"                  # a copy: building writes build/ and egg-info
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name if source.exists() else _mkdir(source) / name)
    for folder in ("game", "content"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    str(source), "-w", str(work / "dist")], check=True, capture_output=True)
    wheel = next((work / "dist").glob("skirmish-*.whl"))
    target = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


@pytest.mark.slow
def test_the_wheel_holds_the_content_and_the_styles(unpacked_wheel: Path) -> None:
    assert (unpacked_wheel / "game" / "_content" / "scenarios" / "alley.yaml").is_file()
    assert (unpacked_wheel / "game" / "_content" / "terrain.yaml").is_file()
    for name in ("quarry.tmj", "skirmish.tsj", "skirmish.png"):       # the Tiled map and tiles
        assert (unpacked_wheel / "game" / "_content" / "maps" / name).is_file()
    assert (unpacked_wheel / "game" / "ui" / "app.tcss").is_file()


@pytest.mark.slow
def test_the_installed_game_plays_from_any_folder(unpacked_wheel: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(unpacked_wheel), "HOME": str(tmp_path / "home"),
           "XDG_DATA_HOME": ""}
    env.pop("SKIRMISH_SAVE_DIR", None)
    code = ("import game, sys; from game.saves import resolve_save_dir; "
            "from game.content.loader import bundled_content_dir; "
            "print(game.__file__); print(bundled_content_dir()); print(resolve_save_dir()); "
            "from game.cli import main; sys.exit(main(['sim', 'alley', '--seed', '1']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    module, content, saves, *log = done.stdout.splitlines()
    assert module.startswith(str(unpacked_wheel))
    assert content == str(unpacked_wheel / "game" / "_content")
    assert saves == str(tmp_path / "home" / ".local" / "share" / "skirmish" / "saves")
    assert log[-1].startswith("Winner:")
