// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The keys of every turn of one user (`$p.owner`) held (of one conversation when `$p.conversation` is
// given), in memory_turns.cypher's order, as one list: what forgetting them needs, and no more.
MATCH (c:Conversation)
WHERE ($p.conversation IS NULL OR c.id = $p.conversation) AND coalesce(c.owner, '~none') = $p.owner
MATCH (t:Turn {conversation: c.id})
WITH c, t ORDER BY c.id, t.position
RETURN collect(t.key) AS keys
