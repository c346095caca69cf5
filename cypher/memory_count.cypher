// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// How many turns the database indexes: one user's (`$p.owner`), or every user's (null), off the
// Conversation nodes' counters.
MATCH (c:Conversation)
WHERE $p.owner IS NULL OR c.owner = $p.owner
RETURN sum(coalesce(c.indexed, 0)) AS n
