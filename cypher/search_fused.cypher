// A fused search's candidates (after search_parts.cypher): Lucene's, as search_lexical.cypher
// proposes them, and the vector index's: the turns of the `$nearest` sentences nearest `$vector`
// (or, searching one conversation, of every sentence it holds: the index's nearest are
// database-wide), and the turns replying to those, which share in their score; searching one
// conversation, only its turns; only the asking user's, and as of `$q.until` only those said by then
// (see search_lexical.cypher).
CALL (lucenes) {
  UNWIND lucenes AS lucene
  CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $q.limit}) YIELD node
  RETURN collect(node) AS lexical
}
CALL () {
  CALL () {
    CALL db.index.vector.queryNodes('sentence_vectors', $q.nearest, $q.vector) YIELD node AS s
    WITH s WHERE $q.conversation IS NULL
    RETURN s
    UNION
    MATCH (s:Sentence {conversation: $q.conversation})
    RETURN s
  }
  MATCH (t:Turn {key: s.turn}) WHERE t.owner = $q.owner
  OPTIONAL MATCH (r:Turn {replied: t.key})
  RETURN collect(t) + collect(r) AS near
}
UNWIND lexical + near AS t
WITH DISTINCT t, avg, named, asker, groups, dates, typed
WHERE t.owner = $q.owner AND ($q.conversation IS NULL OR t.conversation = $q.conversation)
  AND ($q.until IS NULL OR t.date IS NULL OR t.date <= $q.until)
  AND all(g IN $q.tags WHERE any(x IN g WHERE x IN coalesce(t.tags, [])))
