"""Everything under tests/neo4j talks to the real server: mark it ``neo4j`` by where it lives.

The directory is the one mechanism that selects these tests (``python -m pytest -q tests/neo4j``);
marking them here, rather than in each file, keeps ``-m neo4j`` / ``-m "not neo4j"`` in agreement
with it: a test added to this tree is marked without anyone remembering to.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before the mark plugin deselects by -m
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Add the ``neo4j`` marker to every collected test under this directory (the hook sees all items)."""
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.neo4j)
