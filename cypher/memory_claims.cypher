// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// One conversation's claims in turn order, as the claim reader made them (not the ones the graph
// derived), and whether it holds a turn at all or its claims were refused (a mark only a graphmem that
// read two-party dialogue alone wrote, for a third speaker; forgetting the conversation clears it).
OPTIONAL MATCH (c:Conversation {id: $p.conversation})
CALL (c) {
  MATCH (t:Turn {conversation: c.id})<-[:READ_FROM]-(a:Assertion)
  WHERE NOT coalesce(a.derived, false)
  WITH t, a ORDER BY t.position, a.seq
  RETURN collect(a {.subject, .predicate, .object, .negated, .sentence, turn_id: t.id, .date,
                     mentions: coalesce(a.mentions, []), topic: coalesce(a.topic, ''),
                     speaker: coalesce(a.speaker, '')}) AS claims
}
RETURN c IS NOT NULL AND coalesce(c.indexed, 0) > 0 AS held, c.refused AS refused, claims
