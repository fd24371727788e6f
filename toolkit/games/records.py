"""Game records (JSON) for both rules families: writing, reading, and replaying through the rules.

A record holds what is needed to play the game again bit for bit: the edition (name, content
hash of the resolved spec, and the variant file when it is not bundled), the seed, the players,
the game options (Automa level and deck, Doodle player count), every action in its text notation,
and the final scores. Replay re-plays the actions through the validating engine; the first
illegal action stops it with its index and reason.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import toolkit
from toolkit.errors import RecordError, ToolkitError
from toolkit.fileio import atomic_write_text
from toolkit.games.base import engine_for
from toolkit.specs import load_edition
from toolkit.specs.catalogue import list_editions, list_variants
from toolkit.specs.models import Edition

FORMAT = "patchwork-toolkit/game-record"
FORMAT_VERSION = 1
"""Bumped when the layout changes; older versions are read if listed in READABLE_VERSIONS."""
READABLE_VERSIONS = (1,)


def edition_ref(edition: Edition) -> dict[str, Any]:
    """How a record names its edition: bundled name, or the variant file it came from."""
    ref: dict[str, Any] = {"name": edition.name, "content_hash": edition.content_hash}
    bundled = set(list_editions()) | set(list_variants())
    if edition.name not in bundled and edition.source:
        ref["path"] = str(edition.source)
    return ref


def make_record(
    game: Any,
    players: list[str],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of `game` as a JSON-ready dict (scores only when the game is over)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "toolkit_version": toolkit.__version__,
        "edition": edition_ref(game.edition),
        "seed": int(game.seed),
        "players": list(players),
        "options": dict(options if options is not None else getattr(game, "options", {}) or {}),
        "actions": [str(action) for action in game.history],
        "final_scores": list(game.scores()) if game.is_over else None,
    }
    if getattr(game, "players", None) is not None:
        record["seats"] = int(game.players)
    return record


def dumps(record: dict[str, Any]) -> str:
    """Stable JSON text (sorted keys, two-space indent, trailing newline)."""
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


def write_record(path: str | Path, record: dict[str, Any]) -> Path:
    """Write a record atomically."""
    return atomic_write_text(path, dumps(record))


def read_record(path: str | Path) -> dict[str, Any]:
    """Load and check the layout of a record file (not yet its actions)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None
    return check_record(record, str(path))


def check_record(record: Any, where: str = "record") -> dict[str, Any]:
    """Raise RecordError naming the first key that is missing or of the wrong kind."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a game record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"{where}: format: expected '{FORMAT}', got {record.get('format')!r}")
    version = record.get("format_version")
    if version not in READABLE_VERSIONS:
        raise RecordError(
            f"{where}: format_version {version!r} is not supported by toolkit {toolkit.__version__}"
            f" (it reads version{'s' if len(READABLE_VERSIONS) > 1 else ''}"
            f" {', '.join(map(str, READABLE_VERSIONS))}); the record was written by toolkit"
            f" {record.get('toolkit_version', 'unknown')}"
        )
    expect = {
        "edition": dict,
        "seed": int,
        "players": list,
        "options": dict,
        "actions": list,
    }
    for key, kind in expect.items():
        if key not in record:
            raise RecordError(f"{where}: {key}: missing")
        if not isinstance(record[key], kind) or isinstance(record[key], bool):
            raise RecordError(f"{where}: {key}: expected a JSON {kind.__name__}, got {type(record[key]).__name__}")
    edition = record["edition"]
    if not isinstance(edition.get("name"), str) or not isinstance(edition.get("content_hash"), str):
        raise RecordError(f"{where}: edition: needs 'name' and 'content_hash' strings")
    for i, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise RecordError(f"{where}: actions[{i}]: expected action text, got {action!r}")
    scores = record.get("final_scores")
    if scores is not None and not (isinstance(scores, list) and all(isinstance(s, int) for s in scores)):
        raise RecordError(f"{where}: final_scores: expected a list of integers or null")
    return record


def record_edition(record: dict[str, Any], base_dir: Path | None = None) -> Edition:
    """Load the edition a record names and check its content hash."""
    ref = record["edition"]
    target: str | Path = ref["name"]
    if ref.get("path"):
        candidate = Path(ref["path"])
        if not candidate.is_absolute() and base_dir is not None and not candidate.exists():
            candidate = base_dir / candidate
        target = candidate
    try:
        edition = load_edition(target)
    except ToolkitError as error:
        raise RecordError(f"the record's edition '{ref['name']}' cannot be loaded: {error.render()}") from None
    if edition.content_hash != ref["content_hash"]:
        raise RecordError(
            f"the record was played on edition '{ref['name']}' with content hash"
            f" {ref['content_hash'][:12]}..., but the spec now loaded has {edition.content_hash[:12]}...;"
            " the rules data changed, so the record cannot be replayed faithfully"
        )
    return edition


def replay(record: dict[str, Any], base_dir: Path | None = None, check_scores: bool = True) -> Any:
    """Play a record's actions through the rules; returns the game at the end.

    Raises RecordError at the first action that cannot be read or is illegal (with its index),
    and when the final scores differ from the recorded ones.
    """
    edition = record_edition(record, base_dir)
    engine = engine_for(edition)
    options = dict(record["options"])
    seats = record.get("seats")
    try:
        game = engine.new_game(edition, int(record["seed"]), seats, **options)
    except ToolkitError as error:
        raise RecordError(f"the record's game options cannot be used: {error.render()}") from None
    for index, text in enumerate(record["actions"]):
        try:
            action = game.parse_action(text)
            game.apply(action)
        except ToolkitError as error:
            raise RecordError(f"action {index} ('{text}'): {error.render()}") from None
    recorded = record.get("final_scores")
    if check_scores and recorded is not None:
        if not game.is_over:
            raise RecordError(
                f"the record ends after {len(record['actions'])} actions but the game is not over;"
                f" recorded scores {recorded}"
            )
        if list(game.scores()) != list(recorded):
            raise RecordError(f"replayed scores {game.scores()} differ from the recorded {recorded}")
    return game
