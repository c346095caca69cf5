"""Every store scores a turn as :mod:`graphmem.index.bm25f`'s functions do: the live index in RAM and
in a file calls them, and Neo4j's Cypher (``cypher/search_parts.cypher``, ``search_bm25f.cypher``)
writes them out, so this is the case that holds the Cypher to the module it names. Bit for bit: the
terms' frequencies and lengths are sums of halves and wholes, exact in any order, and the Neo4j
server's ``log`` gave the C library's value for every idf here."""

from __future__ import annotations

from graphmem import Memory
from graphmem.index.options import MemoryOptions
from graphmem.index.query import Query
from tests.conformance.test_stores import CHAT
from tests.unit.index import bm25f_reference as reference

WORDS = ["ice cream turn out", "Nate adopt dog Rex", "kayaking lake cold", "coconut party leftovers",
         "book Dune reading night", "lake kayak Rex", "turtles ate"]
"""Queries of words alone: no date, no answer type, no first person (those add their idf alone)."""


def test_every_store_scores_a_turn_as_the_bm25f_functions(store):
    options = MemoryOptions(updates=False)  # the store's own scores and order
    mem, here = store(options=options), Memory(options=options)
    mem.ingest(CHAT)
    here.ingest(CHAT)
    index = here.store.index
    docs = [index.fields(i) for i in range(len(index))]
    ids = [r.id for r in index.records]
    for q in WORDS:
        groups = Query.parse(q).groups(reference.known(docs).__contains__)
        want = dict(zip(ids, reference.scores(docs, groups)))
        hits = mem.hits(q, k=len(CHAT))
        assert hits and {h.id for h in hits} == {i for i, s in want.items() if s > 0}, q
        assert [h.score for h in hits] == [want[h.id] for h in hits], q  # bit for bit, Neo4j's log too
