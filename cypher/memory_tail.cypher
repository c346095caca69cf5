// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The turns of one conversation from a position on, in order: what another process wrote
// since this one last read the conversation.
MATCH (t:Turn {conversation: $p.conversation})
WHERE t.position >= $p.from
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn, t.user AS user, t.caption AS caption, t.position AS position,
       t.metadata AS metadata
ORDER BY t.position
