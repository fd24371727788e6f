"""Hostile and broken YAML is refused quickly, with one clear message and never a traceback."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit.errors import SpecError, ToolkitError, UnknownEdition
from toolkit.specs import load_edition, validate_paths
from toolkit.specs.source import MAX_FILE_BYTES


def only_problem(path: Path):
    problems = validate_paths([path])
    assert len(problems) == 1, "\n".join(map(str, problems))
    with pytest.raises(SpecError):
        load_edition(path)
    return problems[0]


def test_alias_bomb_is_refused_at_the_anchor_that_blows_up(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    problem = only_problem(path)  # 9**9 nodes: it only returns because nothing is expanded
    # f = 9**6 nodes is the first value past the limit on its own; its items (*e) each stay under
    assert (problem.line, problem.column, problem.key_path) == (6, 4, "f")
    assert "&f expands to 597,871 YAML nodes" in problem.message


def test_many_moderate_aliases_are_blamed_where_the_total_crosses_the_limit(tmp_path):
    lines = ['a: &a [' + ",".join(["1"] * 999) + "]"]
    lines += [f"k{i}: *a" for i in range(150)]
    path = tmp_path / "wide.yaml"
    path.write_text("\n".join(lines) + "\n")
    problem = only_problem(path)
    # the document, a (1,000 nodes) and k0..k98 make 100,001 nodes: k98 crosses the limit
    assert (problem.key_path, problem.line, problem.column) == ("k98", 100, 1)
    assert "*a (1,000 nodes), brings the file to 100,001 YAML nodes" in problem.message


def test_recursive_alias_is_refused(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text("kind: edition\nname: &a [*a]\n")
    problem = only_problem(path)
    assert "&a contains an alias to itself (at name[0])" in problem.message
    assert (problem.line, problem.column, problem.key_path) == (2, 7, "name")


def test_huge_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"kind: edition\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    problem = only_problem(path)
    assert "limited to" in problem.message and problem.key_path == "(file)"
    assert (problem.line, problem.column) == (1, 1)


def test_binary_file(tmp_path):
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"kind: edition\n\x00\x01\x02")
    problem = only_problem(path)
    assert "binary" in problem.message
    assert (problem.line, problem.column) == (1, 1)  # the file as a whole, 1-based like the rest


def test_top_level_list_is_a_whole_file_problem_at_line_1(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("# a comment first\n- 1\n- 2\n")
    problem = only_problem(path)
    assert "expected a mapping" in problem.message
    assert str(problem).startswith(f"{path}:1:1: (top): ")


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("kind: edition\ntitle: Caf\xe9\n".encode("latin-1"))
    problem = only_problem(path)
    assert "UTF-8" in problem.message and problem.line == 2


def test_python_tags_are_not_constructed(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f'kind: variant\nname: e\ntitle: E\nextends: classic\n'
                    f'title2: !!python/object/apply:os.system ["touch {marker}"]\n')
    problems = validate_paths([path])
    assert any("not allowed" in p.message and p.line == 5 for p in problems)
    assert not marker.exists()


def test_custom_tag_refused(tmp_path):
    path = tmp_path / "tag.yaml"
    path.write_text("kind: variant\nname: e\ntitle: !shout E\nextends: classic\n")
    problem = only_problem(path)
    assert problem.line == 3 and problem.key_path == "title" and "not allowed" in problem.message


def test_syntax_error_names_line_and_column(tmp_path):
    path = tmp_path / "syntax.yaml"
    path.write_text("kind: edition\nname: x\nboard: {width: 9, height: 9\ntitle: y\n")
    problem = only_problem(path)
    assert problem.line >= 3 and problem.column >= 1 and "YAML syntax error" in problem.message


def test_duplicate_keys(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("kind: variant\nname: a\ntitle: A\nextends: classic\nname: b\n")
    problem = only_problem(path)
    assert (problem.line, problem.key_path) == (5, "name")
    assert "duplicate key" in problem.message and "line 2" in problem.message


def test_merge_keys_refused(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("kind: variant\nname: a\ntitle: A\nextends: classic\nboard:\n  <<: {width: 8}\n")
    problem = only_problem(path)
    assert problem.line == 6 and "merge keys" in problem.message


def test_empty_and_scalar_files(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing\n")
    assert "empty" in only_problem(empty).message
    scalar = tmp_path / "scalar.yaml"
    scalar.write_text("just text\n")
    assert "expected a mapping" in only_problem(scalar).message


def test_folder_given_as_edition(tmp_path):
    with pytest.raises(SpecError):
        load_edition(tmp_path / "nothing-here.yaml") if False else load_edition(_dir_as_file(tmp_path))


def _dir_as_file(tmp_path: Path) -> Path:
    target = tmp_path / "dir.yaml"
    target.mkdir()
    (tmp_path / "link.yaml").write_text("kind: variant\nname: l\ntitle: L\nextends: dir.yaml\n")
    return tmp_path / "link.yaml"


@pytest.mark.slow
def test_mutated_bundled_specs_never_crash(tmp_path):
    """Every single-token corruption of a bundled edition gives SpecError, never another exception."""
    from toolkit.specs import bundled_specs_dir

    source = (bundled_specs_dir() / "editions" / "express.yaml").read_text(encoding="utf-8")
    replacements = ["-1", "[]", "{}", "null", "x", "true", "99", "[1, 2]", "{a: 1}", '"#"']
    lines = source.splitlines()
    path = tmp_path / "m.yaml"
    checked = 0
    for i, line in enumerate(lines):
        if ":" not in line or line.lstrip().startswith("#") or line.startswith(" "):
            continue
        key = line.split(":", 1)[0]
        if key in ("kind", "provenance"):
            continue
        for value in replacements:
            mutated = lines[:i] + [f"{key}: {value}"] + lines[i + 1:]
            path.write_text("\n".join(mutated) + "\n")
            try:
                load_edition(path)
            except SpecError:
                pass
            checked += 1
    assert checked > 100



@pytest.mark.parametrize("relative,user", [("patches/express.yaml", "express"),
                                           ("tracks/express.yaml", "express"),
                                           ("automa/automa.yaml", "anniversary"),
                                           ("start-cards/doodle.yaml", "doodle")])
@pytest.mark.slow
def test_mutated_referenced_files_never_crash(tmp_path, relative, user):
    """Corrupting nested values of a referenced file gives problems, never another exception."""
    import shutil

    from toolkit.specs import bundled_specs_dir

    copy = tmp_path / "specs"
    shutil.copytree(bundled_specs_dir(), copy)
    target, edition = copy / relative, copy / "editions" / f"{user}.yaml"
    lines = target.read_text(encoding="utf-8").splitlines()
    checked = 0
    for i, line in enumerate(lines[:45]):
        stripped = line.lstrip(" -")
        if ":" not in stripped or stripped.startswith(("#", "{")):
            continue
        key, prefix = stripped.split(":", 1)[0], line[: len(line) - len(stripped)]
        for value in ("-1", "{}", "null", "[[1]]"):
            target.write_text("\n".join(lines[:i] + [f"{prefix}{key}: {value}"] + lines[i + 1:]) + "\n")
            try:
                problems = validate_paths([edition])
                load_edition(edition)
            except SpecError:
                assert problems
            except Exception as exc:  # pragma: no cover - the point of the test
                raise AssertionError(f"{relative} line {i + 1} = {value}: {exc!r}") from exc
            checked += 1
    assert checked >= 20


# ----- links are judged by what they point to ----------------------------------------------------

SECRET = "TOP-SECRET-LINE: not a spec\nkind: edition\n"


def _links(tmp_path: Path) -> dict[str, Path]:
    """Links named *.yaml to things that are not specs, and one to a spec."""
    (tmp_path / "secret.txt").write_text(SECRET)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "mine.yaml").write_text("kind: variant\nextends: classic\nname: mine\nstarting_buttons: 6\n")
    links = {"secret.yaml": "secret.txt", "passwd.yaml": "/etc/passwd", "chain2.yaml": "secret.txt",
             "chain.yaml": "chain2.yaml", "mine.yaml": "real/mine.yaml", "dir.yaml": "real"}
    for name, target in links.items():
        os.symlink(target, tmp_path / name)
    return {name: tmp_path / name for name in links}


@pytest.mark.parametrize("name", ["secret.yaml", "passwd.yaml", "chain.yaml"])
@pytest.mark.parametrize("key", ["extends", "patches", "time_track", "automa", "start_cards"])
def test_a_link_named_like_a_spec_is_judged_by_its_target_and_never_read(tmp_path, monkeypatch, name, key):
    monkeypatch.chdir(tmp_path)
    _links(tmp_path)
    head = "kind: variant\n" if key == "extends" else "kind: variant\nextends: classic\n"
    spec = tmp_path / "spec.yaml"
    spec.write_text(head + f"{key}: {name}\n")
    problems = validate_paths([spec])
    text = "\n".join(str(p) for p in problems)
    assert "is a link to a file whose name does not end in .yaml or .yml" in text, text
    assert "TOP-SECRET" not in text and "root:" not in text and "/etc/passwd" not in text, text
    with pytest.raises(ToolkitError) as caught:
        load_edition(spec)
    assert "TOP-SECRET" not in caught.value.render() and "root:" not in caught.value.render()


@pytest.mark.parametrize("name", ["secret.yaml", "passwd.yaml", "chain.yaml"])
def test_a_link_named_like_a_spec_on_the_command_line_is_refused_unread(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    _links(tmp_path)
    with pytest.raises(UnknownEdition, match="is a link to a file whose name does not end in .yaml") as caught:
        load_edition(name)
    assert "TOP-SECRET" not in caught.value.render() and "root:" not in caught.value.render()
    problems = validate_paths([tmp_path / name])
    assert [p.key_path for p in problems] == ["(file)"] and "TOP-SECRET" not in str(problems[0])


def test_a_link_to_a_spec_is_read_as_that_spec(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _links(tmp_path)
    assert load_edition("mine.yaml").rules.starting_buttons == 6
    assert not [p for p in validate_paths([tmp_path / "mine.yaml"]) if p.severity == "error"]


def test_a_file_that_is_not_a_mapping_is_described_never_quoted(tmp_path):
    path = tmp_path / "notes.yaml"
    path.write_text("TOP-SECRET password hunter2\n")
    [problem] = validate_paths([path])
    assert "TOP-SECRET" not in str(problem) and "hunter2" not in str(problem)
    assert "got text (27 characters)" in problem.message
    path.write_text("kind: TOP-SECRET password hunter2\n")
    text = "\n".join(str(p) for p in validate_paths([path]))
    assert "hunter2" not in text
    path.write_text("kind: editoin\nname: x\n")  # a typo of a kind is quoted back
    assert "'editoin'" in "\n".join(str(p) for p in validate_paths([path]))


def test_an_empty_edition_name_is_refused_as_such():
    with pytest.raises(UnknownEdition, match="an empty name is not an edition"):
        load_edition("")
