"""Conversations ranked for a query: each scores its best turn and, at a fraction, its next best;
the live index, the bulk index and a saved memory rank them alike."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.index.query import Query
from graphmem import Memory
from graphmem.errors import DataError
from graphmem.index.conversations import best_conversations, conversation_scores
from graphmem.bench.research.store import research_memory
from graphmem.bench.research.strategies import Strategies
from graphmem.index.options import MemoryOptions

# s2 holds the single best turn (1.825); s1 three lesser ones (1.296, 1.205, 0.627: 1.846 summed)
CHAT = [
    {"id": "a1", "speaker": "user", "text": "I want a kayak, a cheap one.", "conversation": "s1"},
    {"id": "a2", "speaker": "assistant", "text": "A touring kayak suits calm water and a lake.", "conversation": "s1"},
    {"id": "a3", "speaker": "user", "text": "Is a used kayak cheaper at the lake shop?", "conversation": "s1"},
    {"id": "b1", "speaker": "user", "text": "Kayak on the lake: my brother's kayak on the lake.", "conversation": "s2"},
    {"id": "b2", "speaker": "assistant", "text": "Paddling is good exercise.", "conversation": "s2"},
    {"id": "c1", "speaker": "user", "text": "We had pizza after the match.", "conversation": "s3"},
    {"id": "c2", "speaker": "assistant", "text": "Pizza after a match sounds fun.", "conversation": "s3"},
]


def test_a_conversation_scores_its_best_turn_and_a_share_of_its_next_best():
    convs = np.array([2, 0, 0, 1, 0, 0, 0, 0])
    scores = np.array([1.0, 3.0, 1.0, 2.5, 2.0, 0.5, 0.25, 0.125])
    ids, totals = conversation_scores(convs, scores, turns=3, rest=0.5)
    assert ids.tolist() == [0, 1, 2]
    assert totals.tolist() == [3.0 + 0.5 * (2.0 + 1.0), 2.5, 1.0]  # conversation 0: its best, then its next two
    _, alone = conversation_scores(convs, scores, turns=1, rest=0.5)
    assert alone.tolist() == [3.0, 2.5, 1.0]  # one turn counted: each at its best
    _, every = conversation_scores(convs, scores, turns=99, rest=1.0)
    assert every.tolist() == [6.875, 2.5, 1.0]
    empty_ids, empty = conversation_scores(np.zeros(0, dtype=np.int64), np.zeros(0), 5, 0.3)
    assert empty_ids.size == empty.size == 0


def test_the_best_conversations_come_first_ties_by_number_the_named_before_the_rest():
    convs, scores = np.array([0, 1, 2, 3]), np.array([1.0, 2.0, 1.0, 0.5])
    assert best_conversations(convs, scores, 3, None, 5, 0.3) == [1, 0, 2]
    assert best_conversations(convs, scores, 9, np.array([3, 2]), 5, 0.3) == [2, 3, 1, 0]
    assert best_conversations(convs, scores, 1, np.array([3]), 5, 0.3) == [3]
    assert best_conversations(convs, scores, 0, None, 5, 0.3) == []


def test_a_conversation_with_several_matching_turns_outranks_one_with_a_single_better_turn():
    mem = Memory()
    mem.ingest(CHAT)
    found = mem.search("kayak on the lake", k=1)
    assert found == ["b1"]  # the single best turn is s2's
    assert mem.search_conversations("kayak on the lake", k=3) == ["s1", "s2"]
    at_best = Memory(options=MemoryOptions(conversation_turns=1))
    at_best.ingest(CHAT)
    assert at_best.search_conversations("kayak on the lake", k=3) == ["s2", "s1"]
    assert mem.search_conversations("kayak on the lake", k=1) == ["s1"]
    assert mem.search_conversations("pizza", k=5) == ["s3"]
    assert mem.search_conversations("kayak", k=0) == []
    assert mem.search_conversations("zzqx qqzz", k=5) == []
    assert Memory().search_conversations("kayak") == []
    with pytest.raises(DataError, match="query must be a string"):
        mem.search_conversations(["kayak"])


def _reference(index, query: str, turns: int, rest: float) -> list[str]:
    """Every matching turn's score summed per conversation in plain Python: the definition."""
    docs, scores = index.scores(Query.parse(query))
    per: dict[str, list[float]] = {}
    for d, s in zip(docs.tolist(), scores.tolist()):
        per.setdefault(index.records[d].conversation, []).append(s)
    order = list(dict.fromkeys(r.conversation for r in index.records))
    total = {}
    for c, ss in per.items():
        ss.sort(reverse=True)
        total[c] = ss[0] + rest * sum(ss[1:turns])
    return sorted(total, key=lambda c: (-total[c], order.index(c)))


def test_the_live_index_sums_as_the_definition_and_as_the_bulk_index(dataset):
    """LoCoMo's questions with no one named in them (the names made "someone", so no scope puts a
    person's conversations first): the live ranking is the plain sum's, and the bulk index's."""
    records = [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
                "conversation": c.id} for c in dataset.conversations for t in c.turns]
    names = {t.speaker for c in dataset.conversations for t in c.turns}
    questions = [q.text for c in dataset.conversations for q in c.questions][::40]
    mem = Memory()
    mem.ingest(records)
    bulk = research_memory(Strategies())
    bulk.ingest(list(mem.turns()))
    for q in questions:
        for who in names:
            q = q.replace(who, "someone")
        expected = _reference(mem.store.index, q, 5, 0.3)
        assert mem.search_conversations(q, k=10) == expected[:10], q
        assert bulk.search_conversations(q, k=10) == expected[:10], q


def test_the_named_persons_conversations_come_first(dataset):
    records = [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
                "conversation": c.id} for c in dataset.conversations[:4] for t in c.turns]
    mem = Memory()
    mem.ingest(records)
    conv = dataset.conversations[2]
    who = conv.turns[0].speaker
    found = mem.search_conversations(f"What did {who} paint?", k=4)
    assert found[0] == conv.id
    assert Memory(scope=False).search_conversations("x", k=1) == []


def test_a_saved_memory_and_the_bulk_index_rank_conversations_as_the_live_one(tmp_path):
    live = Memory()
    live.ingest(CHAT)
    with Memory(path=tmp_path / "m.db") as saved:
        for r in CHAT:
            saved.ingest([r])
    with Memory(path=tmp_path / "m.db") as again:
        for q in ("kayak on the lake", "pizza after the match", "lake"):
            assert again.search_conversations(q, k=3) == live.search_conversations(q, k=3), q
    bulk = research_memory(Strategies(rerank=lambda found, people: found))  # a strategy: the research index
    bulk.ingest(CHAT)
    for q in ("kayak on the lake", "pizza after the match", "lake"):
        assert bulk.search_conversations(q, k=3) == live.search_conversations(q, k=3), q
