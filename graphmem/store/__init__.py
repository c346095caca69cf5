"""Where a memory keeps its turns: in RAM, in one SQLite file, or in Neo4j (:mod:`graphmem.store.base`)."""
