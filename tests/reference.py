"""Where the tests find the team's shared reference data: `shared/` beside the checkout."""
from __future__ import annotations

from pathlib import Path

import pytest

_CANDIDATES = (
    Path(__file__).resolve().parents[2] / "shared" / "reference",
    Path("/work/shared/reference"),
)


def reference_file(name: str) -> Path:
    """The path of a reference file; skips the test when no shared/ folder is beside the checkout."""
    for folder in _CANDIDATES:
        if (folder / name).is_file():
            return folder / name
    pytest.skip(f"shared/reference/{name} is not beside this checkout")
