"""`patchwork init variant|deck|edition NAME`: commented starting files that validate as written."""
from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from toolkit.cli.app import app
from toolkit.specs import load_edition
from toolkit.specs.loader import validate_report

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("kind", ["variant", "deck", "edition"])
@pytest.mark.parametrize("source", ["classic", "express", "anniversary", "doodle", "six-buttons"])
@pytest.mark.slow
def test_every_kind_from_every_family_validates_cleanly(tmp_path, monkeypatch, kind, source):
    monkeypatch.chdir(tmp_path)
    result = run("init", kind, "mine", "--from", source)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("wrote mine.yaml")
    files = sorted(tmp_path.glob("*.yaml"))
    assert [f.name for f in files] == (["mine-patches.yaml", "mine.yaml"] if kind == "deck" else ["mine.yaml"])
    report = validate_report(files)
    assert not report.problems, [str(p) for p in report.problems]  # no error and no warning
    edition = load_edition(str(tmp_path / "mine.yaml"))
    parent = load_edition(source)
    assert edition.name == "mine" and edition.family == parent.family
    text = (tmp_path / "mine.yaml").read_text()
    assert text.startswith("# mine: ") and f"kind: {'variant' if kind != 'edition' else 'edition'}" in text
    assert "patchwork validate mine.yaml --watch" in text


@pytest.mark.slow
def test_a_variant_changes_nothing_until_a_rule_is_uncommented(tmp_path, monkeypatch):
    # a rules-only variant is the default, so that `balance` measures the one rule changed
    monkeypatch.chdir(tmp_path)
    result = run("init", "variant", "my-variant")
    assert result.exit_code == 0, result.output
    assert "changes nothing yet" in result.stdout and "--with-patch" in result.stdout
    text = (tmp_path / "my-variant.yaml").read_text()
    assert "# add_patches:\n#   - {id: N01," in text and "\nadd_patches:" not in text
    variant, classic = load_edition(str(tmp_path / "my-variant.yaml")), load_edition("classic")
    assert [(p.id, p.cost, p.shape) for p in variant.all_patches()] == \
        [(p.id, p.cost, p.shape) for p in classic.all_patches()]
    uncommented = text.replace("# add_patches:\n#   - {id: N01,", "add_patches:\n  - {id: N01,")
    (tmp_path / "my-variant.yaml").write_text(uncommented)
    assert load_edition(str(tmp_path / "my-variant.yaml")).patch("N01").cost == 3


@pytest.mark.slow
def test_with_patch_a_variant_adds_one_new_patch_and_lists_the_rules_to_change(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "variant", "my-variant", "--with-patch").exit_code == 0
    text = (tmp_path / "my-variant.yaml").read_text()
    # each key carries the schema's own words, and the rules of the parent are there to uncomment
    assert "# Buttons each player starts with.\n# starting_buttons: 5\n" in text
    assert "# The edition or variant this one builds on.\nextends: classic\n" in text
    assert "patchwork price my-variant.yaml N01" in text
    spec = yaml.safe_load(text)
    assert spec["add_patches"][0]["id"] == "N01" and {"cost", "time", "income"} <= set(spec["add_patches"][0])
    variant, classic = load_edition(str(tmp_path / "my-variant.yaml")), load_edition("classic")
    new = variant.patch("N01")
    assert new.shape.canonical_key not in {p.shape.canonical_key for p in classic.all_patches()}
    assert len(variant.all_patches()) == len(classic.all_patches()) + 1
    assert variant.rules.starting_buttons == classic.rules.starting_buttons  # nothing else changes until uncommented


def test_a_doodle_variant_adds_a_card_without_a_price(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "variant", "my-doodle", "--from", "doodle", "--with-patch").exit_code == 0
    patch = yaml.safe_load((tmp_path / "my-doodle.yaml").read_text())["add_patches"][0]
    assert set(patch) == {"id", "shape"}


@pytest.mark.slow
def test_a_deck_is_a_patch_set_and_a_variant_that_plays_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "deck", "my-deck").exit_code == 0
    variant = yaml.safe_load((tmp_path / "my-deck.yaml").read_text())
    patches = yaml.safe_load((tmp_path / "my-deck-patches.yaml").read_text())
    assert variant["patches"] == "my-deck-patches.yaml" and patches["kind"] == "patch-set"
    deck = load_edition(str(tmp_path / "my-deck.yaml"))
    assert [(p.id, p.cost, p.shape) for p in deck.all_patches()] == \
        [(p.id, p.cost, p.shape) for p in load_edition("classic").all_patches()]


def test_an_edition_keeps_the_bundled_names_it_refers_to(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "edition", "my-edition", "--from", "anniversary").exit_code == 0
    spec = yaml.safe_load((tmp_path / "my-edition.yaml").read_text())
    assert spec["kind"] == "edition" and spec["patches"] == "classic" and isinstance(spec["automa"], str)


@pytest.mark.slow
def test_a_path_names_the_file_and_existing_files_are_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    assert run("init", "variant", "specs/v1.yaml").exit_code == 0
    assert yaml.safe_load((tmp_path / "specs" / "v1.yaml").read_text())["name"] == "v1"
    before = (tmp_path / "specs" / "v1.yaml").read_text()
    again = run("init", "variant", "specs/v1.yaml", "--from", "express")
    assert again.exit_code == 2 and "exists" in again.stderr and "--force" in again.stderr
    assert (tmp_path / "specs" / "v1.yaml").read_text() == before
    assert run("init", "variant", "specs/v1.yaml", "--from", "express", "--force").exit_code == 0
    assert "extends: express" in (tmp_path / "specs" / "v1.yaml").read_text()


@pytest.mark.slow
def test_each_file_written_says_what_it_is_for(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = run("init", "deck", "my-deck").stdout.splitlines()
    assert lines[0].startswith("wrote my-deck.yaml: the variant") and "play" in lines[0]
    assert lines[1].startswith("wrote my-deck-patches.yaml: the patch set")


@pytest.mark.parametrize("force", [False, True])
def test_a_link_is_never_written_through(tmp_path, monkeypatch, force):
    # with --force too: writing through link.yaml would change notes.txt, a file of another name
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine\n")
    (tmp_path / "link.yaml").symlink_to("notes.txt")
    result = run("init", "variant", "link.yaml", *(["--force"] if force else []))
    assert result.exit_code == 2 and "symbolic link" in result.stderr, result.output
    assert (tmp_path / "notes.txt").read_text() == "mine\n" and (tmp_path / "link.yaml").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.yaml", "notes.txt"]


def test_a_deck_is_refused_whole_when_one_of_its_files_exists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-deck-patches.yaml").write_text("mine\n")
    result = run("init", "deck", "my-deck")
    assert result.exit_code == 2 and "my-deck-patches.yaml exists" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my-deck-patches.yaml"]


@pytest.mark.parametrize("args, message", [
    (["init", "deck", "x", "--with-patch"], "--with-patch"),
    (["init", "rules", "x"], "unknown kind 'rules'"),
    (["init", "variant", "My Variant"], "lower-case letters"),
    (["init", "variant", "x", "--from", "nosuch"], "unknown edition 'nosuch'"),
])
def test_mistakes_are_one_line_with_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("patchwork: error: ") and message in lines[0], result.stderr
    assert not list(tmp_path.iterdir())
