"""Versioned, atomic save files for a battle.

A save is a JSON envelope ``{"format", "version", "checksum", "saved_at", "state"}``
around an opaque battle state; the checksum is the SHA-256 of the state's
canonical JSON, so a damaged or hand-edited state is refused rather than loaded.
Writes go through a temporary file and ``os.replace``, never half-writing a save; the
temporary file of a save killed mid-write is removed at the next save or listing. Only regular
files are read (a pipe or a device would block), and the save folder must be a writable folder
of the user's, outside the kernel's /proc, /sys and /dev.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from game.files import NotRegularFile, read_regular

SAVE_FORMAT = "skirmish-save"
CAMPAIGN_FORMAT = "skirmish-campaign"
CAMPAIGN_DIR = "campaigns"       # campaign saves: a folder of their own inside the save folder
_KIND_WORDS = {SAVE_FORMAT: "a battle save", CAMPAIGN_FORMAT: "a campaign save"}
SAVE_VERSION = 1
MIN_SUPPORTED_VERSION = 1
SAVE_SUFFIX = ".json"
MAX_SAVE_BYTES = 32 * 1024 * 1024
MAX_NAME_LENGTH = 64
SAVE_DIR_ENV = "SKIRMISH_SAVE_DIR"
ORPHAN_AGE = 60.0          # seconds: a temporary file this old belongs to a killed save
_SYSTEM_DIRS = ("/proc", "/sys", "/dev")

AUTOSAVES_KEPT = 3         # autosaves kept per battle: its last few rounds
_AUTOSAVE = re.compile(r"autosave-(?P<scenario>[A-Za-z0-9_]+)-(?P<battle>[0-9a-f]{1,16})-r(?P<round>[0-9]{1,6})")
_REQUIRED_KEYS = ("format", "version", "checksum", "saved_at", "state")
_NAME_CHARS = re.compile(r"[A-Za-z0-9 _.\-]+")
_RESERVED = re.compile(r"(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?", re.IGNORECASE)


class SaveError(Exception):
    """A player-facing sentence naming the file; ``reason`` is the bare cause."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


@dataclass(frozen=True)
class SaveInfo:
    name: str
    path: Path
    modified: float
    summary: dict[str, Any] | None
    ok: bool
    problem: str | None


def default_save_dir() -> Path:
    """``$SKIRMISH_SAVE_DIR`` if set; else the project's ``saves/`` folder when the game runs
    from a checkout of the project; else the user's data folder (``~/.local/share/skirmish/saves``
    on Linux, found by platformdirs), never inside an installed package."""
    env = os.environ.get(SAVE_DIR_ENV)
    if env:
        return Path(env).expanduser()
    project = Path(__file__).resolve().parents[1]
    if (project / "pyproject.toml").is_file() and (project / "saves").is_dir():
        return project / "saves"
    from platformdirs import user_data_path
    return user_data_path("skirmish", appauthor=False) / "saves"


def resolve_save_dir(override: str | Path | None = None) -> Path:
    """The folder to use: ``override`` (a --save-dir flag) beats the env var."""
    folder = Path(override).expanduser() if override else default_save_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(f"Cannot use save folder {folder}: {exc.strerror or exc}.") from None
    resolved = folder.resolve()
    reason = _unusable(resolved)
    if reason:
        raise SaveError(f"Cannot use save folder {folder}: {reason}.", reason)
    return resolved


def _unusable(folder: Path) -> str | None:
    """Why `folder` cannot hold saves, or None."""
    if any(folder == Path(top) or Path(top) in folder.parents for top in _SYSTEM_DIRS):
        return "it is one of the system's own folders (/proc, /sys, /dev)"
    if not folder.is_dir():
        return "it is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "it is not writable"
    if hasattr(os, "geteuid") and folder.stat().st_uid != os.geteuid():
        return "it belongs to another user"
    return None


def sanitize_name(name: str) -> str:
    """Return a safe save name (without suffix) or raise SaveError saying why."""
    clean = name.strip(" ")
    if clean.lower().endswith(SAVE_SUFFIX):
        clean = clean[: -len(SAVE_SUFFIX)].rstrip(" ")
    reason = None
    if not clean:
        reason = "it is empty"
    elif any(ord(ch) < 32 or ord(ch) == 127 for ch in clean):
        reason = "it contains control characters"
    elif "/" in clean or "\\" in clean:
        reason = "it must not contain / or \\"
    elif clean.startswith("."):
        reason = "it must not start with a dot"
    elif not _NAME_CHARS.fullmatch(clean):
        reason = "only letters, digits, spaces, '-', '_' and '.' are allowed"
    elif len(clean) > MAX_NAME_LENGTH:
        reason = f"it is longer than {MAX_NAME_LENGTH} characters"
    elif clean.endswith("."):
        reason = "it must not end with a dot"
    elif _RESERVED.fullmatch(clean):
        reason = "it is a reserved device name"
    if reason:
        raise SaveError(f"The save name {name!r} is not allowed: {reason}.", reason)
    return clean


