"""What an edition prints, asked of its family's capability record: the one refusal for a
component the family does not print, the solo opponent deck Automa cards are drawn from, and
the bundled editions a component prints when none is named.

Nothing here names a family or an edition: a family lists its printed components in
`FamilyInfo.components`, and the solo opponent comes from `RulesFamily.solo_opponent`.
"""
from __future__ import annotations

from toolkit.errors import UsageError
from toolkit.families import RulesFamily, all_families, family_of
from toolkit.specs.models import Edition


def require_component(edition: Edition, component: str, what: str | None = None) -> RulesFamily:
    """The edition's family, or one UsageError naming what it does print, e.g. `tiles: 'doodle'
    is a Doodle edition, which prints sheet, pad, ...; for tiles choose a time-track edition (...)`.
    `what` names the pieces in the message (default: the component)."""
    family = family_of(edition)
    info = family.info
    if component in info.components:
        return family
    name = what or component
    others = " or ".join(f"a {f.info.title} edition ({f.info.editions})" for f in all_families()
                         if component in f.info.components)
    where = f"; for {name} choose {others}" if others else ""
    raise UsageError(f"{name}: '{edition.name}' is a {info.title} edition, which prints "
                     f"{', '.join(info.components)}{where}")


def solo_opponent(edition: Edition):
    """The edition's solo opponent deck (Automa), or None when its family or it has none."""
    family = family_of(edition)
    return family.solo_opponent(edition) if family.info.has_solo_opponent else None


def level_spaces(edition: Edition) -> tuple[tuple[int, str, int], ...]:
    """(level, name, time-board space) of each level of the edition's solo opponent: the space its
    level marker goes on, counted back from the final space; () without a solo opponent."""
    deck = solo_opponent(edition)
    if deck is None:
        return ()
    final = edition.timetrack_rules.track.final_space
    return tuple((lv.level, lv.name, final - lv.spaces_from_end) for lv in deck.levels)


def solo_editions() -> list[str]:
    """The bundled editions that bring a solo opponent deck, in catalogue order."""
    from toolkit.specs import list_editions, load_edition

    return [name for name in list_editions() if solo_opponent(load_edition(name)) is not None]


def require_solo_opponent(edition: Edition, what: str = "Automa cards print"):
    """The edition's solo opponent deck, or one UsageError naming editions that have one (`what`
    names what needs it, e.g. `--solo kits print`)."""
    deck = solo_opponent(edition)
    if deck is None:
        examples = ", ".join(solo_editions())
        raise UsageError(
            f"edition '{edition.name}' has no Automa deck; {what} for editions that "
            f"include the solo opponent{f' (e.g. {examples})' if examples else ''}"
        )
    return deck


def default_edition(component: str, needs_solo_opponent: bool = False) -> str:
    """The bundled edition a component prints when none is named: the default edition of the
    first family that prints it, or, for a component drawn from the solo opponent deck, the first
    bundled edition of that family that has one."""
    family = next((f for f in all_families() if component in f.info.components), None)
    if family is None:
        raise UsageError(f"no rules family prints '{component}'")
    if needs_solo_opponent:
        from toolkit.specs import load_edition

        if solo_opponent(load_edition(family.info.default_edition)) is None:
            found = [name for name in solo_editions() if family_of(load_edition(name)) is family]
            if found:
                return found[0]
    return family.info.default_edition
