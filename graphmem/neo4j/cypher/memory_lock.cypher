// An ingest's first statement: each conversation it writes (sorted, so two writers lock in the
// same order), created if new and locked until the transaction ends (the SET takes the node's
// write lock), so turn order is decided here, not from a process's snapshot. `source` says who
// started it: 'memory' (this path), or null (graphmem load, which the memory never rewrites).
// `held`: which of the new turns' keys (conversation/id) the database holds already, read under
// the lock (duplicates are judged within a conversation).
UNWIND $conversations AS id
MERGE (c:Conversation {id: id})
  ON CREATE SET c.source = 'memory', c.indexed = 0, c.length = 0.0, c.speakers = [], c.lspeakers = []
SET c.writes = coalesce(c.writes, 0) + 1
WITH collect(c) AS locked
CALL () {
  UNWIND $keys AS key
  MATCH (t:Turn {key: key})
  RETURN collect([t.id, t.conversation]) AS held
}
UNWIND locked AS c
RETURN c.id AS conversation, c.source AS source, c.indexed AS indexed, held
