"""No silent spec keys: every key of every bundled edition changes the game, is refused, or is
documented as cosmetic.

The walk reads the schema itself (toolkit.specs.schema), not a list of keys kept here: for every
key the edition spec may hold (nested mappings, the first item of each list, keys that are absent
too) it builds changed specs and loads each one. A change must be refused at load time, or give a
seeded deal, game or simulation that differs from the base; a key whose every loadable change
plays exactly like the base is a silent key and fails the test. Keys the schema marks `cosmetic`
(titles, colours, provenance, names others refer to) are listed and skipped.
"""
from __future__ import annotations

import copy
import hashlib
import json

import numpy as np
import pytest

from toolkit.errors import SpecError, ToolkitError
from toolkit.games.rng import derive_seed, seed_state
from toolkit.specs import list_editions
from toolkit.specs.loader import edition_from_spec, model_hash, resolved_spec
from toolkit.specs.schema import (Bool, EDITION_FILE, Int, List, Null, Obj, ShapeText, Str, Union)

GAMES = 12


def _leaves(spec: Obj, data: dict, path: tuple):
    """(path, field, value or MISSING) for every key of `spec` in `data` and nested in it."""
    for name, f in spec.fields.items():
        key_path = path + (name,)
        value = data.get(name, MISSING) if isinstance(data, dict) else MISSING
        yield key_path, f, value
        for option in _options(f.type, value):
            if isinstance(option, Obj) and isinstance(value, dict):
                yield from _leaves(option, value, key_path)
            elif isinstance(option, List) and isinstance(value, list) and value:
                item = option.item
                if isinstance(item, Obj) and isinstance(value[0], dict):
                    yield from _leaves(item, value[0], key_path + (0,))
            if isinstance(option, Obj) and option.extra is not None and isinstance(value, dict):
                for extra_key, extra_value in list(value.items())[:1]:
                    extra = option.extra
                    if isinstance(extra, List) and isinstance(extra.item, Obj) and extra_value:
                        yield from _leaves(extra.item, extra_value[0], key_path + (extra_key, 0))


class _Missing:
    def __repr__(self) -> str:
        return "<absent>"


MISSING = _Missing()


def _options(t, value):
    if isinstance(t, Union):
        for option in t.options:
            if isinstance(option, Obj) and isinstance(value, dict):
                return [option]
            if isinstance(option, List) and isinstance(value, list):
                return [option]
        return []
    return [t]


def _candidates(t, value, data: dict) -> list:
    """Changed values to try for one key, most telling first."""
    if isinstance(t, Union):
        out = []
        for option in t.options:
            if isinstance(option, Null):
                if value is not None:
                    out.append(None)
            elif isinstance(option, (Obj, List, Int, Bool, Str)):
                out += _candidates(option, value, data)
        return out
    if isinstance(t, Bool):
        return [not value] if isinstance(value, bool) else [True, False]
    if isinstance(t, Int):
        lo = t.minimum if t.minimum is not None else -999
        hi = t.maximum if t.maximum is not None else 999
        base = value if isinstance(value, int) and not isinstance(value, bool) else lo
        tries = [base + 1, base - 1, base + 3, base - 3, lo, hi]
        return [v for v in dict.fromkeys(tries) if v != value and lo <= v <= hi]
    if isinstance(t, ShapeText):
        return ["##/#.", "#", "###/.#."]
    if isinstance(t, Str):
        if t.enum:
            return [v for v in t.enum if v != value]
        ids = [p["id"] for p in data.get("patches", []) if isinstance(p, dict)]
        return [v for v in ids[:3] + ["smallest", "zz-changed"] if v != value]
    if isinstance(t, List):
        if not isinstance(value, list):
            return []
        out = []
        if len(value) > 1:
            out += [value[:-1], value[1:]]
        if value and isinstance(value[0], int) and not isinstance(value[0], bool):
            out.append([value[0] + 1] + value[1:])
            out.append(value + [value[-1] + 1])
        return out
    if isinstance(t, Obj):
        if isinstance(value, dict):
            return []  # its keys are walked one by one
        required = {n: _candidates(f.type, MISSING, data) for n, f in t.fields.items() if f.required}
        if all(required.values()):
            return [{n: c[0] for n, c in required.items()}]
    return []


