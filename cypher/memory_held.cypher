// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The turns the database holds under any of these keys (a memory's duplicate check before a write).
UNWIND $p.keys AS key
MATCH (t:Turn {key: key})
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn, t.user AS user, t.metadata AS metadata
