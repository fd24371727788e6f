"""Fuzzing the four readers of text a person or a file hands the toolkit: the spec loader, the game
record reader, the action notation of both rules families and the shape notation.

Each property holds for any input: the reader either returns a value or raises a ToolkitError
(one clear line at the command line), never another exception; and what it returns writes back
to the same text (`parse(format(x)) == x`). Inputs are drawn from mutations of the real thing
(bundled spec files, a recorded game, legal actions, the bundled patch shapes) as well as from
raw text over the notation's alphabet, with numbers of every size.

The default run is short (EXAMPLES examples per property, a few seconds in all, derandomised so
a run is repeatable); `pytest -m slow tests/test_fuzz.py` runs LONG_FACTOR times as many, with
fresh random examples. The examples, their time and what was found are stated in the report of
each round (benchmarks/bench_hostile.py counts the hand-written hostile cases).
"""
from __future__ import annotations

import copy
import itertools
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.errors import ToolkitError

EXAMPLES = {"spec": 60, "spec-data": 60, "record": 40, "record-text": 60, "timetrack-action": 300,
            "doodle-action": 300, "shape": 400}
"""Examples per property in the default (short) run."""
LONG_FACTOR = 50
"""How many times more the `slow` run tries."""
SPECS = Path(__file__).resolve().parent.parent / "specs"


def _settings(name: str, long: bool = False) -> settings:
    return settings(max_examples=EXAMPLES[name] * (LONG_FACTOR if long else 1), deadline=None, database=None,
                    derandomize=not long, suppress_health_check=list(HealthCheck), print_blob=True)


# ----- strategies ------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-3, 40), st.integers(-2**70, 2**70),
    st.sampled_from([2**63 - 1, 2**63, 2**64, 10**400, -(2**63) - 1]),
    st.just("9" * 5000),  # past Python's limit for int(str)
)
"""Numbers of every size, the sizes a hostile file or prompt line holds included."""
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=True, allow_infinity=True),
                    st.text(max_size=30), st.sampled_from(["classic", "doodle", "edition", "variant", "#", "##/#.",
                                                           "../x.yaml", "/etc/passwd", "P05", ""]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                    max_leaves=12)


