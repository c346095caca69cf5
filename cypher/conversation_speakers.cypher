// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Who speaks in one conversation of the memory (its counters keep them: memory_write_claims), so
// that a confidence can tell an exchange with an assistant from two people talking.
OPTIONAL MATCH (c:Conversation {id: $p.conversation})
RETURN coalesce(c.speakers, []) AS speakers
