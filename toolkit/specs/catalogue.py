"""The bundled catalogue: where the shipped spec files live and which names they answer to.

In a source checkout (or an editable install) that is the top-level `specs/` folder; after a
regular `pip install .` the same folder ships inside the wheel as the package
`toolkit.bundled_specs`.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

EDITIONS_DIR = "editions"
VARIANTS_DIR = "variants"
REF_DIRS = {
    "patch-set": "patches",
    "time-track": "tracks",
    "automa": "automa",
    "start-cards": "start-cards",
}
"""Folder of each referenced kind: `patches: classic` means patches/classic.yaml."""


def _looks_bundled(folder: Path) -> bool:
    return (folder / EDITIONS_DIR).is_dir()


@lru_cache(maxsize=1)
def bundled_specs_dir() -> Path:
    """The folder holding the bundled specs (editions/, variants/, patches/, tracks/, ...)."""
    checkout = Path(__file__).resolve().parents[2] / "specs"
    if _looks_bundled(checkout):
        return checkout
    try:
        # the folder has no __init__.py, so it is a namespace package: resources.files gives a
        # MultiplexedPath, whose children are real paths
        editions = resources.files("toolkit.bundled_specs").joinpath(EDITIONS_DIR)
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        editions = None
    if editions is not None:
        folder = Path(str(editions)).parent
        if _looks_bundled(folder):
            return folder
    raise FileNotFoundError(
        "bundled specs not found: expected specs/ beside the toolkit package or the installed "
        "package toolkit.bundled_specs; reinstall the toolkit")


def _stems(folder: str) -> list[str]:
    base = bundled_specs_dir() / folder
    return sorted(p.stem for p in base.glob("*.yaml")) if base.is_dir() else []


def list_editions() -> list[str]:
    """Names of the bundled editions."""
    return _stems(EDITIONS_DIR)


def list_variants() -> list[str]:
    """Names of the bundled variants."""
    return _stems(VARIANTS_DIR)


def list_refs(kind: str) -> list[str]:
    """Bundled names of a referenced kind (patch sets, time tracks, ...)."""
    return _stems(REF_DIRS[kind])


def bundled_files() -> list[Path]:
    """Every bundled spec file, sorted."""
    return sorted(bundled_specs_dir().rglob("*.yaml"))
