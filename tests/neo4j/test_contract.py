"""The store contract on Neo4j, below the memory: :func:`tests.unit.store.test_contract.exercise`'s calls
on a :class:`graphmem.store.neo4j.store.Neo4jStore`, in a user's part of the database (so the data other tests
keep there is never searched), and the load's own write apart from ``add``."""

from __future__ import annotations

import inspect

import pytest

from graphmem.store.base import Store
from graphmem.store.neo4j.store import Neo4jStore
from tests.neo4j.test_neo4j import emptied
from tests.unit.store.test_contract import exercise

USER = "contract-user"
CONVS = ("\x01contract-user\x01contract", "\x01contract-user\x01contract-b")


@pytest.fixture
def clean():
    yield from emptied(*CONVS)


def test_neo4j_keeps_the_contract(clean):
    store = Neo4jStore()
    try:
        assert isinstance(store, Store)
        exercise(store, user=USER)
    finally:
        store.close()


def test_a_loads_graph_goes_through_its_own_method():
    """``add`` takes turns alone, as every store's; the load's graph (``given``) is Neo4j's ``load``."""
    assert list(inspect.signature(Neo4jStore.add).parameters) == ["self", "turns"]
    assert list(inspect.signature(Neo4jStore.load).parameters) == ["self", "turns", "given"]
