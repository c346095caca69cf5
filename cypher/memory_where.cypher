// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Which of these keys the database holds a turn under, and the conversation of each, as two lists
// in step: what forgetting them locks (graphmem.store.neo4j.write.Writer.forget).
UNWIND $p.keys AS key
MATCH (t:Turn {key: key})
RETURN collect(t.key) AS keys, collect(t.conversation) AS conversations
