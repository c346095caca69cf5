"""BM25F's functions, and the live index held to them: the memory's scores are these functions'
bit for bit, a forgotten turn counted nowhere (the research side's bulk ranker is held to them in
tests/unit/research, Neo4j's Cypher in tests/neo4j)."""

from __future__ import annotations

import math
import random

import numpy as np

from graphmem.domain import Turn
from graphmem.index import bm25f
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.postings import Postings
from graphmem.index.query import query_groups
from tests.unit.index import bm25f_reference as reference

WORDS = "dog cat hiking alps paint painting lake park music guitar drew drawing city beach".split()


def test_the_idf_is_robertson_zaragozas_and_never_negative():
    assert bm25f.idf(10, 0) == math.log(22.0)
    assert bm25f.idf(10, 10) > 0 and bm25f.idf(10, 1) > bm25f.idf(10, 5)


def test_the_reply_field_counts_at_its_weight_in_frequencies_and_length():
    counts, length = bm25f.field_counts(["dog", "park", "dog"], ["dog", "lake"], 0.5)
    assert counts == {"dog": 2.5, "park": 1.0, "lake": 0.5} and length == 4.0
    assert bm25f.field_counts(["dog"], ["lake"], 0.0) == ({"dog": 1.0}, 1.0)


def test_saturation_and_length_normalisation():
    avg = bm25f.average_length(12.0, 4)
    assert avg == 3.0 and bm25f.average_length(0.0, 0) == 1.0
    assert bm25f.length_norm(3.0, avg, 1.2, 0.75) == 1.2  # a document of average length: k1
    assert bm25f.length_norm(6.0, avg, 1.2, 0.0) == 1.2  # b = 0: no length normalisation
    low, high = bm25f.saturated(2.0, 1.0, 1.2, 1.2), bm25f.saturated(2.0, 1e9, 1.2, 1.2)
    assert low < high < 2.0 * 2.2  # more occurrences count, up to the weight times k1 + 1
    column = bm25f.saturated(2.0, np.array([1.0, 3.0]), np.array([1.2, 0.9]), 1.2)
    assert column.tolist() == [bm25f.saturated(2.0, 1.0, 1.2, 1.2), bm25f.saturated(2.0, 3.0, 0.9, 1.2)]


def _texts(n: int, seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    return ([" ".join(rng.choices(WORDS, k=rng.randint(1, 12))) for _ in range(n)],
            [" ".join(rng.choices(WORDS, k=rng.randint(0, 8))) for _ in range(n)])


def test_postings_score_as_the_functions_with_documents_dropped():
    texts, contexts = _texts(200, seed=4)
    docs = reference.counted(texts, contexts)
    p = Postings(bm25f.K1, bm25f.B)
    for counts, length in docs:
        p.add(counts, length)
    for d in range(0, 200, 7):
        p.drop(d, docs[d][0])
        docs[d] = None
    for query in ("dog in the park", "who drew the lake", "painting music guitar city"):
        groups = query_groups(query, reference.known(docs).__contains__)
        got_docs, got = Postings.combine([p.group(g) for g in groups])
        want = np.array(reference.scores(docs, groups))
        assert groups and np.array_equal(got_docs, np.flatnonzero(want)) and np.array_equal(got, want[got_docs])


def test_the_live_index_of_a_dialogue_scores_as_the_functions():
    """Turns of one conversation, fed to the live index: each turn's own field and the turn it replies
    to, at the reply weight the index read it with, score a query as the functions say."""
    texts, _ = _texts(60, seed=6)
    index = LiveIndex(MemoryOptions(speaker=False, unaddressed=False), scope=False)
    index.add([Turn(id=str(i), speaker="Ann" if i % 2 else "Bob", text=t, conversation="c", number=i)
               for i, t in enumerate(texts)])
    docs = [bm25f.field_counts(index.indexed_terms(i), index.reply_field(i), index.reply_weight)
            for i in range(len(texts))]
    assert any(index.reply_field(i) for i in range(len(texts)))
    for query in ("dog park", "drawing lake"):
        groups = query_groups(query, reference.known(docs).__contains__)
        got_docs, got = Postings.combine([index.postings.group(g) for g in groups])
        want = np.array(reference.scores(docs, groups))
        assert np.array_equal(got, want[got_docs]) and set(got_docs) == set(np.flatnonzero(want))
