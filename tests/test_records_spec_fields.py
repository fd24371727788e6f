"""Every field of a record's embedded spec is covered by its content hash: a record with any one
field changed (generated over every leaf of the spec of a time-track edition with Automa and of
Doodle) is refused with one line, never replayed under the changed spec."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from toolkit import records
from toolkit.errors import RecordError

GOLDEN = Path(__file__).parent / "golden"
RECORDS = ("anniversary", "doodle")
"""Golden records: between them they embed an Automa deck, a time track, late patches, a bonus
tile, start cards, a die and special actions."""


def _record(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def _leaves(value, path=()):
    """Key paths of every leaf (a list of strings, e.g. a shape's rows, is one leaf)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list) and value and not all(isinstance(item, str) for item in value):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
    else:
        yield path


def _changed(value):
    """A different value of the same kind where there is one."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [value[0] + "#", *value[1:]] if value else [0]
    return 1 if value is None else None


def _cases():
    for name in RECORDS:
        for path in _leaves(_record(name)["edition"]["spec"]):
            if path != ("kind",):
                yield pytest.param(name, path, id=f"{name}:" + ".".join(map(str, path)))


def _edit(record: dict, path: tuple) -> dict:
    edited = copy.deepcopy(record)
    where = edited["edition"]["spec"]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = _changed(where[path[-1]])
    return edited


@pytest.mark.parametrize("name", RECORDS)
def test_the_golden_records_replay_unchanged(name):
    assert records.record_edition(_record(name)).name == name


@pytest.mark.parametrize("name, path", list(_cases()))
def test_changing_any_one_field_of_the_embedded_spec_is_refused_with_one_line(name, path):
    with pytest.raises(RecordError) as refused:
        records.record_edition(_edit(_record(name), path))
    text = refused.value.render()
    assert "\n" not in text and len(text) < 400, text


@pytest.mark.parametrize("name, path", [
    ("anniversary", ("automa", "name")),
    ("anniversary", ("automa", "title")),
    ("anniversary", ("automa", "provenance")),
    ("doodle", ("start_cards", 0, "source")),
])
def test_fields_outside_the_rules_model_are_protected_too(name, path):
    """These fields do not change the rules model, so only the hash over the whole spec sees them."""
    with pytest.raises(RecordError, match="the record was edited"):
        records.record_edition(_edit(_record(name), path))


def test_a_record_of_format_version_2_holds_the_model_hash_and_still_replays():
    from toolkit.specs.loader import model_hash

    record = _record("anniversary")
    edition = records.record_edition(record)
    record["format_version"] = 2
    record["edition"]["content_hash"] = model_hash(edition)
    assert records.record_edition(record).content_hash == edition.content_hash
    record["format_version"] = 3
    with pytest.raises(RecordError, match="the record was edited"):
        records.record_edition(record)


@pytest.mark.slow
def test_the_command_line_refuses_an_edited_automa_title_with_one_line(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "edited.json"
    path.write_text(json.dumps(_edit(_record("anniversary"), ("automa", "title"))), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("patchwork: error:") and "the record was edited" in line