def _paths(value, path=()):
    """Every path into a JSON-like value (the value itself included)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(data, draw):
    """`data` with one place replaced by random JSON, removed, or given a new key."""
    data = copy.deepcopy(data)
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths))
    if not path:
        return draw(JSON)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
    if action == "remove":
        del parent[path[-1]]
    elif action == "add" and isinstance(parent, dict):
        parent[draw(st.text(max_size=12))] = draw(JSON)
    else:
        parent[path[-1]] = draw(JSON)
    return data


def _mutated_spec_text(draw) -> str:
    """A bundled spec file with a few random edits of its text."""
    files = sorted(SPECS.rglob("*.yaml"))
    text = draw(st.sampled_from(files)).read_text()
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "number", "line"]))
        if edit == "insert":
            text = text[:where] + draw(st.text(alphabet="#.:-[]{}&*!|>'\"\n \t,0123456789abz/", max_size=20)) + \
                text[where:]
        elif edit == "delete":
            text = text[:where] + text[where + draw(st.integers(1, 40)):]
        elif edit == "number":
            text = text[:where] + str(draw(NUMBERS)) + text[where:]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = draw(st.integers(0, len(lines) - 1))
                lines.insert(i, lines[i])
                text = "".join(lines)
    return text


@st.composite
def spec_texts(draw) -> str:
    import yaml

    kind = draw(st.sampled_from(["mutated", "data", "raw"]))
    if kind == "mutated":
        return _mutated_spec_text(draw)
    if kind == "data":
        keys = st.sampled_from(["kind", "name", "title", "family", "extends", "patches", "board", "players",
                                "time_track", "automa", "start_cards", "add_patches", "remove_patches",
                                "patch_changes", "starting_buttons", "rounds", "die", "cards", "x"])
        body = draw(st.dictionaries(keys, JSON, max_size=8))
        body.setdefault("kind", draw(st.sampled_from(["edition", "variant", "patch-set", "time-track", "automa",
                                                      "start-cards", "nonsense"])))
        try:
            return yaml.safe_dump(body, allow_unicode=True)
        except (yaml.YAMLError, ValueError, OverflowError):
            return "kind: edition\n"
    return draw(st.text(alphabet="kind:edition variant extends classic\n -[]{}#&*!|>'\"0123456789.,/", max_size=300))


# ----- the spec loader -------------------------------------------------------------------------

def _check_spec_text(folder: Path, counter, text: str) -> None:
    from toolkit.specs import load_edition, validate_report

    path = folder / f"spec-{next(counter)}.yaml"  # a new name each time: the loader caches by path and stamp
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        validate_report([path])
        try:
            load_edition(path)
        except ToolkitError:
            pass
    finally:
        path.unlink()


@pytest.mark.slow
def test_fuzz_spec_loader():
    """Any spec text: validate and load give problems (ToolkitError), never another exception."""
    with tempfile.TemporaryDirectory() as folder:
        counter = itertools.count()
        given(spec_texts())(_settings("spec")(lambda text: _check_spec_text(Path(folder), counter, text)))()


@st.composite
def spec_data(draw):
    from toolkit.specs import load_edition
    from toolkit.specs.loader import spec_of

    spec = spec_of(load_edition(draw(st.sampled_from(["classic", "doodle", "anniversary", "express"]))))
    for _ in range(draw(st.integers(1, 3))):
        spec = _mutate(spec, draw)
    return spec


def _check_spec_data(data) -> None:
    from toolkit.specs.loader import edition_from_spec

    try:
        edition_from_spec(data, "fuzz")
    except ToolkitError:
        pass


@pytest.mark.slow
def test_fuzz_embedded_spec():
    """Any self-contained spec as data (what a record embeds): an Edition or a ToolkitError."""
    given(spec_data())(_settings("spec-data")(lambda d: _check_spec_data(d)))()


# ----- the record reader -----------------------------------------------------------------------

_RECORDS: dict[str, dict] = {}


def _record(edition: str) -> dict:
    """A short real game of `edition` as a record (played once per run)."""
    if edition not in _RECORDS:
        from toolkit import records
        from toolkit.play import play_bots
        from toolkit.specs import load_edition

        game = play_bots(load_edition(edition), "random" if edition == "doodle" else "random,random", 3)
        _RECORDS[edition] = json.loads(records.dumps(records.make_record(game, ["random"] * game.players)))
    return _RECORDS[edition]


@st.composite
def record_data(draw):
    record = _record(draw(st.sampled_from(["classic", "doodle"])))
    for _ in range(draw(st.integers(1, 3))):
        record = _mutate(record, draw)
    return record


def _check_record(folder: Path, data) -> None:
    from toolkit import records

    path = folder / "rec.json"
    try:
        path.write_text(json.dumps(data))
    except (ValueError, OverflowError):  # e.g. a 5000-digit number JSON will not write
        return
    try:
        record = records.read_record(path)
        records.replay(record, base_dir=folder)
    except ToolkitError:
        pass


@pytest.mark.slow
def test_fuzz_record_reader():
    """Any change to a real record: read and replayed, or refused with a RecordError."""
    with tempfile.TemporaryDirectory() as folder:
        given(record_data())(_settings("record")(lambda data: _check_record(Path(folder), data)))()


def _check_record_text(folder: Path, text: str) -> None:
    from toolkit import records

    path = folder / "rec.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        records.replay(records.read_record(path), base_dir=folder)
    except ToolkitError:
        pass


@pytest.mark.slow
def test_fuzz_record_text():
    """Any text as a record file."""
    with tempfile.TemporaryDirectory() as folder:
        text = st.one_of(st.text(alphabet='{}[]":,0123456789.-+eE truefalsnl\\u', max_size=200),
                         st.builds(json.dumps, JSON))
        given(text)(_settings("record-text")(lambda t: _check_record_text(Path(folder), t)))()


# ----- the action notation of both families ----------------------------------------------------

def _games():
    from toolkit.play import new_game
    from toolkit.specs import load_edition

    return {"timetrack": new_game(load_edition("classic"), 1), "doodle": new_game(load_edition("doodle"), 1)}


WORDS = {
    "timetrack": ["advance", "buy", "leather", "automa", "P05", "P99", "p1"],
    "doodle": ["start", "draw", "pass", "score", "none", "free", "neighbour", "left", "right", "cut", "again",
               "single", "h2", "v1", "a", "b", "D07"],
}


@st.composite
def action_texts(draw, family: str, legal: list[str]):
    if legal and draw(st.booleans()):
        words = draw(st.sampled_from(legal)).split()
        i = draw(st.integers(0, len(words) - 1))
        number = draw(NUMBERS)
        words[i] = words[i][:1] + str(abs(number) if isinstance(number, int) else number) \
            if words[i][:1] in "orc" and words[i][1:].isdigit() else draw(st.sampled_from(WORDS[family]))
        return " ".join(words)
    token = st.one_of(st.sampled_from(WORDS[family]), st.builds(lambda p, n: f"{p}{n}", st.sampled_from("orcx"),
                                                                 NUMBERS),
                      st.builds(lambda a, b: f"{a}x{b}", NUMBERS, NUMBERS), st.text(max_size=6))
    return " ".join(draw(st.lists(token, max_size=6)))


def _check_action(game, text: str) -> None:
    try:
        action = game.parse_action(text)
    except ToolkitError:
        return
    assert game.parse_action(str(action)) == action, text  # what was read writes back the same
    legal = {str(a) for a in game.legal_actions()}
    assert (str(action) in legal) == (action in game.legal_actions()), text


def _action_check(game):
    return lambda text: _check_action(game, text)


@pytest.mark.parametrize("family", ["timetrack", "doodle"])
@pytest.mark.slow
def test_fuzz_action_notation(family):
    """Any text at the prompt or in a record: an action that writes back the same, or a NotationError."""
    game = _games()[family]
    legal = [str(a) for a in game.legal_actions()]
    for text in legal:  # every legal action round-trips
        assert str(game.parse_action(text)) == text
    given(action_texts(family, legal))(_settings(f"{family}-action")(lambda t: _check_action(game, t)))()


# ----- the shape notation ----------------------------------------------------------------------

@st.composite
def shape_texts(draw) -> str:
    if draw(st.booleans()):
        rows = draw(st.lists(st.text(alphabet="#.", min_size=1, max_size=6), min_size=1, max_size=6))
        sep = draw(st.sampled_from(["/", "\n", " / ", "\r\n"]))
        return sep.join(rows)
    return draw(st.text(alphabet="#./ \n\t x0", max_size=80))


def _check_shape(text: str) -> None:
    from toolkit.errors import ShapeError
    from toolkit.geometry.shape import Shape

    try:
        shape = Shape.parse(text)
    except ShapeError:
        return
    assert Shape.parse(shape.format()) == shape, text
    assert Shape.parse(list(shape.rows())) == shape, text


@pytest.mark.slow
def test_fuzz_shape_notation():
    """Any shape text: a shape that writes back the same, or a ShapeError."""
    given(shape_texts())(_settings("shape")(lambda t: _check_shape(t)))()


# ----- the long run ----------------------------------------------------------------------------

@pytest.mark.slow
def test_fuzz_long_run(request, capsys):
    """Every property above with LONG_FACTOR times the examples and fresh random inputs; only when
    asked for (`-m slow`, or PATCHWORK_FUZZ_LONG=1), since it takes minutes. Prints how many
    examples each property really ran (hypothesis stops early when a strategy has no more)."""
    if "slow" not in (request.config.getoption("markexpr") or "") and not os.environ.get("PATCHWORK_FUZZ_LONG"):
        pytest.skip("the long fuzzing run: pytest -m slow tests/test_fuzz.py (or PATCHWORK_FUZZ_LONG=1)")
    ran: dict[str, int] = {}

    def run(name, strategy, check):
        def counted(value):
            ran[name] = ran.get(name, 0) + 1
            check(value)
        given(strategy)(_settings(name, True)(counted))()

    with tempfile.TemporaryDirectory() as folder:
        counter = itertools.count()
        run("spec", spec_texts(), lambda t: _check_spec_text(Path(folder), counter, t))
        run("spec-data", spec_data(), _check_spec_data)
        run("record", record_data(), lambda d: _check_record(Path(folder), d))
        run("record-text", st.one_of(st.text(alphabet='{}[]":,0123456789.-+eE truefalsnl\\u', max_size=200),
                                     st.builds(json.dumps, JSON)), lambda t: _check_record_text(Path(folder), t))
    for family, game in _games().items():
        legal = [str(a) for a in game.legal_actions()]
        run(f"{family}-action", action_texts(family, legal), _action_check(game))
    run("shape", shape_texts(), _check_shape)
    with capsys.disabled():
        print(f"\nfuzzing run: {sum(ran.values()):,} examples ({', '.join(f'{k} {v:,}' for k, v in ran.items())}), "
              "nothing found")
