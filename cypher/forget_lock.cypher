// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Forgetting's first statement (graphmem.store.neo4j.write): each conversation that loses turns,
// locked (sorted, so writers queue in one order, as memory_lock.cypher), with how many turns it
// holds, how many of them go, and whether it is written again whole: its graph is a load's (the
// assertions the graph derived, people in the mirror's order) or its claims were refused. The lock
// is a write that reads nothing of the node, as memory_lock.cypher's (a SET that reads what it writes
// deadlocked a writer queued on it with the holder).
UNWIND $p.conversations AS id
MATCH (c:Conversation {id: id})
SET c.lock = randomUUID()
RETURN c.id AS conversation, coalesce(c.indexed, 0) AS indexed, coalesce(c.epoch, '') AS epoch,
       COUNT { UNWIND $p.keys AS key MATCH (t:Turn {key: key}) WHERE t.conversation = c.id RETURN t } AS gone,
       c.refused IS NOT NULL
         OR EXISTS { MATCH (a:Assertion {conversation: c.id}) WHERE a.derived }
         OR EXISTS { MATCH (p:Person {conversation: c.id}) WHERE p.n >= 0 } AS whole
