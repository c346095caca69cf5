"""A memory's BM25F scores computed the slow way, one float at a time, from
:mod:`graphmem.index.bm25f`'s functions alone: what every index (the live postings, the research
side's bulk ranker, Neo4j's Cypher) is held to, bit for bit, by the parity tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.index import bm25f
from graphmem.text.terms import analyse


def counted(texts: Sequence[str], contexts: Sequence[str] | None, weight: float = bm25f.CONTEXT_WEIGHT
            ) -> list[tuple[dict[str, float], float]]:
    """Each text's term frequencies and length, its context the reply field at ``weight``."""
    return [bm25f.field_counts(analyse(t), analyse(contexts[i]) if contexts is not None else [], weight)
            for i, t in enumerate(texts)]


def scores(docs: Sequence[tuple[Mapping[str, float], float] | None], groups: Sequence[Sequence[str]],
           k1: float = bm25f.K1, b: float = bm25f.B) -> list[float]:
    """Each document's score for the query ``groups`` (one tuple of alternative stems per word):
    per group, its stems' frequencies summed in order, its document frequency the documents
    holding any, its contribution :func:`bm25f.saturated` at :func:`bm25f.idf`, added in query
    order from 0.0. A document given as None is forgotten: it counts nowhere and scores 0.0."""
    held = [d for d in docs if d is not None]
    total = 0.0
    for _, length in held:
        total += length
    avg = bm25f.average_length(total, len(held))
    out = [0.0] * len(docs)
    for group in groups:
        tfs = []
        for doc in docs:
            tf = 0.0
            for stem in group:
                tf += doc[0].get(stem, 0.0) if doc is not None else 0.0
            tfs.append(tf)
        df = sum(tf > 0 for tf in tfs)
        for i, (doc, tf) in enumerate(zip(docs, tfs)):
            if tf > 0:
                out[i] += bm25f.saturated(bm25f.idf(len(held), df), tf, bm25f.length_norm(doc[1], avg, k1, b), k1)
    return out


def known(docs: Sequence[tuple[Mapping[str, float], float] | None]) -> set[str]:
    """Every stem some document holds (what a store answers a query's groups against)."""
    return {t for d in docs if d is not None for t, tf in d[0].items() if tf > 0}
