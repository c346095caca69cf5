"""The conformance suite's stores: every case runs against the memory in RAM, in one SQLite file and
in Neo4j, and must behave as the memory in RAM does.

The Neo4j case needs a database that holds nothing but what the case writes (its search statistics
are the whole database's), so it empties the database first: only under ``CI=true`` or with
``GRAPHMEM_NEO4J_WIPE=1``; otherwise it is skipped (a developer's own data is never deleted). It is
marked ``neo4j``, and ``.ci/run`` runs this suite after ``tests/neo4j``, with the server up.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from graphmem import Memory
from tests.conftest import IN_CI, need

STORES = ["ram", "file", pytest.param("neo4j", marks=pytest.mark.neo4j)]


def _wipe() -> None:
    """Empty the Neo4j database (its schema stays), or skip when that is not allowed here."""
    if not (IN_CI or os.environ.get("GRAPHMEM_NEO4J_WIPE") == "1"):
        pytest.skip("the Neo4j conformance case empties the database: set GRAPHMEM_NEO4J_WIPE=1 (CI=true does)")
    from graphmem.errors import Neo4jUnavailable
    from graphmem.store.neo4j.client import connect

    try:
        client = connect()
    except Neo4jUnavailable as exc:
        need(f"no Neo4j server: {exc}")
    try:
        while client.run("MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS n")[0]["n"]:
            pass
    finally:
        client.close()


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Memory]]:
    """``store(**settings)`` opens a new, empty memory of this case's kind (``store.kind``)."""
    kind = request.param
    opened: list[Memory] = []
    if kind == "neo4j":
        _wipe()

    def open_(**settings: object) -> Memory:
        if kind == "ram":
            mem = Memory(**settings)
        elif kind == "file":
            mem = Memory(path=tmp_path / f"memory{len(opened)}.db", **settings)
        else:
            if opened:
                _wipe()
            mem = Memory(backend="neo4j", **settings)
        opened.append(mem)
        return mem

    open_.kind = kind  # type: ignore[attr-defined]
    yield open_
    for mem in opened:
        mem.close()
    if kind == "neo4j":
        _wipe()  # nothing left behind for the tests that share the server