def _set(data: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(data)
    node = out
    for step in path[:-1]:
        node = node[step]
    if value is MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return out


def _signature(edition) -> str:
    """A digest of the seeded deal, a batch of seeded games and the accepted player counts."""
    from toolkit.families import engine_for, family_of
    from toolkit.bots.registry import AUTOMA, RANDOM, BotSpec
    from toolkit.sim.shards import _play

    engine = engine_for(edition)
    digest = hashlib.sha256()
    accepted = []
    for players in range(1, 8):
        try:
            engine.new_game(edition, seed=1, players=players)
            accepted.append(players)
        except ToolkitError:
            pass
    digest.update(json.dumps(accepted).encode())
    seats = accepted[0] if accepted else 1
    game = engine.new_game(edition, seed=7, players=seats)
    digest.update(json.dumps(game.deal(), sort_keys=True, default=str).encode())
    runs = [tuple(BotSpec("random", RANDOM) for _ in range(seats))]
    automa = family_of(edition).solo_opponent(edition)
    if automa is not None:
        for deck, _ in automa.decks:
            for level in automa.levels:
                runs.append((BotSpec("random", RANDOM),
                             BotSpec("automa", AUTOMA, automa_level=level.level, automa_deck=deck)))
    for bots in runs:
        game_rngs = np.array([seed_state(derive_seed(3, g)) for g in range(GAMES)], dtype=np.int64)
        bot_rngs = np.array([seed_state(derive_seed(3, g), 1) for g in range(GAMES)], dtype=np.int64)
        swap = np.array([g % 2 for g in range(GAMES)], dtype=np.int64)
        if any(b.kind == AUTOMA for b in bots):
            swap[:] = 0
        out = _play(edition, bots, game_rngs, bot_rngs, swap)
        for key in sorted(out):
            digest.update(key.encode() + out[key].tobytes())
    return digest.hexdigest()


BUNDLED = list_editions()


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.slow
def test_every_key_changes_play_or_is_refused_or_cosmetic(name):
    data = resolved_spec(name)
    base_edition = edition_from_spec(data, name)
    base = _signature(base_edition)
    silent, cosmetic, refused, changed = [], [], [], []
    for path, f, value in _leaves(EDITION_FILE, data, ()):
        label = ".".join(str(p) for p in path)
        if path == ("kind",) or f.cosmetic:
            cosmetic.append(label)
            continue
        loaded_alike = []
        verdict = None
        for candidate in _candidates(f.type, value, data):
            try:
                edition = edition_from_spec(_set(data, path, candidate), "changed")
            except SpecError:
                continue
            if model_hash(edition) == model_hash(base_edition):
                continue  # the candidate is the default the base already has: not a change
            if _signature(edition) != base:
                verdict = "changed"
                break
            loaded_alike.append(candidate)
        if verdict == "changed":
            changed.append(label)
        elif loaded_alike:
            silent.append(f"{label} = {loaded_alike[0]!r} (was {value!r})")
        else:
            refused.append(label)
    assert not silent, f"{name}: keys that load but change nothing: {silent}"
    assert changed, f"{name}: no key changed the game (the walk found nothing to change)"
    assert "patches.0.shape" in changed + refused and "patches.0.id" in cosmetic


def test_doodle_refuses_time_track_keys_by_family():
    data = resolved_spec("doodle")
    for key, value in (("tie_break", "shared"), ("starting_buttons", 5), ("market_window", 3)):
        with pytest.raises(SpecError, match=rf"{key}: `{key}` is not used by the doodle family"):
            edition_from_spec({**data, key: value}, "changed")
    patched = copy.deepcopy(data)
    patched["patches"][0]["cost"] = 3
    with pytest.raises(SpecError, match=r"patches\[0\]\.cost: `cost` is not used by the doodle family"):
        edition_from_spec(patched, "changed")


def test_time_track_refuses_copies_and_doodle_keys():
    data = resolved_spec("classic")
    patched = copy.deepcopy(data)
    patched["patches"][0]["copies"] = 2
    with pytest.raises(SpecError, match="`copies` is not used by the time-track family"):
        edition_from_spec(patched, "changed")
    with pytest.raises(SpecError, match="`rounds` is not used by the time-track family"):
        edition_from_spec({**data, "rounds": 4}, "changed")


def test_an_edition_model_refuses_a_key_its_family_does_not_use():
    import dataclasses

    from toolkit.specs import load_edition

    from toolkit.specs.models import DoodleRules, TimeTrackRules

    doodle, classic = load_edition("doodle"), load_edition("classic")
    assert isinstance(doodle.rules, DoodleRules) and isinstance(classic.rules, TimeTrackRules)
    with pytest.raises(ValueError, match="market_window not used by the doodle family"):
        doodle.changed(market_window=4)
    with pytest.raises(ValueError, match="rounds not used by the time-track family"):
        classic.changed(rounds=4)
    with pytest.raises(AttributeError, match="market_window"):
        doodle.rules.market_window  # type: ignore[union-attr]  # noqa: B018
    # Rules are read from `rules`, never as attributes of the edition (a type checker sees every read).
    assert not hasattr(classic, "starting_buttons") and not hasattr(doodle, "rounds")
    with pytest.raises(ValueError, match="takes DoodleRules"):
        dataclasses.replace(doodle, rules=classic.rules)
    assert classic.changed(starting_buttons=9).rules.starting_buttons == 9
    # Another family's components are not there to read, not read as absent.
    with pytest.raises(AttributeError, match="time_track"):
        doodle.rules.time_track  # type: ignore[union-attr]  # noqa: B018
    with pytest.raises(AttributeError, match="start_cards"):
        classic.rules.start_cards  # type: ignore[union-attr]  # noqa: B018
    assert doodle.all_patches() == doodle.patches
