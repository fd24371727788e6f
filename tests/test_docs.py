"""The user guide: its generated reference pages match the CLI and the schema, the site builds
offline with MkDocs with warnings as errors, every page is in the navigation, and the README's
links into the guide lead somewhere."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from toolkit.cli import reference

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.mark.slow
def test_the_committed_reference_is_what_the_cli_and_schema_give():
    stale = reference.stale(DOCS)
    assert not stale, f"{[str(p) for p in stale]} differ from the CLI: run python -m toolkit.cli.reference"


@pytest.mark.slow
def test_the_command_reference_names_every_command_and_option():
    import typer.main

    from toolkit.cli.app import app
    from toolkit.cli.habits import commands

    text = (DOCS / reference.COMMANDS_PAGE).read_text()
    for path, command in commands(typer.main.get_command(app)):
        assert f"\n## {' '.join(('patchwork', *path))}\n" in text, path
        for param in command.params:
            for opt in getattr(param, "opts", ()):
                if opt.startswith("--"):
                    assert opt in text, (path, opt)


def test_the_spec_reference_names_every_key_of_every_kind():
    from toolkit.specs.schema import FILE_KINDS

    text = (DOCS / reference.SPEC_PAGE).read_text()
    for kind, obj in FILE_KINDS.items():
        section = text.split(f"\n## {kind}\n")[1].split("\n## ")[0]
        for key in obj.fields:
            assert f"- `{key}`:" in section, (kind, key)


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())

    def pages(items):
        for item in items:
            for value in item.values():
                yield from (pages(value) if isinstance(value, list) else [value])

    listed = set(pages(config["nav"]))
    on_disk = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert listed == on_disk


@pytest.mark.slow
def test_the_site_builds_offline_with_warnings_as_errors(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    site = tmp_path / "site"
    for page in ("index.html", "print.html", "play.html", "design.html", "balance.html", "decks.html",
                 "print-shops.html", "figures.html", "notes.html", "reference/commands.html", "reference/spec.html"):
        assert (site / page).is_file(), page
    assert (site / "previews" / "doodle-sheet.png").is_file()
    assert "patchwork render pad" in (site / "reference" / "commands.html").read_text()
    for page in site.rglob("*.html"):  # the site works offline: no script, style or image from elsewhere
        assert not re.search(r'(src|href)="https?://(?!www\.mkdocs\.org)', page.read_text()), page


def test_the_readme_links_into_the_guide():
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", text)
    assert len(links) >= 8
    for link in links:
        assert (ROOT / link).is_file(), link
    for task in ("docs/print.md", "docs/play.md", "docs/design.md", "docs/balance.md"):
        assert task in links, task
