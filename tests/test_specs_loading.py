"""Strict loading: each kind of bad spec is reported with the right file, line and key path."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from toolkit.errors import SpecError, UnknownEdition
from toolkit.specs import load_edition, validate_paths

GOOD_EDITION = """\
kind: edition
name: mine
title: Mine
family: time-track
players: 2
board: {width: 9, height: 9}
patches:
  - {id: A1, shape: "##", cost: 2, time: 1, income: 0}
  - {id: A2, shape: "###", cost: 2, time: 2, income: 0}
time_track:
  id: short
  final_space: 20
  income_marks: [5, 10, 20]
  leather_patches: [8]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def errors_of(path: Path):
    return [p for p in validate_paths([path]) if p.severity == "error"]


def expect(path: Path, line: int, key: str, words: str):
    """Exactly one error, at `line`, on `key`, whose message contains `words`; load agrees."""
    problems = errors_of(path)
    assert len(problems) == 1, "\n".join(map(str, problems))
    problem = problems[0]
    assert problem.file == str(path.resolve())
    assert (problem.line, problem.key_path) == (line, key), str(problem)
    assert problem.column >= 1
    assert words in problem.message, str(problem)
    with pytest.raises(SpecError) as info:
        load_edition(path)
    assert problem in info.value.problems
    text = str(problem)
    assert text.startswith(f"{path.resolve()}:{line}:{problem.column}: {key}: ")
    return problem


def test_good_edition_loads(tmp_path):
    edition = load_edition(write(tmp_path, "e.yaml", GOOD_EDITION))
    assert edition.name == "mine" and edition.rules.time_track.final_space == 20
    assert edition.rules.track_layout == "short" and len(edition.patches) == 2
    assert validate_paths([tmp_path]) == []


CASES = [
    # (id, old text, new text, line, key path, words)
    ("unknown key", "players: 2\n", "players: 2\nplayer_count: 2\n", 6, "player_count", "unknown key"),
    ("wrong type", "players: 2", "players: two", 5, "players", "expected"),
    ("negative cost", '"##", cost: 2', '"##", cost: -2', 8, "patches[0].cost", "at least 0"),
    ("zero board", "width: 9", "width: 0", 6, "board.width", "at least 1"),
    ("board too big", "height: 9", "height: 17", 6, "board.height", "at most 16"),
    ("bool is not a number", "time: 2", "time: true", 9, "patches[1].time", "whole number"),
    ("duplicate id", "{id: A2", "{id: A1", 9, "patches[1].id", "duplicate patch id"),
    ("bad shape text", 'shape: "###"', 'shape: "#x#"', 9, "patches[1].shape", "unexpected character"),
    ("ragged shape", 'shape: "###"', 'shape: "##/###"', 9, "patches[1].shape", "different lengths"),
    ("disconnected shape", 'shape: "###"', 'shape: "#.#"', 9, "patches[1].shape", "not connected"),
    ("shape too big for board", 'shape: "###"', 'shape: "##########"', 9, "patches[1].shape",
     "does not fit the 9x9 board"),
    ("income past final", "[5, 10, 20]", "[5, 10, 21]", 13, "time_track.income_marks[2]", "past the final space"),
    ("marks not ascending", "[5, 10, 20]", "[10, 5, 20]", 13, "time_track.income_marks[1]", "ascending"),
    ("leather past final", "leather_patches: [8]", "leather_patches: [30]", 14,
     "time_track.leather_patches[0]", "past the final space"),
    ("duplicate mark", "[5, 10, 20]", "[5, 5, 20]", 13, "time_track.income_marks[1]", "listed twice"),
    ("missing key", "  final_space: 20\n", "", 11, "time_track.final_space", "missing required key"),
    ("missing top key", "family: time-track\n", "", 1, "family", "missing required key"),
    ("unknown family", "family: time-track", "family: dice", 4, "family", "expected one of"),
    ("bad colour", "income: 0}\n  - {id: A2", 'income: 0, colour: "red"}\n  - {id: A2', 8,
     "patches[0].colour", "pattern"),
    ("bad name", "name: mine", "name: My Edition", 2, "name", "pattern"),
    ("unknown patch set", "patches:\n  - {id: A1, shape: \"##\", cost: 2, time: 1, income: 0}\n"
     "  - {id: A2, shape: \"###\", cost: 2, time: 2, income: 0}\n", "patches: clasic\n", 7, "patches",
     "unknown patch-set 'clasic'"),
    ("unknown track", "time_track:\n  id: short\n  final_space: 20\n  income_marks: [5, 10, 20]\n"
     "  leather_patches: [8]\n", "time_track: nowhere\n", 10, "time_track", "unknown time-track"),
    ("doodle key on time-track", "players: 2\n", "players: 2\nrounds: 3\n", 6, "rounds",
     "not used by the time-track family"),
    ("undeclared duplicate", '{id: A2, shape: "###", cost: 2, time: 2',
     '{id: A2, shape: "#/#", cost: 2, time: 1', 9, "patches[1].shape", "same shape and stats as A1"),
    ("bonus larger than board", "players: 2\n", "players: 2\nbonus: {square_size: 10, points: 7}\n", 6,
     "bonus.square_size", "does not fit the 9x9 board"),
    ("players max below min", "players: 2", "players: {min: 3, max: 2}", 5, "players.max", "below min"),
    ("neutral token after unknown", "players: 2\n", "players: 2\nneutral_token_after: Z9\n", 6,
     "neutral_token_after", "starting circle"),
    ("late tag unused", "players: 2\n", "players: 2\nlate_patches: {tag: blue, enter_at: 1}\n", 6,
     "late_patches.tag", "no patch has tag"),
]


