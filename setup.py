"""Ships the top-level specs/ folder inside the wheel as the package `toolkit.bundled_specs`.

pyproject.toml holds all metadata; this file only maps the folder (and its subfolders) into the
package tree, which the declarative configuration cannot do together with package discovery.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

COMMIT_FILE = "BUILD_COMMIT"
"""Written into the built toolkit package: the git commit it was built from, so that
`patchwork --version` names it after a plain `pip install .` from a clone."""


def _checkout_commit(folder: Path) -> str | None:
    """The commit checked out in `folder` (git, else the refs read directly), None when unknown."""
    try:
        done = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        if done.returncode == 0 and len(done.stdout.strip()) == 40:
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    git = folder / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head or None
        ref = head[len("ref: "):]
        if (git / ref).is_file():
            return (git / ref).read_text().strip() or None
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except OSError:
        pass
    return None


class BuildWithCommit(build_py):
    """build_py that also records the commit being built (nothing when it is not a git checkout)."""

    def run(self):
        super().run()
        commit = _checkout_commit(Path(__file__).resolve().parent)
        if commit and not self.dry_run:
            target = Path(self.build_lib) / "toolkit" / COMMIT_FILE
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(commit + "\n")

SPECS = Path(__file__).parent / "specs"
spec_packages = ["toolkit.bundled_specs"] + [
    "toolkit.bundled_specs." + ".".join(folder.relative_to(SPECS).parts)
    for folder in sorted(SPECS.rglob("*"))
    if folder.is_dir() and not folder.name.startswith((".", "__"))
]

setup(
    packages=find_packages(include=["toolkit", "toolkit.*"]) + spec_packages,
    package_dir={"toolkit.bundled_specs": "specs"},
    package_data={**{name: ["*.yaml", "*.md"] for name in spec_packages}, "toolkit.studio": ["static/*"]},
    cmdclass={"build_py": BuildWithCommit},
)
