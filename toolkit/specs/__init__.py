"""The spec language: YAML spec files -> frozen, validated Edition models.

Public entry points: load_edition, list_editions, list_variants, bundled_specs_dir,
validate_paths and json_schema. Loading is strict and validated once, here at the boundary; the
rest of the toolkit trusts the models it gets.
"""
from toolkit.specs.catalogue import bundled_specs_dir, list_editions, list_variants
from toolkit.specs.loader import load_edition, validate_paths, validate_report
from toolkit.specs.models import (Automa, AutomaCard, AutomaLevel, Bonus, Edition, Family, Patch,
                                  StartCard, TimeTrack)
from toolkit.specs.schema import json_schema

__all__ = [
    "Automa", "AutomaCard", "AutomaLevel", "Bonus", "Edition", "Family", "Patch", "StartCard",
    "TimeTrack", "bundled_specs_dir", "json_schema", "list_editions", "list_variants",
    "load_edition", "validate_paths", "validate_report",
]
