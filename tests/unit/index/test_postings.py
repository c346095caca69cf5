"""The growing inverted index scores exactly as the bulk BM25 ranker over the same documents."""

from __future__ import annotations

import random

import numpy as np

from graphmem.index.arrays import Weights
from graphmem.index.postings import Postings, top_k
from graphmem.index.query import B, K1
from graphmem.bench.research.ranker import Ranker
from graphmem.text.terms import analyse

WORDS = "dog cat hiking alps paint painting painted lake park music guitar drew drawing city beach".split()


def _counts(text: str, context: str, weight: float) -> tuple[dict[str, float], float]:
    counts: dict[str, float] = {}
    length = 0.0
    for field, w in ((text, 1.0), (context, weight)):
        terms = analyse(field)
        length += w * len(terms)
        for t in terms:
            counts[t] = counts.get(t, 0.0) + w
    return counts, length


def _random_docs(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    texts = [" ".join(rng.choices(WORDS, k=rng.randint(1, 12))) for _ in range(n)]
    contexts = [" ".join(rng.choices(WORDS, k=rng.randint(0, 8))) for _ in range(n)]
    return texts, contexts


def _scores(p: Postings, groups) -> np.ndarray:
    docs, scores = Postings.combine([p.group(g) for g in groups])
    out = np.zeros(p.n)
    out[docs] = scores
    return out


def test_scores_are_bitwise_the_bulk_rankers():
    texts, contexts = _random_docs(300)
    bulk = Ranker(texts, contexts=contexts)
    p = Postings(K1, B)
    for text, context in zip(texts, contexts):
        p.add(*_counts(text, context, 0.5))
    for query in ("dog in the park", "who drew the lake", "painting music guitar city", "beach"):
        groups = bulk.groups(query)
        assert np.array_equal(_scores(p, groups), bulk.scores(query, dates=False))


def test_frequencies_are_kept_narrow_only_while_exact():
    w = Weights()
    w.extend([1.0, 0.5, 2.5])
    assert w.view().dtype == np.float32
    w.append(0.3)  # no float32 is 0.3: every value is kept as float64 from here on, the earlier ones too
    w[0] = 1.7
    assert w.view().dtype == np.float64 and w.view().tolist() == [1.7, 0.5, 2.5, 0.3]


def test_a_replaced_document_scores_as_if_built_that_way():
    texts, contexts = _random_docs(120, seed=1)
    p = Postings(K1, B)
    first = [c if i % 3 else "" for i, c in enumerate(contexts)]  # every third turn's context arrives later
    for text, context in zip(texts, first):
        p.add(*_counts(text, context, 0.5))
    for i in range(0, len(texts), 3):
        old, _ = _counts(texts[i], first[i], 0.5)
        new, length = _counts(texts[i], contexts[i], 0.5)
        p.replace(i, old, new, length)
    bulk = Ranker(texts, contexts=contexts)
    for query in ("dog cat", "hiking alps lake", "drawing"):
        assert np.array_equal(_scores(p, bulk.groups(query)), bulk.scores(query, dates=False))


def test_top_k_is_a_stable_sort_cut_at_k():
    rng = np.random.default_rng(0)
    scores = rng.integers(1, 5, size=200).astype(float)  # many ties
    docs = np.arange(200)
    stable = [int(i) for i in np.argsort(-scores, kind="stable")]
    for k in (1, 5, 17, 200, 300):
        assert list(top_k(docs, scores, k)) == stable[:k]


def test_a_union_by_flags_is_the_union_by_sort():
    from graphmem.index.postings import DENSE, _union

    rng = np.random.default_rng(0)
    for size, n in ((5, 10_000), (2_000, 10_000), (9_000, 10_000)):  # few (sorted), many (flagged), most
        parts = [np.unique(rng.integers(0, n, size)).astype(np.int32) for _ in range(3)]
        want = np.unique(np.concatenate(parts))
        got = _union(parts)
        assert got.tolist() == want.tolist()
    assert _union([np.zeros(0, dtype=np.int32)]).tolist() == []
    assert 3 * 2_000 * DENSE >= 10_000 > 3 * 5 * DENSE  # both ways taken above


def _within_sets(n: int, rng: random.Random) -> list[np.ndarray]:
    """Runs of consecutive documents (a conversation ingested at once) and scattered ones."""
    runs = [np.arange(a, min(n, a + rng.randint(1, 60)), dtype=np.int64) for a in rng.sample(range(n), 6)]
    scattered = [np.array(sorted(rng.sample(range(n), rng.randint(1, 90))), dtype=np.int64) for _ in range(6)]
    return [*runs, *scattered, np.zeros(0, dtype=np.int64), np.arange(n, dtype=np.int64)]


def test_a_group_within_some_documents_scores_them_as_the_whole_group_does():
    """Bit for bit, with the whole memory's idf: single terms, irregular alternatives summed, terms
    whose postings went out of order (a document's field replaced), and after every change."""
    texts, contexts = _random_docs(400, seed=3)
    rng = random.Random(5)
    p = Postings(K1, B)
    held = [p.add(*_counts(t, c, 0.5)) for t, c in zip(texts, contexts)]
    groups = [("dog",), ("paint", "painting"), ("drew", "draw", "drawn"), ("lake", "park", "citi"), ("nowhere",)]
    for round_ in range(4):
        for within in _within_sets(p.n, rng):
            for g in groups:
                docs, scores = p.group(g)
                inside = np.isin(docs, within)
                got_docs, got = p.group(g, within)
                assert np.array_equal(got_docs, docs[inside]) and np.array_equal(got, scores[inside]), (round_, g)
        for d in rng.sample(held, 20):  # reply fields changed: some postings now out of document order
            old = _counts(texts[d], contexts[d], 0.5)[0]
            contexts[d] = " ".join(rng.choices(WORDS, k=rng.randint(0, 8)))
            p.replace(d, old, *_counts(texts[d], contexts[d], 0.5))
        held.append(p.add(*_counts("dog dog painting drew", "lake", 0.5)))
    assert not all(p._sorted)


def test_a_flat_part_and_a_sum_of_parts_within_some_documents_are_the_whole_ones_there():
    rng = random.Random(2)
    p = Postings(K1, B)
    for _ in range(200):
        p.add({"x": 1.0}, 3.0)
    marked = np.array(sorted(rng.sample(range(200), 70)), dtype=np.int64)
    for within in _within_sets(200, rng):
        docs, weight = p.flat(marked)
        inside = np.isin(docs, within)
        for got in (p.flat(marked, within), p.flat(marked, within, distinct=True)):
            assert np.array_equal(got[0], docs[inside]) and np.array_equal(got[1], weight[inside])
        parts = [(d[np.isin(d, within)], s[np.isin(d, within)])
                 for d, s in (p.group(("x",)), (marked, np.array([rng.random() for _ in marked])), p.flat(marked),
                              (marked, np.array([rng.random() * 1e-3 for _ in marked])))]
        whole_docs, whole = Postings.combine(parts)
        few_docs, few = Postings.combine(parts, few=True)
        assert np.array_equal(few_docs, whole_docs) and np.array_equal(few, whole)


def _same_within(p: Postings, group, within: np.ndarray) -> None:
    docs, scores = p.group(group)
    inside = np.isin(docs, within)
    got_docs, got = p.group(group, within)
    assert np.array_equal(got_docs, docs[inside]) and np.array_equal(got, scores[inside]), group


def test_every_change_to_the_postings_moves_a_groups_document_frequency_on():
    """Searched within a few documents right after each kind of change (one added, one replaced,
    a batch extended), a group weighs its terms by the document frequency they have now."""
    for group in (("dog",), ("dog", "cat")):
        p = Postings(K1, B)
        for i in range(50):
            p.add({"dog": 1.0} if i % 3 else {"cat": 1.0, "x": 1.0}, 3.0)
        within = np.arange(0, 10, dtype=np.int64)
        _same_within(p, group, within)
        p.add({"dog": 1.0}, 1.0)
        _same_within(p, group, within)
        p.replace(0, {"cat": 1.0, "x": 1.0}, {"x": 1.0}, 3.0)  # no longer held by document 0
        _same_within(p, group, within)
        p.replace(0, {"x": 1.0}, {"x": 1.0, "dog": 2.0}, 3.0)  # held again
        _same_within(p, group, within)
        p.extend(3, ["dog"], [(np.array([0, 1, 2]), np.array([0, 0, 0]), 1.0)])
        _same_within(p, group, within)


def test_documents_dropped_at_once_leave_what_dropping_them_one_by_one_leaves():
    """Postings with terms out of document order (replies moved) and waiting lists: dropping many
    documents at once (``drop_many``) leaves every array, frequency, length and total that ``drop``
    one by one leaves, bit for bit, and moves each changed term's version on as often."""
    texts, contexts = _random_docs(400, seed=3)
    rng = random.Random(5)
    for _ in range(20):
        one, many = Postings(K1, B), Postings(K1, B)
        held: dict[int, dict[str, float]] = {}
        for i, (text, context) in enumerate(zip(texts, contexts)):
            counts, length = _counts(text, context if i % 4 else "", 0.5)
            for p in (one, many):
                p.add(counts, length)
            held[i] = counts
        for i in rng.sample(range(len(texts)), 60):  # a reply field filled late: the term's postings out of order
            new, length = _counts(texts[i], contexts[i], 0.5)
            for p in (one, many):
                p.replace(i, held[i], new, length)
            held[i] = new
        gone = sorted(rng.sample(range(len(texts)), rng.choice((1, 2, 30, 200))))
        for d in gone:
            one.drop(d, held[d])
        many.drop_many([(d, held[d]) for d in gone])
        (t1, a1, total1), (t2, a2, total2) = one.arrays(), many.arrays()
        assert t1 == t2 and total1 == total2 and one.gone == many.gone and one.df == many.df
        assert all(np.array_equal(a1[k], a2[k]) and a1[k].dtype == a2[k].dtype for k in a1)
        assert one._version == many._version and not all(one._sorted)
