"""The research side's bulk index is held to the product's ranking: its ranker scores as
:mod:`graphmem.index.bm25f`'s functions, bit for bit, and with no strategy but a rerank that
keeps the order it reads the turn shape, the asker's turns and the conversations as the live
index does (the product's own tests hold the live index to the same functions)."""

from __future__ import annotations

import random

import numpy as np

from graphmem.index.query import query_groups
from graphmem.memory.api import Memory
from graphmem.bench.research.ranker import Ranker
from graphmem.bench.research.store import research_memory
from graphmem.bench.research.strategies import Strategies
from tests.unit.index import bm25f_reference as reference
from tests.unit.index.test_conversations import CHAT, reference_conversations, unnamed_questions
from tests.unit.index.test_shape import QUESTION, _as_chat, _chat_order, _turns

WORDS = "dog cat hiking alps paint painting lake park music guitar drew drawing city beach".split()


def _kept_order():
    return research_memory(Strategies(rerank=lambda found, named: found))  # a strategy: the research index


def test_the_bulk_ranker_scores_as_the_functions():
    rng = random.Random(0)
    texts = [" ".join(rng.choices(WORDS, k=rng.randint(1, 12))) for _ in range(300)]
    contexts = [" ".join(rng.choices(WORDS, k=rng.randint(0, 8))) for _ in range(300)]
    for ctx in (contexts, None):
        bulk = Ranker(texts, contexts=ctx)
        docs = reference.counted(texts, ctx, 0.5 if ctx is not None else 0.0)
        for query in ("dog in the park", "who drew the lake", "painting music guitar city", "beach"):
            groups = query_groups(query, reference.known(docs).__contains__)
            assert groups == bulk.groups(query)
            assert np.array_equal(bulk.scores(query, dates=False), np.array(reference.scores(docs, groups)))


def test_the_bulk_index_reads_the_shape_as_the_live_one_does():
    live, bulk = Memory(), _kept_order()
    live.ingest(_turns())
    bulk.ingest(_turns())
    assert bulk.search(QUESTION, k=4) == live.search(QUESTION, k=4)
    assert bulk.search(QUESTION, k=1) == ["u"]


def test_the_bulk_index_weighs_the_askers_turns_as_the_live_one(dataset):
    records, questions = _as_chat(dataset)
    fed = _chat_order(records)
    live, bulk = Memory(), _kept_order()
    live.ingest(fed)
    bulk.ingest(fed)
    for q in questions:
        assert live.search(q) == bulk.search(q), q


def test_the_bulk_index_sums_conversations_as_the_definition(dataset):
    records, questions = unnamed_questions(dataset)
    mem = Memory()
    mem.ingest(records)
    bulk = research_memory(Strategies())
    bulk.ingest(list(mem.turns()))
    for q in questions:
        assert bulk.search_conversations(q, k=10) == reference_conversations(mem.store.index, q, 5, 0.3)[:10], q


def test_the_bulk_index_ranks_conversations_as_the_live_one():
    live, bulk = Memory(), _kept_order()
    live.ingest(CHAT)
    bulk.ingest(CHAT)
    for q in ("kayak on the lake", "pizza after the match", "lake"):
        assert bulk.search_conversations(q, k=3) == live.search_conversations(q, k=3), q
