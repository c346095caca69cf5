// An ingest's first statement: each conversation it writes (sorted, so two writers lock in the
// same order), created if new and locked until the transaction ends (the SET takes the node's
// write lock), so turn order is decided here, not from a process's snapshot. `source` says who
// started it: 'memory' (this path), or null (graphmem load, which the memory never rewrites).
UNWIND $conversations AS id
MERGE (c:Conversation {id: id})
  ON CREATE SET c.source = 'memory', c.indexed = 0, c.length = 0.0, c.speakers = [], c.lspeakers = []
SET c.writes = coalesce(c.writes, 0) + 1
RETURN c.id AS conversation, c.source AS source, c.indexed AS indexed
