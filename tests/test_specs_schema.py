"""The JSON Schema written by the toolkit: well formed, deterministic, and true to the loader.

jsonschema is not a dependency, so a small validator for the keywords the schema uses lives
here; when jsonschema happens to be installed it is consulted as well.
"""
from __future__ import annotations

import json
import re

import pytest
import yaml

from toolkit.specs import bundled_specs_dir, json_schema

USED_KEYWORDS = {"$schema", "$id", "$defs", "$ref", "title", "description", "type", "properties",
                 "required", "additionalProperties", "patternProperties", "items", "minItems",
                 "maxItems", "uniqueItems", "minimum", "maximum", "minLength", "maxLength",
                 "pattern", "enum", "oneOf", "minProperties"}
TYPES = {"object": dict, "array": list, "string": str, "null": type(None), "boolean": bool}


def _is_type(value, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def errors(schema: dict, value, root: dict, path: str = "") -> list[str]:
    """Violations of `schema` by `value` (the subset of draft 2020-12 the toolkit emits)."""
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target[part]
        return errors(target, value, root, path)
    found: list[str] = []
    if "type" in schema and not _is_type(value, schema["type"]):
        return [f"{path}: not {schema['type']}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path}: {value!r} not in enum")
    if "oneOf" in schema:
        matches = [s for s in schema["oneOf"] if not errors(s, value, root, path)]
        if len(matches) != 1:
            found.append(f"{path}: matches {len(matches)} of oneOf")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1 << 30):
            found.append(f"{path}: length")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{path}: pattern")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            found.append(f"{path}: range")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1 << 30):
            found.append(f"{path}: item count")
        if schema.get("uniqueItems") and len({json.dumps(v) for v in value}) != len(value):
            found.append(f"{path}: not unique")
        for i, item in enumerate(value):
            if "items" in schema:
                found += errors(schema["items"], item, root, f"{path}[{i}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{path}: missing {key}")
        if len(value) < schema.get("minProperties", 0):
            found.append(f"{path}: too few keys")
        for key, item in value.items():
            sub = schema.get("properties", {}).get(key)
            if sub is None:
                sub = next((s for p, s in schema.get("patternProperties", {}).items()
                            if re.search(p, key)), None)
            if sub is None:
                if schema.get("additionalProperties") is False:
                    found.append(f"{path}.{key}: not allowed")
                continue
            found += errors(sub, item, root, f"{path}.{key}")
    return found


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_schema_is_deterministic_json():
    first = json.dumps(json_schema(), sort_keys=True)
    assert first == json.dumps(json_schema(), sort_keys=True)
    assert json.loads(first)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_structure():
    schema = json_schema()
    assert set(schema["$defs"]) == {"patch-set", "start-cards", "time-track", "automa", "edition", "variant"}
    assert [r["$ref"] for r in schema["oneOf"]] == [f"#/$defs/{k}" for k in schema["$defs"]]
    for kind, body in schema["$defs"].items():
        assert body["type"] == "object" and body["additionalProperties"] is False
        assert body["properties"]["kind"] == {"description": f"Spec file kind: {kind}.", "enum": [kind]}
        assert "kind" in body["required"]
    keywords = set()
    for node in _walk(schema):
        if "type" in node or "$ref" in node or "oneOf" in node or "enum" in node:
            keywords |= set(node)
        for pattern in list(node.get("patternProperties", {})) + [node.get("pattern")]:
            if isinstance(pattern, str):
                re.compile(pattern)
    assert keywords <= USED_KEYWORDS, keywords - USED_KEYWORDS
    edition = schema["$defs"]["edition"]
    assert edition["properties"]["board"]["properties"]["width"]["maximum"] == 16
    assert set(edition["required"]) >= {"name", "title", "family", "players", "board", "patches"}


@pytest.mark.slow
def test_every_bundled_file_validates_against_the_schema():
    schema = json_schema()
    files = sorted(bundled_specs_dir().rglob("*.yaml"))
    assert len(files) >= 20
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert errors(schema, data, schema) == [], path


@pytest.mark.parametrize("change", [
    {"starting_buttons": -1}, {"board": {"width": 17, "height": 9}}, {"colour": "red"},
    {"family": "dice"}, {"players": "two"}, {"patches": []},
])
def test_schema_rejects_what_the_loader_rejects(change):
    schema = json_schema()
    data = yaml.safe_load((bundled_specs_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8"))
    assert errors(schema, data, schema) == []
    data.update(change)
    assert errors(schema, data, schema)


@pytest.mark.slow
def test_the_emitted_schema_is_valid_draft_2020_12_and_accepts_every_bundled_spec():
    import jsonschema

    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted(bundled_specs_dir().rglob("*.yaml")):
        validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_every_rules_key_of_each_family_is_in_the_schema_and_nothing_else():
    """The per-family keys of the edition schema are exactly the spec keys the rules models declare
    (toolkit.specs.models): a new rule is its field in the model and the engine that reads it."""
    from dataclasses import fields

    from toolkit.specs.models import RULES_OF_FAMILY, Edition, spec_keys
    from toolkit.specs.schema import RESOLVED_EDITION

    rules = {key for cls in RULES_OF_FAMILY.values() for key in spec_keys(cls)}
    common = {f.name for f in fields(Edition)} | {"players", "board", "kind", "confidence", "provenance"}
    schema_keys = set(RESOLVED_EDITION.fields)
    assert rules <= schema_keys
    assert schema_keys - common == rules
