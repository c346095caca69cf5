"""LangGraph's store cases (tests/unit/integrations/test_langgraph_store.py) against a memory in Neo4j.

Eight of the cases (a put, get, update and delete; a batch in order; namespaces listed and bounded;
search under a prefix, with a query and a filter, after an update, in five scripts), each over a
fresh memory in the running Neo4j (the database emptied first, as the conformance suite does: only
under ``CI=true`` or ``GRAPHMEM_NEO4J_WIPE=1``), the store's side table in a file beside it
(``side=``: a store beside Neo4j is given one). Eight, not all 41: each case empties the database,
and the whole set would add minutes to CI for the same store code the RAM and file runs cover.
"""

from __future__ import annotations

import pytest

from tests.conftest import IN_CI

if not IN_CI:  # the extra is installed in CI (.ci/run), where its absence fails the import below
    pytest.importorskip("langgraph.store.base")

from graphmem import Memory  # noqa: E402
from graphmem.integrations.langgraph import GraphmemStore  # noqa: E402
from tests.conformance.conftest import _wipe  # noqa: E402
from tests.unit.integrations.test_langgraph_store import (  # noqa: E402,F401  (these cases, collected here too)
    store, test_basic_store_ops, test_batch_order, test_cannot_put_empty_namespace, test_list_namespaces_basic,
    test_non_ascii, test_search_namespace_segment_boundary, test_vector_search_with_filters,
    test_vector_update_with_embedding)


@pytest.fixture
def make(tmp_path):  # noqa: F811  (this module's maker: Neo4j, in place of RAM and a file)
    """A maker of fresh stores over an emptied Neo4j database."""
    made: list[tuple[GraphmemStore, Memory]] = []
    sides = iter(range(1000))

    def build(**kwargs) -> GraphmemStore:
        _wipe()
        for store, mem in made:  # one memory at a time: each maker call empties the database
            store.close()
            mem.close()
        made.clear()
        mem = Memory(backend="neo4j")
        try:
            store = GraphmemStore(mem, side=tmp_path / f"side{next(sides)}.sqlite", **kwargs)
        except Exception:
            mem.close()
            raise
        made.append((store, mem))
        return store

    yield build
    for store, mem in made:
        store.close()
        mem.close()
    _wipe()
