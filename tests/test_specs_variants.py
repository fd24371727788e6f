"""Variants: `extends:` chains, deep merges, patch edits, cycles, and the content hash."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from toolkit.errors import SpecError
from toolkit.specs import load_edition, validate_paths


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_bundled_variants_take_effect():
    classic = load_edition("classic")
    assert load_edition("six-buttons").rules.starting_buttons == 6
    assert load_edition("cheap-p11").patch("P11").cost == classic.patch("P11").cost - 1
    assert load_edition("dear-p05").patch("P05").cost == classic.patch("P05").cost + 1
    revised = load_edition("revised-leather")
    assert revised.rules.time_track.leather_patches == (26, 32, 38, 44, 50)
    assert revised.rules.time_track.income_marks == classic.rules.time_track.income_marks
    assert revised.rules.track_layout == "classic-revised-variant"
    moved = load_edition("moved-income").rules.time_track
    assert moved.income_marks[0] == 7 and moved.leather_patches == classic.rules.time_track.leather_patches
    assert (load_edition("doodle-8x8").board_width, load_edition("doodle-8x8").board_height) == (8, 8)
    assert load_edition("doodle-4-rounds").rules.rounds == 4
    for name in ("six-buttons", "cheap-p11", "dear-p05", "revised-leather", "moved-income"):
        variant = load_edition(name)
        assert variant.content_hash != classic.content_hash
        assert [p.id for p in variant.patches] == [p.id for p in classic.patches]


def test_untouched_fields_are_inherited():
    variant, classic = load_edition("six-buttons"), load_edition("classic")
    assert variant.patches == classic.patches
    assert variant.rules.time_track == classic.rules.time_track
    assert variant.rules.bonus == classic.rules.bonus and variant.rules.market_window == classic.rules.market_window


def test_patch_edits_and_chains(tmp_path):
    write(tmp_path, "base.yaml", """\
        kind: variant
        name: base
        title: Base
        extends: classic
        remove_patches: [P00, P01]
        patch_changes:
          P02: {cost: 9, name: Long one}
        add_patches:
          - {id: X1, shape: ["##", "#."], cost: 4, time: 4, income: 1}
        bonus: {points: 10}
        """)
    top = write(tmp_path, "top.yaml", """\
        kind: variant
        name: top
        title: Top
        extends: base.yaml
        board: {height: 8}
        """)
    edition = load_edition(top)
    ids = [p.id for p in edition.patches]
    assert "P00" not in ids and "P01" not in ids and ids[-1] == "X1" and len(ids) == 32
    p02 = edition.patch("P02")
    assert (p02.cost, p02.time, p02.name) == (9, 3, "Long one")
    assert (edition.rules.bonus.square_size, edition.rules.bonus.points) == (7, 10)
    assert (edition.board_width, edition.board_height) == (9, 8)
    assert edition.name == "top"


def test_variant_of_bundled_variant_by_name(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: six-buttons\nmarket_window: 4\n")
    edition = load_edition(path)
    assert (edition.rules.starting_buttons, edition.rules.market_window) == (6, 4)


def test_cycle_is_an_error_naming_the_chain(tmp_path):
    write(tmp_path, "a.yaml", "kind: variant\nname: a\ntitle: A\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "kind: variant\nname: b\ntitle: B\nextends: c.yaml\n")
    write(tmp_path, "c.yaml", "kind: variant\nname: c\ntitle: C\nextends: a.yaml\n")
    with pytest.raises(SpecError) as info:
        load_edition(tmp_path / "a.yaml")
    (problem,) = info.value.problems
    assert problem.key_path == "extends" and problem.line == 4
    assert Path(problem.file).name == "c.yaml"
    assert "cycle" in problem.message
    assert problem.message.count("a.yaml") == 2 and "b.yaml" in problem.message


def test_self_extension_is_a_cycle(tmp_path):
    path = write(tmp_path, "s.yaml", "kind: variant\nname: s\ntitle: S\nextends: s.yaml\n")
    with pytest.raises(SpecError, match="cycle"):
        load_edition(path)


def test_bad_edits_are_named(tmp_path):
    path = write(tmp_path, "v.yaml", """\
        kind: variant
        name: v
        title: V
        extends: classic
        remove_patches: [P99]
        patch_changes:
          Q1: {cost: 1}
          P03: {cost: -4}
        extends_typo: 1
        """)
    found = {(p.line, p.key_path) for p in validate_paths([path])}
    assert found == {(5, "remove_patches[0]"), (7, "patch_changes.Q1"), (8, "patch_changes.P03.cost"),
                     (9, "extends_typo")}


def test_unknown_parent(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: clasic\n")
    (problem,) = validate_paths([path])
    assert (problem.line, problem.key_path) == (4, "extends") and "classic-revised" in problem.message


def test_partial_nested_mapping_must_complete(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: express\n"
                                     "bonus: {points: 3}\n")
    (problem,) = validate_paths([path])
    assert (problem.line, problem.key_path) == (5, "bonus.square_size")


def test_variant_shrinking_board_is_blamed_on_the_board_it_sets(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "board: {width: 4, height: 4}\n")
    problems = validate_paths([path])
    # P03 (5 in a row) and P22 (5 tall) cannot lie on a 4x4 board; the 7x7 bonus cannot either;
    # the bundled files are fine, so every problem points at the line that shrank the board
    assert problems and {(p.file, p.line, p.column, p.key_path) for p in problems} == {
        (str(path), 5, 8, "board")}
    messages = [p.message for p in problems]
    assert any(m.startswith("patch P03 (shape 5x1, from <bundled>/patches/classic.yaml:")
               and m.endswith("does not fit the 4x4 board set here in any orientation") for m in messages)
    assert any(m.startswith("patch P22 ") for m in messages)
    assert "the 7x7 bonus square (from <bundled>/editions/classic.yaml:10) does not fit the 4x4 " \
           "board set here" in messages


def test_board_problem_goes_to_the_one_side_the_variant_changed(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "board:\n  height: 4\n")
    problems = validate_paths([path])
    assert problems and {(p.file, p.line, p.key_path) for p in problems} == {(str(path), 6, "board.height")}


def test_shorter_track_is_blamed_on_the_final_space_the_variant_sets(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "time_track: {final_space: 40}\n")
    problems = validate_paths([path])
    assert [str(p) for p in problems] == [
        f"{path}:5:27: time_track.final_space: {what} (from <bundled>/tracks/classic-original.yaml:"
        f"{line}) lies past final_space 40 set here"
        for what, line in [("income mark 41", 11), ("income mark 47", 11), ("income mark 53", 11),
                           ("leather patch 44", 12), ("leather patch 50", 12)]]


def test_marks_a_variant_adds_past_the_bundled_final_space_are_blamed_on_the_marks(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "time_track:\n  income_marks: [5, 70]\n")
    (problem,) = validate_paths([path])
    assert (problem.file, problem.line, problem.key_path) == (str(path), 6, "time_track.income_marks[1]")
    assert problem.message == ("space 70 lies past the final space 53 (final_space set at "
                               "<bundled>/tracks/classic-original.yaml:10)")


def test_automa_marker_off_a_shortened_track_is_blamed_on_the_track(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: anniversary\n"
                                     "time_track:\n  final_space: 5\n  income_marks: [5]\n"
                                     "  leather_patches: [3]\n")
    problems = validate_paths([path])
    assert problems and all((p.file, p.line, p.key_path) == (str(path), 6, "time_track.final_space")
                            for p in problems), "\n".join(map(str, problems))
    assert any("spaces before the end (from <bundled>/automa/automa.yaml:" in p.message for p in problems)


def test_problem_goes_to_the_latest_file_that_set_a_field_involved(tmp_path):
    write(tmp_path, "short.yaml", "kind: variant\nname: short\ntitle: S\nextends: classic\n"
                                  "time_track: {final_space: 50}\n")
    top = write(tmp_path, "top.yaml", "kind: variant\nname: top\ntitle: T\nextends: short.yaml\n"
                                      "starting_buttons: 4\n")
    problems = validate_paths([top])
    # top.yaml changes nothing involved; short.yaml's final_space is the latest field involved
    assert problems and {(Path(p.file).name, p.line, p.key_path) for p in problems} == {
        ("short.yaml", 5, "time_track.final_space")}
    with pytest.raises(SpecError) as caught:
        load_edition(top)
    assert all(Path(p.file).name == "short.yaml" for p in caught.value.problems)


def test_patch_a_variant_adds_is_blamed_itself_not_the_board(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "add_patches:\n  - {id: X1, shape: '##########', cost: 1, time: 1}\n")
    (problem,) = validate_paths([path])
    assert (problem.file, problem.line, problem.key_path) == (str(path), 6, "add_patches[0].shape")
    assert problem.message == ("shape 10x1 does not fit the 9x9 board in any orientation "
                               "(board set at <bundled>/editions/classic.yaml:7)")


def test_minimal_variant_takes_name_from_file_and_title_from_parent(tmp_path):
    path = write(tmp_path, "six-start.yaml", "kind: variant\nextends: classic\nstarting_buttons: 6\n")
    assert validate_paths([path]) == []
    edition = load_edition(path)
    assert edition.name == "six-start" and edition.rules.starting_buttons == 6
    assert edition.title == f"{load_edition('classic').title} (variant six-start)"
    named = write(tmp_path, "n.yaml", "kind: variant\nname: mine\nextends: classic\n")
    assert load_edition(named).title == f"{load_edition('classic').title} (variant mine)"
    track = write(tmp_path, "late-pay.yaml", "kind: variant\nextends: classic\n"
                                             "time_track: {income_marks: [7, 11, 17, 23, 29, 35, 41, 47, 53]}\n")
    assert load_edition(track).rules.track_layout == "classic-original-late-pay"


def test_minimal_variant_with_a_file_name_that_is_no_name_is_told_to_add_one(tmp_path):
    path = write(tmp_path, "My Variant.yaml", "kind: variant\nextends: classic\n")
    (problem,) = validate_paths([path])
    assert (problem.line, problem.column, problem.key_path) == (1, 1, "name")
    assert "'My Variant' cannot serve as one" in problem.message


def test_variant_can_switch_track_by_name(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: christmas\n"
                                     "time_track: classic-original\n")
    edition = load_edition(path)
    assert edition.rules.track_layout == "classic-original"
    assert edition.rules.time_track == load_edition("classic").rules.time_track


def test_moved_income_mark_must_stay_ascending(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\n"
                                     "time_track:\n  income_marks: [5, 13, 11]\n")
    (problem,) = validate_paths([path])
    assert (problem.line, problem.key_path) == (6, "time_track.income_marks[2]")


def test_same_content_same_hash_whatever_the_name_of_the_file(tmp_path):
    a = write(tmp_path, "a.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\nstarting_buttons: 6\n")
    b = write(tmp_path, "b.yaml", "kind: variant\nname: v\ntitle: V\nextends: ../" + tmp_path.name +
              "/a.yaml\n")
    assert load_edition(a).content_hash == load_edition(b).content_hash
    c = write(tmp_path, "c.yaml", "kind: variant\nname: v\ntitle: V\nextends: classic\nstarting_buttons: 7\n")
    assert load_edition(c).content_hash != load_edition(a).content_hash


def test_edited_track_gets_its_own_layout_name(tmp_path):
    path = write(tmp_path, "v.yaml", "kind: variant\nname: late-pay\ntitle: V\nextends: classic\n"
                                     "time_track:\n  income_marks: [7, 11, 17, 23, 29, 35, 41, 47, 53]\n")
    edition = load_edition(path)
    assert edition.rules.track_layout == "classic-original-late-pay"
    assert edition.rules.time_track.income_marks[0] == 7


def test_relative_references_start_at_the_referencing_file(tmp_path, monkeypatch):
    (tmp_path / "specs" / "sub").mkdir(parents=True)
    write(tmp_path / "specs", "base.yaml", "kind: variant\nname: b\ntitle: B\nextends: classic\n"
                                           "starting_buttons: 9\ntime_track: ../track.yaml\n")
    write(tmp_path, "track.yaml", "kind: time-track\nid: mine\nfinal_space: 40\n"
                                  "income_marks: [10, 20, 40]\nleather_patches: [15]\n")
    write(tmp_path / "specs" / "sub", "top.yaml", "kind: variant\nname: t\ntitle: T\nextends: ../base.yaml\n")
    monkeypatch.chdir(tmp_path)  # a user folder that happens to be called specs/, like the bundled one
    edition = load_edition("specs/sub/top.yaml")
    assert edition.rules.starting_buttons == 9 and edition.rules.track_layout == "mine"
    assert edition.source == "specs/sub/top.yaml"  # the user's folder, not the bundled one
    assert load_edition("classic").source == "<bundled>/editions/classic.yaml"
