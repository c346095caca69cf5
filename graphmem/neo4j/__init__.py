"""Neo4j: the networkx mirror loaded into a graph database, and the path arm's hops over it.

One concern a module, each importing only those before it: :mod:`~graphmem.neo4j.queries`
(the Cypher files, by name), :mod:`~graphmem.neo4j.client` (the connection and its errors),
:mod:`~graphmem.neo4j.plan` (a conversation as rows), :mod:`~graphmem.neo4j.load` (the
batched write and its count check), then :mod:`~graphmem.neo4j.hops` (the path arm's
neighbourhood over Cypher). ``Memory(backend="neo4j")`` is the memory layer's
(:mod:`graphmem.store.neo4j`): it reads turns the way the memory does, and runs its Cypher here.
"""
