// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The keys of every turn of these conversations, whoever's they are: what forgetting them whole needs
// (graphmem load --replace, a clean-up: graphmem.store.neo4j.store.Neo4jStore.forget_conversations).
UNWIND $p.conversations AS id
MATCH (t:Turn {conversation: id})
RETURN id AS conversation, collect(t.key) AS keys
