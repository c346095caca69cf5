// The keys of every turn of one user (`$owner`) held (of one conversation when `$conversation` is
// given), in memory_turns.cypher's order, as one list: what forgetting them needs, and no more.
MATCH (c:Conversation)
WHERE ($conversation IS NULL OR c.id = $conversation) AND coalesce(c.owner, '~none') = $owner
MATCH (t:Turn {conversation: c.id})
WITH c, t ORDER BY c.id, t.position
RETURN collect(t.key) AS keys
