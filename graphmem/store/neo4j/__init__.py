"""The memory in Neo4j: everything of the Neo4j backend in one folder (the Cypher itself lives in ``cypher/``).

One concern a module, each importing only those before it: :mod:`~graphmem.store.neo4j.queries`
(the Cypher files, by name), :mod:`~graphmem.store.neo4j.client` (the connection and its errors),
:mod:`~graphmem.store.neo4j.keys` (a Person node's key), :mod:`~graphmem.store.neo4j.plan` (a
conversation as rows), :mod:`~graphmem.store.neo4j.checks` (a load's count check and report), then
the store, ``Memory(backend="neo4j")``: :mod:`~graphmem.store.neo4j.store` with its rows, search,
write and forget, and :mod:`~graphmem.store.neo4j.load` (``graphmem load`` written through it). The
path arm's hops over this graph measure it, so they sit with the benchmarks
(:mod:`graphmem.bench.arms.hops`).
"""