def _save_path(folder: Path, name: str) -> Path:
    clean = sanitize_name(name)
    base = folder.resolve()
    path = base / f"{clean}{SAVE_SUFFIX}"
    if path.resolve().parent != base:
        reason = "it points outside the save folder"
        raise SaveError(f"The save name {name!r} is not allowed: {reason}.", reason)
    return path


def _canonical(state: Any) -> bytes:
    return json.dumps(
        state, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. Windows cannot open directories; os.replace is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse to fsync a directory
    finally:
        os.close(fd)


def write_save(folder: Path, name: str, state: dict[str, Any], *, kind: str = SAVE_FORMAT) -> Path:
    """Atomically write ``state`` as save ``name`` in ``folder``; return its path. ``kind``
    is the envelope's format: a battle save, or a campaign save (write_campaign_save)."""
    folder = Path(folder)
    path = _save_path(folder, name)
    if not isinstance(state, dict):
        raise SaveError(f"Cannot save {path.name}: the battle state is not a dictionary.")
    try:
        # Round-trip once so what we hash is exactly what a later load sees
        # (tuples become lists, non-string keys become strings).
        plain = json.loads(json.dumps(state, allow_nan=False))
        envelope = {
            "format": kind,
            "version": SAVE_VERSION,
            "checksum": hashlib.sha256(_canonical(plain)).hexdigest(),
            "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "state": plain,
        }
        data = _canonical(envelope) + b"\n"
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveError(
            f"Cannot save {path.name}: the battle state is not valid JSON ({exc})."
        ) from None
    if len(data) > MAX_SAVE_BYTES:
        raise SaveError(f"Cannot save {path.name}: it is over the {MAX_SAVE_BYTES} byte limit.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        remove_orphans(folder)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise SaveError(f"Cannot save {path}: {exc.strerror or exc}.") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise SaveError(f"Cannot save {path}: {exc.strerror or exc}.") from None
        raise
    _fsync_dir(path.parent)
    return path


def remove_orphans(folder: Path, age: float = ORPHAN_AGE) -> int:
    """Delete the temporary files of saves killed mid-write (untouched for `age` seconds; a
    save being written now is younger). Returns how many were removed."""
    removed, now = 0, time.time()
    for path in Path(folder).glob(".*.tmp"):
        try:
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= age:
                path.unlink()
                removed += 1
        except OSError:
            continue          # gone already, or not ours to delete
    return removed


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed")


def _load(path: Path, kind: str = SAVE_FORMAT) -> dict[str, Any]:
    """Read and verify the save at ``path`` (of format ``kind``); never modifies the file."""

    def fail(reason: str) -> SaveError:
        return SaveError(f"Cannot load save {path}: {reason}.", reason)

    try:
        raw = read_regular(path, MAX_SAVE_BYTES + 1)
    except FileNotFoundError:
        raise fail("the file does not exist") from None
    except NotRegularFile as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"the file cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise fail(f"the file is larger than the {MAX_SAVE_BYTES} byte limit")
    try:
        doc = json.loads(raw.decode("utf-8-sig"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise fail("it is not a valid save file (not JSON, or truncated)") from None
    if isinstance(doc, dict) and doc.get("format") in _KIND_WORDS and doc.get("format") != kind:
        raise fail(f"it is {_KIND_WORDS[doc['format']]}, not {_KIND_WORDS[kind]}")
    if not isinstance(doc, dict) or doc.get("format") != kind:
        raise fail("it is not a skirmish save file")
    missing = [key for key in _REQUIRED_KEYS if key not in doc]
    if missing:
        raise fail(f"it is incomplete (missing {', '.join(missing)})")
    version = doc["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail(f"its version {version!r} is not a number")
    if version > SAVE_VERSION:
        raise fail(
            f"it was made by a newer version of skirmish (save version {version}, "
            f"this version reads up to {SAVE_VERSION})"
        )
    if version < MIN_SUPPORTED_VERSION:
        raise fail(f"its save version {version} is too old and no longer supported")
    state = doc["state"]
    if not isinstance(state, dict):
        raise fail("it is corrupt (the battle state is not a dictionary)")
    if doc["checksum"] != hashlib.sha256(_canonical(state)).hexdigest():
        raise fail("it is corrupt (the checksum does not match)")
    return state


def read_save(folder: Path, name_or_path: str | Path, *, kind: str = SAVE_FORMAT) -> dict[str, Any]:
    """Load a save by bare name (looked up in ``folder``) or by explicit path.

    An explicit path (absolute, or containing a separator) may lie outside the
    folder, e.g. a save file another player sent.
    """
    text = str(name_or_path)
    if Path(text).is_absolute() or any(sep and sep in text for sep in ("/", os.sep, os.altsep)):
        path = Path(text).expanduser()
    else:
        path = _save_path(Path(folder), str(name_or_path))
    return _load(path, kind)


def list_saves(folder: Path, *, kind: str = SAVE_FORMAT) -> list[SaveInfo]:
    """All saves in ``folder``, newest first; broken ones have ``ok=False``."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    remove_orphans(folder)
    infos: list[SaveInfo] = []
    for path in folder.glob(f"*{SAVE_SUFFIX}"):
        if path.name.startswith(".") or not path.is_file():
            continue
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue  # vanished while listing
        try:
            summary = _load(path, kind).get("summary")
        except SaveError as exc:
            infos.append(SaveInfo(path.stem, path, modified, None, False, exc.reason))
        else:
            summary = summary if isinstance(summary, dict) else None
            infos.append(SaveInfo(path.stem, path, modified, summary, True, None))
    infos.sort(key=lambda info: (-info.modified, info.name))
    return infos


def saved_battle(folder: Path, name: str) -> str | None:
    """The battle id held by the save called `name`: None if there is no such save, "" if
    there is one but it names no battle (an older or broken save)."""
    try:
        path = _save_path(Path(folder), name)
    except SaveError:
        return None
    if not path.is_file():
        return None
    try:
        held = _load(path).get("battle_id")
    except SaveError:
        return ""
    return held if isinstance(held, str) else ""


def delete_save(folder: Path, name: str) -> None:
    """Delete save ``name`` from ``folder``."""
    path = _save_path(Path(folder), name)
    try:
        path.unlink()
    except FileNotFoundError:
        raise SaveError(f"Cannot delete save {path}: the file does not exist.") from None
    except OSError as exc:
        raise SaveError(f"Cannot delete save {path}: {exc.strerror or exc}.") from None


# --- autosaves ------------------------------------------------------------------------------

@dataclass(frozen=True)
class AutosaveName:
    scenario: str
    battle: str
    round: int


def autosave_name(scenario: str, battle: str, round_: int) -> str:
    """`autosave-<scenario>-<battle id>-r<round>`: one battle's autosaves share its id."""
    slug = re.sub(r"[^A-Za-z0-9_]+", "_", scenario).strip("_")[:24] or "battle"
    if not re.fullmatch(r"[0-9a-f]{1,16}", battle):
        raise SaveError(f"Cannot autosave: {battle!r} is not a battle id.")
    return f"autosave-{slug}-{battle}-r{int(round_)}"


def parse_autosave(name: str) -> AutosaveName | None:
    """The parts of an autosave's name, or None for any other save."""
    found = _AUTOSAVE.fullmatch(name)
    if found is None:
        return None
    return AutosaveName(found["scenario"], found["battle"], int(found["round"]))


def write_autosave(folder: Path, scenario: str, battle: str, round_: int, state: dict[str, Any],
                   keep: int = AUTOSAVES_KEPT) -> Path:
    """Write this round's autosave of a battle and keep only its `keep` newest autosaves
    (the one just written, then by time written, then by round); other battles' are untouched."""
    path = write_save(folder, autosave_name(scenario, battle, round_), state)
    others = []
    for other in Path(folder).glob(f"autosave-*-{battle}-r*{SAVE_SUFFIX}"):
        parsed = parse_autosave(other.stem)
        if other == path or parsed is None or parsed.battle != battle:
            continue
        try:
            others.append((other.stat().st_mtime, parsed.round, other))
        except OSError:
            continue
    others.sort(reverse=True)
    for _, _, old in others[max(keep - 1, 0):]:
        with contextlib.suppress(OSError):
            old.unlink()
    return path


# --- campaign saves -------------------------------------------------------------------------
# A campaign between battles (game.campaign.CampaignState) is saved in the `campaigns` folder
# of the save folder, in the same envelope with a format of its own: the battle save list
# never shows one, and a battle save is never read as a campaign's (or the other way round).

def campaign_dir(folder: Path) -> Path:
    return Path(folder) / CAMPAIGN_DIR


def write_campaign_save(folder: Path, name: str, state: dict[str, Any]) -> Path:
    """Write a campaign's state as campaign save `name` (in `folder`'s campaigns folder)."""
    return write_save(campaign_dir(folder), name, state, kind=CAMPAIGN_FORMAT)


def read_campaign_save(folder: Path, name_or_path: str | Path) -> dict[str, Any]:
    """A campaign save's state, by name (in `folder`'s campaigns folder) or path; SaveError
    when it is not one, is damaged or cannot be read (the file is left as it was)."""
    return read_save(campaign_dir(folder), name_or_path, kind=CAMPAIGN_FORMAT)


def list_campaign_saves(folder: Path) -> list[SaveInfo]:
    return list_saves(campaign_dir(folder), kind=CAMPAIGN_FORMAT)