@pytest.mark.parametrize("old,new,line,key,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_edition(tmp_path, old, new, line, key, words):
    expect(write(tmp_path, "e.yaml", edit(GOOD_EDITION, old, new)), line, key, words)


def test_declared_duplicate_passes_and_bad_declaration_fails(tmp_path):
    text = edit(GOOD_EDITION, '{id: A2, shape: "###", cost: 2, time: 2',
                '{id: A2, duplicate_of: A1, shape: "#/#", cost: 2, time: 1')
    assert errors_of(write(tmp_path, "ok.yaml", text)) == []
    text = edit(GOOD_EDITION, "{id: A2,", "{id: A2, duplicate_of: A1,")
    expect(write(tmp_path, "bad.yaml", text), 9, "patches[1].duplicate_of", "differs")


def test_same_shape_with_different_stats_is_fine(tmp_path):
    text = edit(GOOD_EDITION, '{id: A2, shape: "###", cost: 2, time: 2', '{id: A2, shape: "#/#", cost: 3, time: 1')
    assert errors_of(write(tmp_path, "e.yaml", text)) == []


def test_all_errors_of_a_file_at_once(tmp_path):
    text = GOOD_EDITION
    for old, new in (("players: 2\n", "players: 2\nbogus: 1\n"), ('"##", cost: 2', '"##", cost: -2'),
                     ('shape: "###"', 'shape: "#.#"'), ("[5, 10, 20]", "[5, 10, 99]"),
                     ("height: 9", "height: 0")):
        text = edit(text, old, new)
    path = write(tmp_path, "e.yaml", text)
    with pytest.raises(SpecError) as info:
        load_edition(path)
    keys = {p.key_path for p in info.value.problems}
    assert {"bogus", "patches[0].cost", "patches[1].shape", "time_track.income_marks[2]",
            "board.height"} <= keys
    rendered = info.value.render().splitlines()
    assert len(rendered) == len(info.value.problems) >= 5


def test_problems_in_referenced_files_name_that_file(tmp_path):
    write(tmp_path, "set.yaml", """\
        kind: patch-set
        name: mine
        patches:
          - {id: A1, shape: "##", cost: 1, time: 1, income: 0}
          - {id: A2, shape: "#..#", cost: 1, time: 1, income: 0}
        """)
    edition = write(tmp_path, "e.yaml", edit(GOOD_EDITION, GOOD_EDITION[GOOD_EDITION.index("patches:"):
                                                                   GOOD_EDITION.index("time_track:")],
                                             "patches: set.yaml\n"))
    with pytest.raises(SpecError) as info:
        load_edition(edition)
    (problem,) = info.value.problems
    assert problem.file == str((tmp_path / "set.yaml").resolve())
    assert (problem.line, problem.key_path) == (5, "patches[1].shape")


def test_reference_to_wrong_kind(tmp_path):
    write(tmp_path, "t.yaml", "kind: time-track\nid: t\nfinal_space: 9\nincome_marks: [9]\nleather_patches: []\n")
    text = edit(GOOD_EDITION, "patches:\n  - {id: A1", "patches: t.yaml\nx:\n  - {id: A1")
    problems = errors_of(write(tmp_path, "e.yaml", text))
    assert any(p.key_path == "patches" and "time-track file" in p.message for p in problems)


def test_each_file_kind_checked_alone(tmp_path):
    write(tmp_path, "set.yaml", "kind: patch-set\nname: s\npatches:\n  - {id: A, shape: '#', cost: -1}\n")
    write(tmp_path, "track.yaml", "kind: time-track\nid: t\nfinal_space: 9\nincome_marks: [3, 2]\n"
                                  "leather_patches: []\n")
    write(tmp_path, "cards.yaml", "kind: start-cards\nname: c\ncard_size: 3\ncards:\n"
                                  "  - {id: S1, shape: '###'}\n  - {id: S2, shape: '##'}\n")
    write(tmp_path, "automa.yaml", "kind: automa\nname: a\nlevels:\n"
                                   "  - {level: 1, name: A, spaces_from_end: 1, scoring: []}\n"
                                   "decks:\n  d:\n    - {number: 1, virtual_buttons: 1, income: 0, "
                                   "filters: [SMALLEST]}\n    - {number: 2, virtual_buttons: 1, income: 0,"
                                   " filters: []}\n    - {number: 2, virtual_buttons: 1, income: 0, filters: []}\n")
    write(tmp_path, "what.yaml", "kind: board\n")
    found = {(Path(p.file).name, p.line, p.key_path) for p in errors_of(tmp_path)}
    assert found == {
        ("set.yaml", 4, "patches[0].cost"),
        ("track.yaml", 4, "income_marks[1]"),
        ("cards.yaml", 6, "cards[1].shape"),
        ("automa.yaml", 7, "decks.d[0].filters[0]"),
        ("automa.yaml", 9, "decks.d[2].number"),
        ("what.yaml", 1, "kind"),
    }


def test_start_card_of_wrong_size_in_an_edition(tmp_path):
    doodle = """\
    kind: edition
    name: d
    title: D
    family: doodle
    players: {min: 1}
    board: {width: 9, height: 9}
    patches: doodle
    start_cards:
      - {id: S1, shape: "#######"}
      - {id: S2, shape: "######"}
    die: [1, 2, 3]
    """
    expect(write(tmp_path, "d.yaml", doodle), 10, "start_cards[1].shape", "same size")


def test_doodle_deck_too_small_for_rounds(tmp_path):
    write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: doodle\nrounds: 5\n")
    expect(tmp_path / "v.yaml", 5, "rounds", "need 32 cards")


def test_unknown_name_lists_known_ones():
    with pytest.raises(UnknownEdition) as info:
        load_edition("clasic")
    assert "classic-revised" in str(info.value) and "six-buttons" in str(info.value)
    assert info.value.exit_code == 2


def test_loading_a_non_edition_file_is_refused(tmp_path):
    path = write(tmp_path, "t.yaml", "kind: time-track\nid: t\nfinal_space: 9\nincome_marks: [9]\n"
                                     "leather_patches: []\n")
    with pytest.raises(SpecError) as info:
        load_edition(path)
    assert "edition or variant" in str(info.value)


def test_cache_notices_edits(tmp_path):
    path = write(tmp_path, "e.yaml", GOOD_EDITION)
    first = load_edition(path)
    assert load_edition(path) is first
    import os
    path.write_text(edit(GOOD_EDITION, "title: Mine", "title: Yours"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = load_edition(path)
    assert second.title == "Yours" and second.content_hash != first.content_hash


def test_inline_and_referenced_specs_hash_alike(tmp_path):
    """content_hash depends on the resolved content, not on how the files are laid out."""
    from toolkit.specs import bundled_specs_dir

    base = bundled_specs_dir()
    track = (base / "tracks" / "classic-original.yaml").read_text(encoding="utf-8")
    track_body = "\n".join("  " + line for line in track.splitlines()
                           if line.strip() and not line.startswith(("#", "kind:")))
    classic = (base / "editions" / "classic.yaml").read_text(encoding="utf-8")
    inline = classic.replace("time_track: classic-original  # leather at 20, 26, 32, 44, 50 (RULINGS 8)",
                             "time_track:\n" + track_body)
    assert inline != classic
    path = write(tmp_path, "classic.yaml", inline)
    assert load_edition(path).content_hash == load_edition("classic").content_hash
