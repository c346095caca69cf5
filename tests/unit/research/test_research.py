"""The research memory differs from the shipped one in exactly the step a strategy replaces: with
no strategy, its bulk ranker (every turn scored at once, a sparse matrix) ranks, weighs and answers
as the live index does over the same turns, fed one at a time or out of order. Otherwise a
variant's figures would measure two differences, not one."""

from __future__ import annotations

import random

import pytest

from graphmem import Memory
from graphmem.index.options import MemoryOptions
from graphmem.bench.research.store import research_memory
from graphmem.bench.research.strategies import Strategies
from tests.conftest import shared_or_need


def _records(dataset, numbered: bool = False) -> list[dict]:
    return [{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
             "conversation": c.id, **({"turn": int(t.id.split(":")[1])} if numbered else {})}
            for c in dataset.conversations for t in c.turns]


def _questions(dataset) -> list[str]:
    return [q.text for c in dataset.conversations for q in c.questions]


def _bulk(mem: Memory, options: MemoryOptions = MemoryOptions(), dense: bool = False) -> Memory:
    """The research memory over the same turns: every turn scored at once by the bulk ranker, what
    the memory answered before it was live (the research side must differ from it in one step only)."""
    bulk = research_memory(Strategies(), options=options, dense=dense)
    bulk.ingest(mem.store.index.records)  # in the order the memory was fed
    return bulk


def test_one_turn_at_a_time_searches_as_the_bulk_index(dataset):
    mem = Memory()
    for r in _records(dataset):
        mem.ingest([r])
    bulk = _bulk(mem)
    for q in _questions(dataset):
        assert mem.search(q) == bulk.search(q), q


@pytest.mark.parametrize("options", [MemoryOptions(), MemoryOptions(context_reach=3),
                                     MemoryOptions(unaddressed=False, speaker=False, spans=False)])
def test_turns_out_of_order_search_as_the_bulk_index(dataset, options):
    """Numbered turns in shuffled order (a turn before the one it replies to, speakers met late):
    every reply field and vocative is read again where the bulk index would read it otherwise."""
    records = _records(dataset, numbered=True)
    random.Random(1).shuffle(records)
    records = records[:2500]
    mem = Memory(options=options)
    for start in range(0, len(records), 7):
        mem.ingest(records[start:start + 7])
    bulk = _bulk(mem, options)
    assert mem.store.index.context == bulk.store.index.contexts
    for q in _questions(dataset)[::3]:
        assert mem.search(q) == bulk.search(q), q
        assert mem.search(q, conversation="conv-26") == bulk.search(q, conversation="conv-26"), q


def test_confidence_and_replies_match_the_bulk_vocabulary(dataset):
    from graphmem.answer.sure import sure

    # Knowledge updates may put a newer turn first in Memory.ask, where the bulk index keeps its
    # order; with them off both read the same first turn, which is what this compares.
    options = MemoryOptions(updates=False)
    mem = Memory(options=options)
    mem.ingest(_records(dataset))
    bulk = _bulk(mem, options)
    for q in _questions(dataset)[:300]:
        found = bulk.records_for(q)
        if found:
            assert mem.ask(q).confidence == sure(bulk.store.index.vocab, q, found[0].text, unseen=True), q


def test_the_dense_side_embeds_each_batch_once_and_scores_as_the_bulk_index():
    import json

    from graphmem.bench import bench6
    from graphmem.search import dense

    bench6_dir = shared_or_need("bench6", "GRAPHMEM_BENCH6", inside="pool.jsonl")
    if not dense.available():
        pytest.skip("the dense extra is not installed")
    pool = [json.loads(line) for line in (bench6_dir / "pool.jsonl").read_text().splitlines()]
    rows = [{"id": r["id"], "speaker": r["speaker"], "text": r["text"],
             "conversation": r["id"].rsplit("_session", 1)[0]} for r in pool]
    mem = Memory(dense=True)
    mem.ingest(rows[:60])
    mem.ingest(rows[60:])
    bulk = _bulk(mem, dense=True)
    for q in bench6.load_bench(bench6_dir).questions:
        for lang in ("en", "zh"):
            assert mem.search(q.text[lang]) == bulk.search(q.text[lang]), q.qid



def test_the_research_memory_finds_a_relative_date_as_the_live_one():
    turns = [{"id": "b", "speaker": "user", "text": "I bought soap.", "date": "2023/03/20 (Mon) 10:00"},
             {"id": "a", "speaker": "user", "text": "I bought a blender this morning.", "date": "2023/03/15 (Wed) 10:00"},
             {"id": "c", "speaker": "user", "text": "Yesterday I bought a new toaster.", "date": "2023/03/16 (Thu) 09:00"}]
    mem = Memory()
    mem.ingest(turns)
    q = "What appliance did I buy 10 days ago?"
    assert _bulk(mem).search(q, asked_on="2023-03-25") == mem.search(q, asked_on="2023-03-25") == ["a", "c", "b"]


def test_a_strategy_replaces_its_step_and_an_unknown_ranking_is_refused():
    from graphmem.errors import MisuseError

    turns = [{"id": str(i), "speaker": "Ann", "text": t} for i, t in enumerate(["a red kite", "a blue kite", "a red bus"])]
    reversed_ = research_memory(Strategies(rerank=lambda found, named: found[::-1]))
    reversed_.ingest(turns)
    shipped = Memory()
    shipped.ingest(turns)
    assert reversed_.search("red kite", k=3) == shipped.search("red kite", k=3)[::-1]
    tfidf = research_memory(Strategies(ranking="tfidf"))
    tfidf.ingest(turns)
    assert tfidf.search("red kite", k=1) == ["0"]
    with pytest.raises(MisuseError, match="unknown ranking 'bm99'"):
        Strategies(ranking="bm99")
