"""Game records (JSON) for both rules families: writing, reading, and replaying through the rules.

A record describes its game completely, so anyone can re-check it without this engine: the
edition as one self-contained spec (every reference inlined, the extends chain merged, as data)
beside its content hash and name, the seed, the players, the game options (Automa level and deck,
Doodle player count), the deal, every action in its text notation, what chance did during the
game (`chance`: Doodle die rolls and current cards per turn; Automa cards drawn and what Automa
did with them; Express late patches), and the final scores. No paths: a record of a variant
replays after the variant file is moved, edited or deleted, and a file sharing a bundled name is
never confused with it.

Replay loads the embedded spec (and checks its hash), re-plays the actions through the validating
engine (the first illegal action stops it with its index and reason), then checks the deal, the
chance log and the scores against the record. Version 1 records (edition by name or file path)
are still read.

The embedded spec's content hash is written twice, beside the spec and inside the deal (every
family's deal, record_deal), so a spec edited with one recomputed hash differs from its deal; a
record whose deal carries no hash (a Doodle record written before, or one set back to format 2)
is read only when its spec is the bundled edition of its name. Before the engine loads, the
players' labels are checked: one per seat, each a person or a bot of the family, and a solo
opponent's label agreeing with the game options that set it up.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import toolkit
from toolkit.families import family_of
from toolkit.errors import RecordError, ToolkitError, UsageError, printable, shortened
from toolkit.fileio import MAX_SEATS, atomic_write_text, read_record_text
from toolkit.families import engine_for
from toolkit.games.base import Game
from toolkit.specs import load_edition
from toolkit.specs.loader import edition_from_spec, model_hash, spec_of
from toolkit.specs.models import Edition

FORMAT = "patchwork-toolkit/game-record"
FORMAT_VERSION = 3
"""Bumped when the layout or the meaning of a field changes; older versions are read if listed in
READABLE_VERSIONS. Version 3: the content hash covers the whole embedded spec (versions 1 and 2
hold the hash of the rules model alone, which left out e.g. an Automa deck's title and a start
card's source, so those could be edited unseen)."""
READABLE_VERSIONS = (1, 2, 3)
WHOLE_SPEC_HASH = 3
"""The first format version whose content hash covers every field of the embedded spec."""
MAX_SEED = 2**63 - 1
"""Seeds are 0..2^63-1 everywhere (toolkit.cli.options.MAX_SEED)."""
MAX_LABEL = 40
"""Longest player label a record may hold (the longest bot text the command line takes)."""
SOLO_OPTIONS = ("automa_level", "automa_deck")
"""The game options a record may hold, for a family with a solo opponent (none for the others)."""


def edition_ref(edition: Edition) -> dict[str, Any]:
    """How a record holds its edition: name, content hash and the whole resolved spec."""
    return {"name": edition.name, "content_hash": edition.content_hash, "spec": spec_of(edition)}


def record_deal(game: Game) -> dict[str, Any]:
    """The deal as a record holds it: the family's deal with the edition's content hash in it
    (the time-track deal carries it already, the Doodle deal gets it here). The hash is written
    twice, beside the embedded spec and inside the deal, so a spec edited with one recomputed hash
    still differs from its deal."""
    return {**game.deal(), "content_hash": game.edition.content_hash}


def make_record(
    game: Game,
    players: list[str],
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of `game` as a JSON-ready dict (scores only when the game is over)."""
    options = dict(options if options is not None else game.options)
    fresh = engine_for(game.edition).new_game(game.edition, int(game.seed), game.players, **options)
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "toolkit_version": toolkit.__version__,
        "edition": edition_ref(game.edition),
        "seed": int(game.seed),
        "players": list(players),
        "options": options,
        "deal": record_deal(fresh),
        "actions": [str(action) for action in game.history],
        "chance": game.chance_log(),
        "final_scores": list(game.scores()) if game.is_over else None,
    }
    record["seats"] = int(game.players)
    return record


def dumps(record: dict[str, Any]) -> str:
    """Stable JSON text (sorted keys, two-space indent, trailing newline)."""
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


def check_record_path(path: str | Path) -> Path:
    """Raise RecordError unless a record can be written at `path`.

    Called before a game starts, so a game played by a person is not lost to a bad path at the
    end. The probe creates (and removes) a temporary file beside the target, as the atomic write
    will.
    """
    target = Path(path)
    if target.is_dir():
        raise RecordError(f"--record {path}: is a directory; give a file name, e.g. {target / 'game.json'}")
    if target.exists() and not target.is_file():
        raise RecordError(f"--record {path}: exists and is not a regular file")
    parent = target.parent
    while not parent.exists() and parent != parent.parent:  # missing folders are created on writing
        parent = parent.parent
    if not parent.is_dir():
        raise RecordError(f"--record {path}: {parent} is not a directory")
    try:
        with tempfile.NamedTemporaryFile(prefix=f".{target.name}.", suffix=".probe", dir=parent):
            pass
    except OSError as error:
        raise RecordError(f"--record {path}: cannot write in {parent}: {error.strerror or error}") from None
    return target


def write_record(path: str | Path, record: dict[str, Any]) -> Path:
    """Write a record atomically."""
    target = Path(path)
    try:
        return atomic_write_text(target, dumps(record))
    except OSError as error:
        raise RecordError(f"{path}: cannot write the record: {error.strerror or error}") from None
    except ToolkitError as error:
        raise RecordError(f"{path}: cannot write the record: {error.render()}") from None


def read_record(path: str | Path) -> dict[str, Any]:
    """Load and check the layout of a record file (not yet its actions)."""
    path = Path(path)
    try:
        text = read_record_text(path)
    except ToolkitError as error:
        raise RecordError(error.render()) from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None
    return check_record(record, str(path))


_JSON_KIND = {dict: "object", list: "array", int: "integer", str: "string", float: "number", bool: "true/false"}


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return _JSON_KIND.get(type(value), type(value).__name__)


def check_record(record: Any, where: str = "record") -> dict[str, Any]:
    """Raise RecordError naming the first key that is missing or of the wrong kind."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a game record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"{where}: format: expected '{FORMAT}', got {record.get('format')!r}")
    version = record.get("format_version")
    if "format_version" not in record:
        raise RecordError(f"{where}: format_version: missing")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            f"{where}: format_version: expected a JSON integer (e.g. {FORMAT_VERSION}),"
            f" got {_json_kind(version)} {json.dumps(version)}"
        )
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
            raise RecordError(f"{where}: {key}: expected a JSON {_JSON_KIND[kind]}, got {_json_kind(record[key])}")
    edition = record["edition"]
    if not isinstance(edition.get("name"), str) or not isinstance(edition.get("content_hash"), str):
        raise RecordError(f"{where}: edition: needs 'name' and 'content_hash' strings")
    for i, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise RecordError(f"{where}: actions[{i}]: expected action text, got {action!r}")
    for key in ("path", "relative_path"):
        if key in edition and not isinstance(edition[key], str):
            raise RecordError(f"{where}: edition.{key}: expected a file path string")
    if version >= 2:
        if not isinstance(edition.get("spec"), dict):
            raise RecordError(f"{where}: edition.spec: expected the edition's spec as a JSON object")
        for key, kind in (("deal", dict), ("chance", list)):
            if not isinstance(record.get(key), kind):
                raise RecordError(f"{where}: {key}: expected a JSON {_JSON_KIND[kind]}, got {_json_kind(record.get(key))}")
    if not 0 <= record["seed"] <= MAX_SEED:
        raise RecordError(f"{where}: seed: expected a whole number from 0 to {MAX_SEED}, got {record['seed']}"[:200])
    seats = record.get("seats")
    if seats is not None and (not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= MAX_SEATS):
        raise RecordError(f"{where}: seats: expected a whole number from 1 to {MAX_SEATS}, got {seats!r}")
    scores = record.get("final_scores")
    if scores is not None and not (isinstance(scores, list) and all(isinstance(s, int) for s in scores)):
        raise RecordError(f"{where}: final_scores: expected a list of integers or null")
    return record


def _edition_candidates(ref: dict[str, Any], base_dir: Path | None) -> list[Path]:
    """Where a record's variant file may be, best first, without repeats."""
    found: list[Path] = []
    relative = ref.get("relative_path")
    if relative and base_dir is not None:
        found.append(base_dir / relative)
    path = ref.get("path")
    if path:
        given = Path(path)
        if given.is_absolute():
            found.append(given)
        else:  # records written before paths were absolute: relative to some working directory
            if base_dir is not None:
                found.append(base_dir / given)
            found.append(given)
    unique: list[Path] = []
    for candidate in found:
        if candidate not in unique:
            unique.append(candidate)
    return unique


def record_edition(record: dict[str, Any], base_dir: Path | None = None) -> Edition:
    """The edition a record was played on, with its content hash checked.

    Version 2: the spec embedded in the record. Version 1: a bundled name, or a variant file
    looked for relative to the record's folder (`base_dir`) and at its absolute path.
    """
    ref = record["edition"]
    if isinstance(ref.get("spec"), dict):
        # The name the record shows is the spec's own: a record cannot show one edition's name
        # over another's rules (the hash covers the spec's name, not a label beside it).
        spec_name = ref["spec"].get("name")
        if spec_name != ref["name"]:
            shown = repr(spec_name)[:60] if isinstance(spec_name, str) else "no name"
            raise RecordError(f"the record names its edition {ref['name'][:60]!r} but its embedded spec has "
                              f"{shown}: the record was edited")
        try:
            edition = edition_from_spec(ref["spec"], f"record edition '{ref['name'][:60]}'")
        except ToolkitError as error:
            raise RecordError(f"the record's embedded edition cannot be loaded: {error.render()}") from None
        found = _hash_for(record, edition)
        if found != ref["content_hash"]:
            raise RecordError(
                f"the record's embedded edition '{ref['name'][:60]}' has content hash {found[:12]}..."
                f" but the record says {ref['content_hash'][:12]}...: the record was edited")
        return edition
    targets: list[str | Path]
    if ref.get("path") or ref.get("relative_path"):
        candidates = _edition_candidates(ref, base_dir)
        targets = [c for c in candidates if c.is_file()]
        if not targets:
            tried = ", ".join(str(c) for c in candidates)
            raise RecordError(
                f"the record's edition '{ref['name']}' is a variant file that is not found (looked at {tried})"
            )
    else:
        targets = [ref["name"]]
    mismatch: Edition | None = None
    for target in targets:
        try:
            edition = load_edition(target)
        except ToolkitError as error:
            raise RecordError(f"the record's edition '{ref['name']}' cannot be loaded: {error.render()}") from None
        if _hash_for(record, edition) == ref["content_hash"]:
            return edition
        mismatch = mismatch or edition
    assert mismatch is not None
    raise RecordError(
        f"the record was played on edition '{ref['name']}' with content hash"
        f" {ref['content_hash'][:12]}..., but the spec now loaded ({targets[0]}) has"
        f" {_hash_for(record, mismatch)[:12]}...; the rules data changed, so the record cannot be replayed faithfully"
    )


def _hash_for(record: dict[str, Any], edition: Edition) -> str:
    """The content hash of `edition` as the record's format version defines it: the whole spec
    from version 3 on; before, the rules model alone (a record converted from a newer one may
    carry the whole spec's hash, which is accepted too)."""
    if record.get("format_version", FORMAT_VERSION) >= WHOLE_SPEC_HASH or record["edition"]["content_hash"] == edition.content_hash:
        return edition.content_hash
    return model_hash(edition)


def _check_seats(record: dict[str, Any], edition: Edition) -> None:
    seats = record.get("seats")
    if seats is None:
        return
    try:
        family_of(edition).seats(edition, seats)
    except UsageError as error:
        raise RecordError(f"the record has seats: {seats}, but {error}") from None


def _plain(value: Any) -> Any:
    """JSON's view of a value (tuples become lists), to compare with what a record holds."""
    return json.loads(json.dumps(value))


def replay_edition(record: dict[str, Any], base_dir: Path | None = None) -> Edition:
    """The record's edition, with the record's seats and option names checked against it:
    everything about a record that can be refused without the rules engine (so before its
    kernels load or compile)."""
    edition = record_edition(record, base_dir)
    _check_deal_hash(record, edition)
    _check_seats(record, edition)
    allowed = SOLO_OPTIONS if family_of(edition).info.has_solo_opponent else ()
    unknown = sorted(str(name)[:40] for name in record["options"] if name not in allowed)
    if unknown:
        raise RecordError(f"the record's game options cannot be used: {shortened(unknown)} is not an option of "
                          f"'{edition.name}' (its options: {', '.join(allowed) or 'none'})")
    _check_players(record, edition)
    return edition


def _recorded_deal(record: dict[str, Any]) -> Any:
    """The record's deal as record_deal writes it (a deal written before the hash was added to
    every family's has it added, once _check_deal_hash has verified the edition another way)."""
    deal = record["deal"]
    if isinstance(deal, dict) and "content_hash" not in deal:
        return {**deal, "content_hash": record["edition"]["content_hash"]}
    return deal


def _check_deal_hash(record: dict[str, Any], edition: Edition) -> None:
    """The embedded spec's hash is written twice (record_deal): both copies must agree. A record
    whose deal carries no hash (a Doodle record written before it did, or a record set back to
    format 2) can only be trusted when its spec is the bundled edition of its name, whole: refused
    otherwise, since an edit of it with one recomputed hash could not be told."""
    if not isinstance(record["edition"].get("spec"), dict) or not isinstance(record.get("deal"), dict):
        return  # format 1: the edition is the bundled one or a file, never the record's own
    deal_hash = record["deal"].get("content_hash")
    if deal_hash is not None:
        if deal_hash != record["edition"]["content_hash"]:
            raise RecordError(f"the record's deal was dealt on content hash {str(deal_hash)[:12]}... but its edition "
                              f"'{edition.name}' has {record['edition']['content_hash'][:12]}...: the record was edited")
        return
    from toolkit.specs.catalogue import list_editions, list_variants

    if edition.name in list_editions() + list_variants() and load_edition(edition.name).content_hash == \
            edition.content_hash:
        return
    raise RecordError(f"the record's deal carries no content hash (format {record['format_version']}, written before "
                      f"every deal did), and its edition '{edition.name}' is not the bundled one of that name: an edit "
                      "of its embedded spec could not be told, so it is not replayed (play the game again to record it "
                      "anew)")


def _check_players(record: dict[str, Any], edition: Edition) -> None:
    """Every seat's label is a person or a bot of the edition's family, one per seat, and a solo
    opponent's label agrees with the game options (the options, not the label, set up the game, so
    a label changed alone would show one opponent over another's game)."""
    from toolkit.bots.registry import HUMAN, parse_bot

    players = record["players"]
    seats = family_of(edition).seats(edition, record.get("seats"))
    if len(players) != seats:
        raise RecordError(f"the record names {len(players)} players but its game of '{edition.name}' has {seats} seats")
    options = record["options"]
    level, deck = options.get("automa_level"), options.get("automa_deck")
    solo = []
    for at, label in enumerate(players):
        if not isinstance(label, str) or not label or len(label) > MAX_LABEL or not label.isprintable():
            shown = printable(repr(label)[:MAX_LABEL + 2]) if isinstance(label, str) else _json_kind(label)
            raise RecordError(f"players[{at}]: {shown} is not a player's name (a bot such as greedy or mcts:200, or "
                              f"{HUMAN}, at most {MAX_LABEL} printable characters)")
        if label.strip().lower() == HUMAN:
            continue
        try:
            spec = parse_bot(label, edition.family, level if isinstance(level, int) else 1,
                             deck if isinstance(deck, str) else "normal")
        except ToolkitError as error:
            raise RecordError(f"players[{at}]: {error.render()}") from None
        if spec.solo_opponent:
            solo.append((at, label, spec))
    expected = {"automa_level": solo[0][2].automa_level, "automa_deck": solo[0][2].automa_deck} if solo else {}
    if len(solo) > 1 or {k: options[k] for k in SOLO_OPTIONS if k in options} != expected:
        label = solo[0][1] if solo else None
        said = f"players[{solo[0][0]}] is {label!r}" if label else "no player is the solo opponent"
        raise RecordError(f"the record's {said} but its options say "
                          f"{', '.join(f'{k} {options[k]!r}' for k in SOLO_OPTIONS if k in options) or 'none'}: the "
                          "record was edited")


def replay(record: dict[str, Any], base_dir: Path | None = None, check_scores: bool = True) -> Any:
    """Play a record's actions through the rules; returns the game at the end.

    Raises RecordError at the first action that cannot be read or is illegal (with its index),
    and when the final scores differ from the recorded ones.
    """
    edition = replay_edition(record, base_dir)
    engine = engine_for(edition)
    options = dict(record["options"])
    seats = record.get("seats")
    try:
        game = engine.new_game(edition, int(record["seed"]), seats, **options)
    except (ToolkitError, TypeError, ValueError) as error:
        detail = error.render() if isinstance(error, ToolkitError) else "unknown or repeated option"
        raise RecordError(f"the record's game options cannot be used: {detail}") from None
    if "deal" in record and _plain(record_deal(game)) != _recorded_deal(record):
        raise RecordError("the replayed deal differs from the record's: the record was edited or written by an"
                          " engine with other rules")
    for index, text in enumerate(record["actions"]):
        try:
            action = game.parse_action(text)
            game.apply(action)
        except ToolkitError as error:
            raise RecordError(f"action {index} ('{text}'): {error.render()}") from None
    if "chance" in record and _plain(game.chance_log()) != record["chance"]:
        raise RecordError("the replayed game's chance (rolls, cards, Automa draws) differs from the record's:"
                          " the record was edited or written by an engine with other rules")
    recorded = record.get("final_scores")
    if recorded is not None and not game.is_over:  # refused for play --resume too: the record was edited
        raise RecordError(
            f"the record ends after {len(record['actions'])} actions but the game is not over;"
            f" recorded scores {shortened(recorded, 8)}"
        )
    if check_scores and recorded is not None and list(game.scores()) != list(recorded):
        raise RecordError(f"replayed scores {game.scores()} differ from the recorded {shortened(recorded, 8)}")
    return game
