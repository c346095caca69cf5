// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// An ingest's first statement: each conversation it writes (sorted, so two writers lock in the
// same order; a user's conversations are keyed by graphmem.store.users, and keep their owner), created
// if new and locked until the transaction ends, so turn positions and sessions are decided here, not
// from a process's snapshot. The lock is a write that reads nothing of the node (a fresh value in
// `lock`): a SET that reads what it writes (`c.n = c.n + 1`) makes Cypher take the node's lock its
// own way before reading, and a writer queued like that deadlocked with the holder each time the
// holder wrote the node again (a new session, its counters): see docs/neo4j.md, "Faults"
// (python bench/neo4j_faults.py writers --restart).
// `held`: which of the new turns' keys the database holds already, with what they hold, read under
// the lock (a turn held with the same content is skipped; with other content, refused).
// `sessions`: each conversation's sessions as [index, day], so a new turn joins the sitting of its day.
// `epoch`: set when the conversation is made and at each forgetting (forget_in_place.cypher,
// forget_turns.cypher), so a writer knows whether its reading of it still holds (graphmem.store.neo4j.write).
UNWIND $p.conversations AS row
MERGE (c:Conversation {id: row.id})
  ON CREATE SET c.indexed = 0, c.length = 0.0, c.speakers = [], c.lspeakers = [], c.askers = 0, c.user = row.user,
                c.owner = row.owner, c.epoch = randomUUID()
SET c.lock = randomUUID()
WITH collect(c) AS locked
CALL () {
  UNWIND $p.keys AS key
  MATCH (t:Turn {key: key})
  RETURN collect(t {.key, .id, .speaker, .text, .date, .conversation, .number, .user, .metadata}) AS held
}
UNWIND locked AS c
RETURN c.id AS conversation, coalesce(c.indexed, 0) AS indexed, coalesce(c.epoch, '') AS epoch, held,
       COLLECT { MATCH (c)-[:HAS_SESSION]->(s:Session) RETURN [s.index, s.day] } AS sessions
