"""Shared pytest fixtures. Keep this file small: fixtures used by more than one test module."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def locomo_path() -> Path:
    """The real ``locomo10.json``: ``$GRAPHMEM_LOCOMO``, else ``../shared/data/locomo10.json``."""
    env = os.environ.get("GRAPHMEM_LOCOMO")
    path = Path(env).expanduser() if env else REPO.parent / "shared" / "data" / "locomo10.json"
    if not path.is_file():
        pytest.skip(f"LoCoMo data not found at {path} (set GRAPHMEM_LOCOMO)")
    return path


@pytest.fixture(scope="session")
def dataset(locomo_path: Path):
    """The real LoCoMo file, loaded once per test session."""
    from graphmem import locomo

    return locomo.load_file(locomo_path)
