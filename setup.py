"""Ships the top-level specs/ folder inside the wheel as the package `toolkit.bundled_specs`.

pyproject.toml holds all metadata; this file only maps the folder (and its subfolders) into the
package tree, which the declarative configuration cannot do together with package discovery.
"""
from pathlib import Path

from setuptools import find_packages, setup

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
)
