"""The benchmarks' bulk store keeps the store contract, called directly as the product's stores are
(:func:`tests.unit.store.test_contract.exercise`)."""

from __future__ import annotations

from graphmem.bench.research.store import BulkStore
from tests.unit.store.test_contract import exercise


def test_the_bulk_store_keeps_the_contract():
    store = BulkStore()
    try:
        exercise(store)
    finally:
        store.close()
