"""`patchwork validate` and `patchwork schema` from the command line."""
from __future__ import annotations

import pytest

import json

from typer.testing import CliRunner

from toolkit.cli.app import app
from toolkit.specs import json_schema

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.slow
def test_validate_bundled_specs_by_default():
    result = run("validate")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    assert "0 error(s)" in lines[0] and "edition(s)" in lines[0] and "patch(es)" in lines[0]


@pytest.mark.slow
def test_validate_reports_each_problem_and_exits_1(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: variant\nname: v\ntitle: V\nextends: classic\nstarting_buttons: -3\nboard: {width: 0}\n")
    result = run("validate", str(bad))
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines == [
        f"{bad.resolve()}:5:19: starting_buttons: must be at least 0, got -3",
        f"{bad.resolve()}:6:16: board.width: must be at least 1, got 0",
    ]
    assert "2 error(s)" in result.stderr
    assert "Traceback" not in result.output


def test_validate_folder_recursively(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.yaml").write_text(
        "kind: time-track\nid: t\nfinal_space: 9\nincome_marks: [3, 9]\nleather_patches: [4]\n")
    (tmp_path / "v.yaml").write_text("kind: variant\nname: v\ntitle: V\nextends: express\n")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 file(s), 1 edition(s), 23 patch(es) checked")


def test_warnings_do_not_fail(tmp_path):
    patches = "\n".join(f"  - {{id: A{i}, shape: '{'#' * (1 + i % 3)}', cost: {2 + i % 2}, time: {1 + i}}}"
                        for i in range(12))
    path = tmp_path / "set.yaml"
    path.write_text(f"kind: patch-set\nname: s\npatches:\n{patches}\n  - {{id: Z, shape: '#', cost: 40, time: 1}}\n")
    result = run("validate", str(path))
    assert result.exit_code == 0, result.output
    warning = f"{path.resolve()}:16:31: patches[12].cost: warning: cost 40 lies far off"
    assert result.stdout.startswith(warning)
    assert "1 warning(s)" in result.stdout


@pytest.mark.slow
def test_missing_path_exits_2():
    result = run("validate", "no/such/file.yaml")
    assert result.exit_code == 2
    assert "no such file or folder: no/such/file.yaml" in result.output


@pytest.mark.slow
def test_schema_prints_sorted_json():
    result = run("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json_schema()
    assert result.stdout == json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


@pytest.mark.slow
def test_schema_out_writes_file(tmp_path):
    out = tmp_path / "deep" / "schema.json"
    result = run("schema", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == json_schema()
    assert run("schema").stdout == out.read_text()
    assert list(out.parent.iterdir()) == [out]


def test_schema_out_to_a_folder_is_a_usage_error(tmp_path):
    result = run("schema", "--out", str(tmp_path))
    assert result.exit_code == 2


def test_validate_an_empty_folder_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("not a spec\n")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 2
    assert f"no spec files (*.yaml, *.yml) in folder: {tmp_path}" in result.stderr
    assert "Traceback" not in result.output
