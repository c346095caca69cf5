"""The vector store: cosine top-k with a metadata filter, as matrix products."""

import numpy as np
from scipy import sparse

from graphmem.bench.arms.vectors import ALL, Filter, Store


def _store():
    rows = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    return Store(sparse.csr_matrix(rows), {"person": ["ann", "bob", "ann", "bob"], "dia": ["D1", "D2", "D3", "D4"]})


def test_ranks_by_cosine_best_first_and_skips_zero_scores():
    s = _store()
    q = sparse.csr_matrix(np.array([[1.0, 0.0, 0.0]]))
    [row] = s.search(q, 10)
    assert [i for i, _ in row] == [0, 1]  # items 2 and 3 share nothing with the query
    assert row[0][1] == 1.0 and abs(row[1][1] - 0.6) < 1e-12


def test_top_k_cuts_and_ties_keep_item_order():
    rows = sparse.csr_matrix(np.ones((5, 1)))
    s = Store(rows, {"x": list(range(5))})
    [row] = s.search(sparse.csr_matrix(np.ones((1, 1))), 3)
    assert [i for i, _ in row] == [0, 1, 2]


def test_filter_admits_only_matching_items():
    s = _store()
    q = sparse.csr_matrix(np.array([[0.6, 0.8, 0.0], [0.6, 0.8, 0.0]]))
    ann, everyone = s.search(q, 5, [Filter.eq("person", "ann"), ALL])
    assert [i for i, _ in ann] == [2, 0]
    assert [i for i, _ in everyone] == [1, 2, 0]
    [none] = s.search(q[:1], 5, [Filter.eq("person", "nobody")])
    assert none == []
    [both] = s.search(q[:1], 5, [Filter.eq("person", "bob").and_eq("dia", "D2")])
    assert [i for i, _ in both] == [1]


def test_empty_store_and_mismatched_metadata():
    empty = Store(sparse.csr_matrix((0, 3)), {"person": []})
    assert empty.search(sparse.csr_matrix(np.ones((2, 3))), 5) == [[], []]
    try:
        Store(sparse.csr_matrix(np.ones((2, 3))), {"person": ["a"]})
    except ValueError as exc:
        assert "person" in str(exc)
    else:
        raise AssertionError("mismatched metadata accepted")
