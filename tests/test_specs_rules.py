"""Each rules key is described once, in its `rule(...)` field (toolkit.specs.models): the schema,
the loader's family dispatch, the sweepable keys and the spec reference are derived from it."""
from __future__ import annotations

import pytest

from toolkit.families import all_families
from toolkit.specs import load_edition, loader
from toolkit.specs.models import (RULES_OF_FAMILY, DoodleRules, Edition, Family, TimeTrackRules, rule_fields,
                                  value_type)
from toolkit.specs.schema import RESOLVED_EDITION, Bool, Int, Str, json_schema

RULE_CLASSES = (Edition, *RULES_OF_FAMILY.values())
SPEC_RULES = [(cls, f) for cls in RULE_CLASSES for f in rule_fields(cls) if f.metadata["spec"]]
"""(class, field) of every rule a spec gives."""


@pytest.mark.parametrize("cls, f", SPEC_RULES, ids=[f.name for _, f in SPEC_RULES])
def test_each_rule_field_is_the_schema_entry_of_its_key(cls, f):
    entry = RESOLVED_EDITION.fields[f.name]
    meta = f.metadata
    assert entry.doc == meta["help"] and meta["help"]
    if meta["spec"] != "scalar":
        return
    kind = value_type(cls, f.name)
    if "choices" in meta:
        assert isinstance(entry.type, Str) and entry.type.enum == meta["choices"]
    elif kind is int:
        assert isinstance(entry.type, Int)
        assert (entry.type.minimum, entry.type.maximum) == meta["range"]
    elif kind is bool:
        assert isinstance(entry.type, Bool)
    else:
        assert isinstance(entry.type, Str)
    default = str(f.default).lower() if isinstance(f.default, bool) else str(f.default)
    assert entry.default == default and entry.described.endswith(f"Default: {default}.")


def test_the_range_of_starting_buttons_in_the_schema_and_the_json_schema_is_the_fields():
    field = next(f for f in rule_fields(TimeTrackRules) if f.name == "starting_buttons")
    entry = RESOLVED_EDITION.fields["starting_buttons"].type
    assert (entry.minimum, entry.maximum) == field.metadata["range"] == (0, 999)
    emitted = json_schema()["$defs"]["edition"]["properties"]["starting_buttons"]
    assert (emitted["minimum"], emitted["maximum"]) == field.metadata["range"]
    assert emitted["description"].startswith(field.metadata["help"])


def test_a_value_outside_a_rules_range_is_refused_at_its_line(tmp_path):
    from toolkit.errors import SpecError

    spec = tmp_path / "wide.yaml"
    spec.write_text("kind: variant\nextends: classic\nname: wide\nmarket_window: 100\n", encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_edition(spec)
    assert f"{spec.name}:4:16: market_window: must be at most 99, got 100" in str(caught.value)


def test_the_spec_reference_lists_every_rules_field_with_its_help():
    from toolkit.cli.reference import spec_markdown

    page = spec_markdown()
    edition = page.split("## edition", 1)[1].split("\n## ", 1)[0]
    for _, f in SPEC_RULES:
        line = next((ln for ln in edition.splitlines() if ln.startswith(f"- `{f.name}`:")), None)
        assert line is not None, f"{f.name} is missing from the spec reference"
        assert f.metadata["help"] in line
        if f.metadata["spec"] == "scalar":
            assert line.endswith(f" Default: `{RESOLVED_EDITION.fields[f.name].default}`.")


def test_the_committed_spec_reference_is_the_generated_one():
    from toolkit.cli.reference import DOCS, SPEC_PAGE, spec_markdown

    assert (DOCS / SPEC_PAGE).read_text(encoding="utf-8") == spec_markdown(), \
        "run .venv/bin/python -m toolkit.cli.reference"


def test_every_family_has_a_rules_builder_and_an_unknown_family_is_refused_by_name(monkeypatch):
    for family in Family:
        assert callable(loader.rules_builder(family))
    with pytest.raises(NotImplementedError, match="family 'third' has no rules builder"):
        loader.rules_builder("third")
    # A family the models know but the loader does not build is refused, not built as another's rules.
    monkeypatch.setattr(loader, "RULE_BUILDERS", {TimeTrackRules: loader.RULE_BUILDERS[TimeTrackRules]})
    with pytest.raises(NotImplementedError, match="family 'doodle' has no rules builder"):
        loader.edition_from_spec(load_edition("doodle").spec, "doodle.yaml")


def test_a_rules_class_the_loader_has_no_builder_for_is_refused_by_its_family(monkeypatch):
    from dataclasses import dataclass

    from toolkit.specs import models

    @dataclass(frozen=True)
    class ThirdRules:
        pass

    monkeypatch.setitem(models.RULES_OF_FAMILY, "time-track", ThirdRules)
    with pytest.raises(NotImplementedError, match="family 'time-track' has no rules builder"):
        loader.rules_builder(Family.TIME_TRACK)


@pytest.mark.parametrize("family", all_families(), ids=lambda f: f.info.name)
def test_sweep_offers_every_scalar_rule_the_family_reads(family):
    """Every scalar rule of the edition and of the family is sweepable unless its field gives the
    reason it is not (the engines read them all: tests/test_workbench_sweep.py plays each)."""
    own = RULES_OF_FAMILY[family.info.name]
    offered = {key.path for key in family.info.sweepable}
    for cls in (Edition, own):
        for f in rule_fields(cls):
            if f.metadata["spec"] != "scalar":
                continue
            if f.metadata["sweep"] is True:
                assert f.name in offered, f"{f.name} is read by the {family.info.title} engine but not offered"
            else:
                assert f.name not in offered and len(f.metadata["sweep"]) > 10
    others = {f.name for cls in RULES_OF_FAMILY.values() if cls is not own for f in rule_fields(cls)}
    assert not offered & others


def test_tie_break_and_doodle_empty_penalty_are_swept_and_applied():
    from toolkit.workbench import setpath

    classic, doodle = load_edition("classic"), load_edition("doodle")
    setting = setpath.parse_setting("tie_break=first-to-finish,shared", classic)
    shared = setpath.apply(classic, setting.path, setting.values[1])
    assert shared.rules.tie_break == "shared" and shared.content_hash != classic.content_hash
    setting = setpath.parse_setting("empty_penalty=0,5", doodle)
    harsh = setpath.apply(doodle, setting.path, 5)
    assert harsh.empty_penalty == 5 and setpath.get_value(harsh, "empty_penalty") == 5
    assert setpath.parse_setting("final_free_choice=true,false", doodle).values == (True, False)
    assert isinstance(doodle.rules, DoodleRules)
