"""Ships the top-level specs/ folder inside the wheel as the package `toolkit.bundled_specs`.

pyproject.toml holds all metadata; this file only maps the folder, which the declarative
configuration cannot do together with package discovery.
"""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["toolkit", "toolkit.*"]) + ["toolkit.bundled_specs"],
    package_dir={"toolkit.bundled_specs": "specs"},
    package_data={"toolkit.bundled_specs": ["*.yaml", "**/*.yaml"]},
)
