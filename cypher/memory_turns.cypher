// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Every turn of one user (`$p.owner`) held (of one conversation when `$p.conversation` is given): conversation by
// conversation in the order of their ids, each in the order its turns were written.
MATCH (c:Conversation)
WHERE ($p.conversation IS NULL OR c.id = $p.conversation) AND coalesce(c.owner, '~none') = $p.owner
MATCH (t:Turn {conversation: c.id})
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn, t.user AS user, t.metadata AS metadata
ORDER BY c.id, t.position
