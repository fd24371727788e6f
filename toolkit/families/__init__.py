"""The rules families as the rest of the toolkit sees them: one registered object each, with its
capability record (toolkit.families.base). Code above `games/` and `bots/` asks these objects."""
from toolkit.families.base import (FAMILY_PACKAGES, FamilyInfo, RulesFamily, Seating, SweepKey, all_families, engine_for,
                                   family_of, register_family, require, twin_ids)

__all__ = ["FAMILY_PACKAGES", "FamilyInfo", "RulesFamily", "Seating", "SweepKey", "all_families", "engine_for", "family_of",
           "register_family", "require", "twin_ids"]
